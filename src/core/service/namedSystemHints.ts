/**
 * "Systems named but not cited" (`checks/namedSystems.ts`) as the citation service's hints and
 * quick fixes: a Hint on the first prose mention of a system the document does not cite
 * (`mlsysPapers.namedSystemHints`, on by default), and for each work of that name a fix "Cite
 * key (title)" that inserts the citation after the name (`~\cite{key}`, ` [@key]`) and adds the
 * entry to the bibliography as Insert Citation does (the `addToBibliography` command, when
 * `syncBibliography` is on and the bibliography lacks it). A work the bibliography has under
 * another key is cited by that key. A document that neither cites nor declares a bibliography
 * gets none: it may cite in a dialect we do not read.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import { bibEntryIdentity, entryIdentity, SameWorkIndex } from '../corpus/sameWork.js';
import { citedKeys as citedKeysOf, type CitedKey } from '../cite/citations.js';
import { LATEX_LANGUAGES } from '../workspace/fileKind.js';
import { planCitation } from '../cite/insert.js';
import type { Entry } from '../corpus/schema.js';
import { SystemNames, uncitedMentions } from '../checks/namedSystems.js';
import { bibEntries, rangeOf, type ServiceContext } from './serviceContext.js';
import { DIAGNOSTIC_SOURCE, DiagnosticCodes, ServiceCommands } from './types.js';

/** One work a hint offers to cite. */
interface Candidate {
  /** The corpus key. */
  key: string;
  /** The key to cite: the bibliography's own for the same work, else the corpus key. */
  citeAs: string;
  title: string;
  /** Whether citing it adds the entry to the bibliography. */
  add: boolean;
}

/** At most this many characters of a title in a fix's title. */
const TITLE_MAX = 70;

/** A title cut at a word before {@link TITLE_MAX} characters, with an ellipsis. */
function shortTitle(t: string): string {
  if (t.length <= TITLE_MAX) return t;
  const cut = t.lastIndexOf(' ', TITLE_MAX - 1);
  return `${t.slice(0, cut > 0 ? cut : TITLE_MAX - 1)}…`;
}

/**
 * The hints of a citing document: the first prose mention of each system it names and does not cite.
 *
 * @param cited - the document's citations
 * @param bib - its bibliography (its entries decide what is cited under another key)
 */
export async function namedSystemHints(ctx: ServiceContext, doc: TextDocument, cited: readonly CitedKey[], bib: Parameters<typeof bibEntries>[0], defined: (key: string) => boolean): Promise<Diagnostic[]> {
  const { settings } = await ctx.opts.config(URI.parse(doc.uri));
  if (!settings.namedSystemHints) return [];
  // Only where the writer cites as we read it (a citation, or a declared bibliography): a page of
  // another dialect (d2lbook's :cite:, distill's <d-cite>) has citations we do not see.
  if (!cited.length && !bib?.files.length && !bib?.missing.length && !bib?.unreadable?.length && !bib?.thebibliography?.length) return [];
  const names = SystemNames.of(ctx.opts.corpus().corpus.entries);
  const citedKeys = new Set(cited.map((c) => c.key.toLowerCase()));
  // The bibliography's works, indexed only when a named system is asked about (a 50,000-item
  // bibliography took half a second per request to index, for documents that name none).
  let own: SameWorkIndex<BibEntry> | undefined;
  const ownIndex = () => {
    if (own) return own;
    own = new SameWorkIndex<BibEntry>();
    for (const o of bibEntries(bib)) own.add(bibEntryIdentity(o.entry), o.entry);
    return own;
  };
  const ownKeyOf = (e: Entry): string | undefined => (ownIndex().empty ? undefined : ownIndex().find(entryIdentity(e))?.key);
  const isCited = (e: Entry) => citedKeys.has(e.key.toLowerCase()) || citedKeys.has(ownKeyOf(e)?.toLowerCase() ?? '\0');
  let mentions = uncitedMentions(doc.getText(), doc.languageId, names, cited, isCited);
  // A LaTeX file of a project: what the project's other files cite counts too (a section names
  // vLLM that the introduction cites). Read only when this file names an uncited system.
  if (mentions.length && LATEX_LANGUAGES.has(doc.languageId)) {
    const others = await projectCitedKeys(ctx, URI.parse(doc.uri));
    if (others.size) {
      for (const k of others) citedKeys.add(k);
      mentions = uncitedMentions(doc.getText(), doc.languageId, names, cited, isCited);
    }
  }
  const out: Diagnostic[] = [];
  for (const m of mentions) {
    const candidates: Candidate[] = m.name.entries.map((e) => {
      const citeAs = ownKeyOf(e) ?? e.key;
      return { key: e.key, citeAs, title: e.title, add: settings.syncBibliography && !defined(citeAs) };
    });
    const keys = candidates.map((c) => c.citeAs).join(', ');
    out.push({
      range: rangeOf(doc, m), severity: DiagnosticSeverity.Hint, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.uncitedSystem,
      message: candidates.length === 1
        ? l10n.t('{0} is named but not cited; the MLSys Papers corpus has its work: {1}', m.name.alias, keys)
        : l10n.t('{0} is named but not cited; the MLSys Papers corpus has {1} works by that name: {2}', m.name.alias, candidates.length, keys),
      data: { candidates },
    });
  }
  return out;
}

