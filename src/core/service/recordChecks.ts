/**
 * The record checks (`core/checks/`) as diagnostics and quick fixes of the citation service:
 * - in a bibliography or library file (`.bib`, CSL-JSON, CSL-YAML): one diagnostic per entry on its
 *   key, at the severity of `mlsysPapers.recordChecks` (Information by default);
 * - at a citation of such an entry in a LaTeX or Markdown document, at the severity of
 *   `mlsysPapers.recordChecksInDocuments` (off by default);
 * - quick fixes in the file: the entry rewritten to its version of record, "fix all in this file"
 *   as one edit, and for fields that disagree a fix per field and one for all; each an edit on the
 *   document's version (undoable), planned by `bibliography/planRewrite.ts`. A library file is never
 *   written: there the fix copies the rewritten entry to the clipboard (VS Code only).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { entryKeyOffset, type BibEntry } from '../bibliography/bibtexFile.js';
import { bibFormatOf } from '../workspace/bibFormat.js';
import { readBibFile, type BibFile } from '../bibliography/bibFile.js';
import { planEntryRewrite, planEntryRewrites, type EntryChange } from '../bibliography/planRewrite.js';
import type { Splice } from '../bibliography/fileEdit.js';
import type { CheckSeverity } from '../config/settings.js';
import type { CitedKey } from '../cite/citations.js';
import type { Entry } from '../corpus/schema.js';
import { checkBibFile, checkEntry, fixOf, type RecordFinding } from '../checks/checkRecords.js';
import { fieldFixTitle, findingMessage, publishedAsText, rewriteTitle } from '../checks/findingText.js';
import { RecordMatcher } from '../checks/matchRecord.js';
import * as l10n from '@vscode/l10n';
import { bibEntries, rangeOf, type ServiceContext } from './serviceContext.js';
import { DIAGNOSTIC_SOURCE, DiagnosticCodes, ServiceCommands } from './types.js';

/** LSP's severity of a setting's value; undefined for `off`. */
export function severityOf(s: CheckSeverity): DiagnosticSeverity | undefined {
  switch (s) {
    case 'off': return undefined;
    case 'hint': return DiagnosticSeverity.Hint;
    case 'information': return DiagnosticSeverity.Information;
    case 'warning': return DiagnosticSeverity.Warning;
    case 'error': return DiagnosticSeverity.Error;
  }
}

/** What a record diagnostic carries to its quick fixes (LSP `Diagnostic.data`). */
interface RecordData {
  key: string;
  corpusKey: string;
  /** The file is one of the user's libraries: never written, the fix copies. */
  library?: boolean;
}

/** Findings of a file as read, per corpus matcher: a file pulled again unchanged is not checked again (a library of 100,000 entries). */
const checked = new WeakMap<BibFile, { matcher: RecordMatcher; findings: RecordFinding[] }>();

/** The findings of a file as read, with the current corpus. */
function findingsOf(ctx: ServiceContext, file: BibFile): RecordFinding[] {
  const matcher = matcherOf(ctx);
  const known = checked.get(file);
  if (known?.matcher === matcher) return known.findings;
  const findings = checkBibFile(file, matcher);
  checked.set(file, { matcher, findings });
  return findings;
}

/** The matcher over the service's current corpus (built once per corpus). */
function matcherOf(ctx: ServiceContext): RecordMatcher {
  return RecordMatcher.of(ctx.opts.corpus().corpus.entries);
}

/**
 * Whether a CSL file's text can be a bibliography, before reading it: a JSON array, or YAML with a
 * `references:` key. Any other `.json` or `.yaml` file (a `package.json`, a workflow) costs nothing.
 */
export function maybeCslBibliography(path: string, text: string): boolean {
  const format = bibFormatOf(path);
  if (format === 'csl-json') return /^\uFEFF?\s*\[/.test(text);
  return format === 'csl-yaml' && /^references:/m.test(text);
}

/**
 * The record diagnostics of a bibliography file open in the editor: one per finding, on the
 * entry's key.
 *
 * @param file - the file as read from `doc`'s text
 */
export async function fileRecordDiagnostics(ctx: ServiceContext, doc: TextDocument, file: BibFile): Promise<Diagnostic[]> {
  const uri = URI.parse(doc.uri);
  const severity = severityOf((await ctx.opts.config(uri)).settings.recordChecks);
  if (severity === undefined || !file.entries.length) return [];
  const findings = findingsOf(ctx, file);
  if (!findings.length) return [];
  const library = !!(await ctx.opts.corpus().isLibrary(doc.uri));
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const at = entryKeyOffset(file.text, f.entry);
    if (at < 0) continue;
    const data: RecordData = { key: f.key, corpusKey: f.record.key, ...(library ? { library } : {}) };
    out.push({
      range: rangeOf(doc, { offset: at, length: f.key.length }), severity, source: DIAGNOSTIC_SOURCE,
      code: f.kind === 'version-of-record' ? DiagnosticCodes.versionOfRecord : DiagnosticCodes.recordMismatch,
      message: findingMessage(f), data,
    });
  }
  return out;
}

/** Splices as an edit of the document at its version (one undoable step however many). */
function editOf(doc: TextDocument, plans: readonly Splice[]): WorkspaceEdit {
  const edits: TextEdit[] = plans.map((p) => ({ range: rangeOf(doc, { offset: p.offset, length: p.length }), newText: p.text }));
  return { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits }] };
}

