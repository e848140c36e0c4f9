/**
 * Unused entries: in a bibliography file that known documents read (a LaTeX project's
 * `\bibliography`/`\addbibresource`, a pandoc or Quarto document's `bibliography:`), an entry that
 * no document cites is a Hint tagged Unnecessary, with the quick fixes "remove it" and "remove all
 * unused entries", planned by `bibliography/entryEdits.ts` (byte for byte, read back), applied by
 * the editor (undoable).
 *
 * A hint is a promise, so none is raised:
 * - in one of the user's libraries (never written), or a file no known document reads;
 * - while what the readers cite is not known in full (`citationScope.ts`'s gaps: `\nocite{*}`,
 *   a macro that cites through its argument, an `\input` of a file outside the workspace, a
 *   bibliography outside the workspace that other documents may read, a listing cut short): the
 *   entries' code lens and hover say so instead ({@link unmarkedReason}).
 *
 * "Cited" is what BibTeX and biber would print: a citation of the key (ignoring case), or an entry
 * that a cited entry names in `crossref`, `xref`, `xdata`, `related` or `entryset` (removing it
 * would break that entry), in any file of the readers' bibliographies.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, DiagnosticTag, TextDocumentEdit, TextEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import { planEntryRemoval } from '../bibliography/entryEdits.js';
import type { ResolvedBibFile } from '../bibliography/resolve.js';
import type { CitedKey } from '../cite/citations.js';
import { fileKind, isBibliography } from '../workspace/fileKind.js';
import type { BibReaders, CitationScope, ScopeDocument, ScopeGap } from './citationScope.js';
import { bibFileOf, entryKeyAt } from './keyOccurrences.js';
import { rangeOf, type ServiceContext } from './serviceContext.js';
import { DIAGNOSTIC_SOURCE, NOT_CANCELLED, type Cancellation } from './types.js';

/** The code of the unused-entry hint. */
export const UNUSED_ENTRY = 'unused-entry';

/** The fields of a `.bib` entry that name other entries (BibTeX's `crossref`, biblatex's others). */
const NAMING_FIELDS = ['crossref', 'xref', 'xdata', 'related', 'entryset'];

/** How the entries of one bibliography file are cited by the documents that read it. */
export interface EntryUsage {
  file: ResolvedBibFile;
  readers: BibReaders;
  /** Each entry's citations, in reader order. */
  citations: Map<BibEntry, { doc: ScopeDocument; cite: CitedKey }[]>;
  /** Entries neither cited nor named by a cited entry, in file order (computed whatever the gaps). */
  unused: BibEntry[];
  /** Whether the file is one of the user's libraries. */
  library: boolean;
  /** The readers' bibliography roots (LaTeX roots, Markdown documents, `_quarto.yml`), for messages. */
  roots: URI[];
}

/**
 * How a bibliography document's entries are cited; undefined for a document that is no
 * bibliography file or holds no entry.
 */
export async function entryUsage(ctx: ServiceContext, scope: CitationScope, doc: TextDocument): Promise<EntryUsage | undefined> {
  const uri = URI.parse(doc.uri);
  const kind = fileKind(uri, doc.languageId);
  if (!isBibliography(kind)) return undefined;
  const file = await bibFileOf(scope, uri, kind, doc.getText());
  // A file with no entry (a JSON or YAML file that is no bibliography: package.json, a CI file) asks nothing of the workspace.
  if (!file?.entries.length) return undefined;
  const snap = await scope.snapshot();
  const readers = await snap.readersOf(uri);
  const cited = new Map<string, { doc: ScopeDocument; cite: CitedKey }[]>();
  for (const d of readers.documents) {
    for (const c of d.cited) {
      const k = c.key.toLowerCase();
      let list = cited.get(k);
      if (!list) cited.set(k, list = []);
      list.push({ doc: d, cite: c });
    }
  }
  // What cited entries name, across every file of the readers' bibliographies (a crossref parent may live in another file).
  const entries = new Map<string, BibEntry[]>();
  const roots = new Map<string, URI>();
  const files = new Map<string, ResolvedBibFile>([[uri.toString(), file]]);
  for (const d of readers.documents) {
    const bib = snap.bibliographyOf(d.uri);
    if (bib) roots.set(bib.root.toString(), bib.root);
    for (const f of bib?.files ?? []) if (!files.has(f.uri.toString())) files.set(f.uri.toString(), f);
  }
  for (const f of files.values()) {
    for (const e of f.entries) {
      const k = e.key.toLowerCase();
      const list = entries.get(k);
      if (list) list.push(e); else entries.set(k, [e]);
    }
  }
  const used = new Set(cited.keys());
  const queue = [...used];
  for (let k = queue.pop(); k !== undefined; k = queue.pop()) {
    for (const e of entries.get(k) ?? []) {
      for (const name of NAMING_FIELDS) {
        for (const part of e.fields[name]?.split(',') ?? []) {
          const target = part.trim().toLowerCase();
          if (target && !used.has(target)) { used.add(target); queue.push(target); }
        }
      }
    }
  }
  const citations = new Map<BibEntry, { doc: ScopeDocument; cite: CitedKey }[]>();
  for (const e of file.entries) citations.set(e, cited.get(e.key.toLowerCase()) ?? []);
  return {
    file, readers, citations, roots: [...roots.values()],
    // An entry broken after its key (`partial`) is the file's error to fix first, not a removal to offer.
    unused: file.entries.filter((e) => !used.has(e.key.toLowerCase()) && !e.partial),
    library: !!(await ctx.opts.corpus().isLibrary(uri.toString())),
  };
}