/** The keys the other files of a LaTeX file's projects cite (every root that reaches it, and each file those roots reach), lower case. */
async function projectCitedKeys(ctx: ServiceContext, uri: URI): Promise<Set<string>> {
  const project = ctx.opts.project;
  const out = new Set<string>();
  if (!project?.filesOf) return out;
  const roots = project.rootsOf(uri);
  const files = new Map<string, URI>();
  for (const root of roots.length ? roots : [uri]) for (const f of project.filesOf(root)) files.set(f.toString(), f);
  files.delete(uri.toString());
  for (const f of files.values()) {
    const text = await ctx.ws.readText(f);
    if (text !== undefined) for (const k of citedKeysOf(text, 'latex')) out.add(k.toLowerCase());
  }
  return out;
}

/** The quick fixes of the hints among `diagnostics`: for each work, its citation after the name (and the entry into the bibliography). */
export async function namedSystemActions(ctx: ServiceContext, doc: TextDocument, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]> {
  const ours = diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === DiagnosticCodes.uncitedSystem);
  if (!ours.length) return [];
  const { settings } = await ctx.opts.config(URI.parse(doc.uri));
  const text = doc.getText();
  const out: CodeAction[] = [];
  for (const d of ours) {
    const candidates = ((d.data as { candidates?: Candidate[] } | undefined)?.candidates ?? []).filter((c) => typeof c?.citeAs === 'string');
    const at = doc.offsetAt(d.range.end);
    for (const [i, c] of candidates.entries()) {
      const entry = ctx.lookup(c.key);
      if (!entry) continue;
      const plan = planCitation(text, at, doc.languageId, [{ ...entry, key: c.citeAs }], settings);
      // After the name: a tie in LaTeX (`vLLM~\cite{…}`), a space in Markdown (`vLLM [@…]`).
      const lead = LATEX_LANGUAGES.has(doc.languageId) ? (/[\s~]/.test(text[at - 1] ?? '') ? '' : '~') : ' ';
      const title = l10n.t('Cite {0} ({1})', c.citeAs, shortTitle(c.title));
      out.push({
        title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: candidates.length === 1 && i === 0,
        edit: { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [{ range: rangeOf(doc, { offset: plan.offset, length: plan.length }), newText: lead + plan.text }] }] },
        ...(c.add ? { command: { title, command: ServiceCommands.addToBibliography, arguments: [doc.uri, c.key] } } : {}),
      });
    }
  }
  return out;
}