/**
 * Quick fixes for the record diagnostics among `diagnostics`, planned on the document's text as it
 * is now (the finding is computed again: the corpus or the text may have changed since).
 */
export async function recordCodeActions(ctx: ServiceContext, doc: TextDocument, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]> {
  const ours = diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && (d.code === DiagnosticCodes.versionOfRecord || d.code === DiagnosticCodes.recordMismatch));
  if (!ours.length) return [];
  const uri = URI.parse(doc.uri);
  const text = doc.getText();
  const file = ctx.ws.openDocument(uri)?.version === doc.version
    ? await ctx.cache.get(ctx.ws, uri, 'bib', (t) => readBibFile(uri.path, t))
    : undefined;
  const source = file?.text === text ? file : readBibFile(uri.path, text);
  if (!source) return [];
  const matcher = matcherOf(ctx);
  const library = ours.some((d) => (d.data as RecordData | undefined)?.library) || !!(await ctx.opts.corpus().isLibrary(doc.uri));
  const out: CodeAction[] = [];
  for (const d of ours) {
    const key = (d.data as RecordData | undefined)?.key ?? text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end));
    const at = doc.offsetAt(d.range.start);
    const entry = source.entries.find((e) => e.key === key && entryKeyOffset(source.text, e) === at) ?? source.entries.find((e) => e.key === key);
    const f = entry && checkEntry(entry, matcher);
    if (!entry || !f) continue;
    const offer = (title: string, change: EntryChange, preferred: boolean) => {
      const planned = planEntryRewrite(source, entry, change);
      if ('refusal' in planned) return;
      const plan = planned.splices[0]!;
      if (library) {
        // A library is never written: the entry as it would read goes to the clipboard (our UI only).
        if (!ctx.clientUi()) return;
        const t = l10n.t('Copy {0} as the verified record to the clipboard (a library is not changed)', f.key);
        out.push({ title: t, kind: CodeActionKind.QuickFix, diagnostics: [d], command: { title: t, command: ServiceCommands.copyEntryText, arguments: [plan.text] } });
        return;
      }
      out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: preferred, edit: editOf(doc, [plan]) });
    };
    if (f.kind === 'version-of-record') offer(rewriteTitle(f), fixOf(f), true);
    else {
      if (f.fields.length > 1 || library) offer(fieldFixTitle(f), fixOf(f), true);
      if (!library) for (const m of f.fields) offer(fieldFixTitle(f, m), fixOf(f, m.field), f.fields.length === 1);
    }
  }
  // Every preprint of the file with a version of record, as one edit.
  if (!library && ours.some((d) => d.code === DiagnosticCodes.versionOfRecord)) {
    const all = findingsOf(ctx, source).filter((f) => f.kind === 'version-of-record');
    if (all.length > 1) {
      const plans = planEntryRewrites(source, all.map((f) => ({ entry: f.entry, change: fixOf(f) })));
      if ('splices' in plans) {
        out.push({
          title: l10n.t('Rewrite every preprint of this file that has a version of record ({0} entries)', all.length), kind: CodeActionKind.QuickFix,
          diagnostics: ours.filter((d) => d.code === DiagnosticCodes.versionOfRecord), edit: editOf(doc, plans.splices),
        });
      }
    }
  }
  return out;
}

/**
 * The record checks where a document cites an entry of its bibliography that has a finding, at
 * the severity of `mlsysPapers.recordChecksInDocuments` (none when off).
 */
export async function citationRecordDiagnostics(ctx: ServiceContext, doc: TextDocument, cited: readonly CitedKey[], bib: Parameters<typeof bibEntries>[0]): Promise<Diagnostic[]> {
  const severity = severityOf((await ctx.opts.config(URI.parse(doc.uri))).settings.recordChecksInDocuments);
  if (severity === undefined || !cited.length) return [];
  const own = new Map<string, BibEntry>();
  for (const o of bibEntries(bib)) if (!own.has(o.entry.key.toLowerCase())) own.set(o.entry.key.toLowerCase(), o.entry);
  const matcher = matcherOf(ctx);
  const found = new Map<BibEntry, RecordFinding | undefined>();
  const out: Diagnostic[] = [];
  for (const c of cited) {
    const e = own.get(c.key.toLowerCase());
    if (!e) continue;
    if (!found.has(e)) found.set(e, checkEntry(e, matcher));
    const f = found.get(e);
    if (!f) continue;
    out.push({
      range: rangeOf(doc, c), severity, source: DIAGNOSTIC_SOURCE,
      code: f.kind === 'version-of-record' ? DiagnosticCodes.versionOfRecord : DiagnosticCodes.recordMismatch,
      message: findingMessage(f),
    });
  }
  return out;
}

/** "Published as …" for a hover over a citation whose bibliography entry is a preprint with a version of record; undefined otherwise. */
export function publishedAs(ctx: ServiceContext, e: BibEntry): { text: string; record: Entry } | undefined {
  const f = checkEntry(e, matcherOf(ctx));
  return f?.kind === 'version-of-record' ? { text: publishedAsText(f.record), record: f.record } : undefined;
}