/**
 * Why a file's unused entries are not marked, as a sentence; undefined when they are (or when
 * there is nothing to say: a library, a file no known document reads).
 */
export function unmarkedReason(ctx: ServiceContext, usage: EntryUsage): string | undefined {
  if (usage.library || !usage.readers.documents.length || !usage.readers.gaps.length) return undefined;
  const why = usage.readers.gaps.map((g) => gapText(ctx, g));
  const first = why[0]!;
  const more = new Set(why).size - 1;
  return more > 0
    ? l10n.t('Unused entries are not marked: {0} (and {1} more reasons)', first, more)
    : l10n.t('Unused entries are not marked: {0}', first);
}

/** One gap as the end of a sentence. */
function gapText(ctx: ServiceContext, g: ScopeGap): string {
  switch (g.kind) {
    case 'cites-all': return fileKind(g.uri) === 'latex'
      ? l10n.t('{0} cites every entry (\\nocite{*}).', ctx.displayPath(g.uri))
      : l10n.t('{0} cites every entry (nocite: \'@*\').', ctx.displayPath(g.uri));
    case 'prints-uncited': return l10n.t('{0} prints the entries it does not cite too (\\btPrintNotCited, \\btPrintAll).', ctx.displayPath(g.uri));
    case 'cite-macro': return l10n.t('{0} defines a macro that cites through its argument, and what it is given cannot be read.', ctx.displayPath(g.uri));
    case 'unresolved-link': return l10n.t('{0} inputs "{1}", which is not in the workspace and may cite.', ctx.displayPath(g.uri), g.path);
    case 'outside-workspace': return l10n.t('this file is outside the workspace, where other documents may read it.');
    case 'listing': return l10n.t('the workspace has more files than are read, and some may cite.');
  }
}

/** The readers' roots as a short list for a message: up to three names, then how many more. */
function rootNames(ctx: ServiceContext, roots: readonly URI[]): string {
  const names = roots.slice(0, 3).map((r) => ctx.displayPath(r));
  return roots.length > 3 ? l10n.t('{0} and {1} more', names.join(', '), roots.length - 3) : names.join(', ');
}

/**
 * The unused-entry hints of a bibliography document (see the module comment).
 *
 * @returns Hints tagged Unnecessary over the entries' keys; none when cancelled
 */
export async function unusedEntryDiagnostics(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, token: Cancellation = NOT_CANCELLED): Promise<Diagnostic[]> {
  const usage = await entryUsage(ctx, scope, doc);
  if (!usage || token.isCancellationRequested || usage.library || !usage.readers.documents.length || usage.readers.gaps.length) return [];
  // The document's own text: the reading of another version would place the hints wrongly.
  if (usage.file.text !== doc.getText()) return [];
  const names = rootNames(ctx, usage.roots);
  const out: Diagnostic[] = [];
  for (const e of usage.unused) {
    const at = entryKeyAt(usage.file.text, e);
    if (at < 0) continue;
    out.push({
      range: rangeOf(doc, { offset: at, length: e.key.length }), severity: DiagnosticSeverity.Hint, tags: [DiagnosticTag.Unnecessary],
      source: DIAGNOSTIC_SOURCE, code: UNUSED_ENTRY, data: { key: e.key, start: e.start ?? at },
      message: l10n.t('Unused entry "{0}": no document that reads this file cites it ({1}).', e.key, names),
    });
  }
  return out;
}

/**
 * The quick fixes of the unused-entry hints: "Remove unused entry {key}" for each hint given, and
 * "Remove all {n} unused entries" when the file has more than one; each one edit of the open
 * document at its version, byte for byte (`planEntryRemoval`, read back), that the editor's undo
 * takes back. None for a library, or when the plan is refused.
 *
 * @param diagnostics - the ones the editor sends with the request
 */
export async function unusedEntryActions(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]> {
  const hints = diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === UNUSED_ENTRY);
  if (!hints.length) return [];
  const usage = await entryUsage(ctx, scope, doc);
  if (!usage || usage.library || usage.readers.gaps.length || !usage.readers.documents.length || usage.file.text !== doc.getText()) return [];
  const source = { path: usage.file.uri.path, text: usage.file.text };
  const edit = (gone: readonly BibEntry[]) => {
    const which = new Set(gone.map((e) => `${e.start}:${e.key}`));
    const plan = planEntryRemoval(source, (e) => which.has(`${e.start}:${e.key}`));
    if ('refusal' in plan || !plan.splices.length) return undefined;
    const edits = plan.splices.map((s) => TextEdit.replace(rangeOf(doc, s), s.text));
    return { documentChanges: [TextDocumentEdit.create({ uri: doc.uri, version: doc.version }, edits)] };
  };
  const out: CodeAction[] = [];
  for (const d of hints) {
    const offset = doc.offsetAt(d.range.start);
    const e = usage.unused.find((u) => entryKeyAt(usage.file.text, u) === offset);
    const change = e && edit([e]);
    if (!e || !change) continue;
    out.push({ title: l10n.t('Remove unused entry {0}', e.key), kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: change });
  }
  if (usage.unused.length > 1) {
    const change = edit(usage.unused);
    if (change) out.push({ title: l10n.t('Remove all {0} unused entries', usage.unused.length), kind: CodeActionKind.QuickFix, diagnostics: hints, edit: change });
  }
  return out;
}
