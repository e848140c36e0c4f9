/**
 * The service's diagnostics: in a citing document (LaTeX, Markdown), unknown keys, keys missing
 * from the bibliography, a missing `% !TEX root` and unreadable bibliography files; in a BibTeX
 * file, duplicate keys and the reader's problems.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Diagnostic, DiagnosticSeverity, Position, Range } from 'vscode-languageserver-types';
import { URI, Utils } from 'vscode-uri';
import { bibKeyOffset, duplicateKeys, parseBib, type BibProblem } from '../bibliography/bibtexFile.js';
import { readBibFile } from '../bibliography/bibFile.js';
import { latexBibliographySpans } from '../latex/bibDeclarations.js';
import { frontMatterBibliographySpan, markdownBibliographies } from '../markdown/frontMatter.js';
import type { UndeclaredWhere } from '../bibliography/undeclared.js';
import type { DocumentBibliography } from '../bibliography/resolve.js';
import { documentCitationsIn, type CitedKey } from '../cite/citations.js';
import { fileKind, isCiting } from '../workspace/fileKind.js';
import { definedKeys } from '../bibliography/thebibliography.js';
import { namedSystemHints } from './namedSystemHints.js';
import { citationRecordDiagnostics, fileRecordDiagnostics, maybeCslBibliography } from './recordChecks.js';
import { bibDocument, rangeOf, type ServiceContext } from './serviceContext.js';
import { DIAGNOSTIC_SOURCE, DiagnosticCodes, NOT_CANCELLED, type Cancellation } from './types.js';
import { problemMessage } from '../text/problemText.js';

/** A document's diagnostics, and for a citing document the bibliography they were checked against (resolved once for both). */
export interface CheckedDocument {
  diagnostics: Diagnostic[];
  /** A citing document's bibliography as its check resolved it; undefined for other documents, or when it declares none. */
  bib?: DocumentBibliography;
}

/**
 * A document's diagnostics: {@link citationDiagnostics} for a citing language,
 * {@link bibDiagnostics} for a BibTeX file; for a CSL-JSON or CSL-YAML bibliography (one that
 * reads at least one item: another JSON array raises nothing) its reader's problems and the record
 * checks; none for anything else.
 */
export async function diagnostics(ctx: ServiceContext, doc: TextDocument, token: Cancellation = NOT_CANCELLED): Promise<CheckedDocument> {
  const uri = URI.parse(doc.uri);
  const kind = fileKind(uri, doc.languageId);
  if (isCiting(kind)) return citationDiagnostics(ctx, doc, token);
  if (kind === 'csl-json' || kind === 'csl-yaml') {
    if (!maybeCslBibliography(uri.path, doc.getText())) return { diagnostics: [] };
    const file = await ctx.cache.get(ctx.ws, uri, 'bib', (t) => readBibFile(uri.path, t));
    const read = file?.text === doc.getText() ? file : readBibFile(uri.path, doc.getText());
    if (!read || token.isCancellationRequested) return { diagnostics: [] };
    return { diagnostics: [...readerProblems(ctx, uri, read.entries.length ? read.problems : undefined), ...await fileRecordDiagnostics(ctx, doc, read)] };
  }
  return { diagnostics: await bibDiagnostics(ctx, doc) };
}

/**
 * A BibTeX file's diagnostics (language `bibtex` or a `.bib` name): duplicate keys (BibTeX keeps
 * the first, ignoring case), and the reader's problems unless the file is a library (its store
 * reports them); none for other files.
 */
export async function bibDiagnostics(ctx: ServiceContext, doc: TextDocument): Promise<Diagnostic[]> {
  const { ws, cache } = ctx;
  const uri = URI.parse(doc.uri);
  if (fileKind(uri, doc.languageId) !== 'bibtex') return [];
  const text = doc.getText();
  // The workspace's view of this very document: read once for it and for the documents that cite from it.
  const shared = ws.openDocument(uri)?.version === doc.version
    ? await cache.get(ws, uri, 'bib', (t) => readBibFile(uri.path, t))
    : undefined;
  const read = shared?.text === text ? shared : parseBib(text);
  const out: Diagnostic[] = [];
  // Duplicate keys, in one pass: each entry knows where it starts (issue 20, finding 8).
  const dups = duplicateKeys(read.entries);
  if (dups.size) {
    for (const e of read.entries) {
      if (!dups.has(e.key.toLowerCase()) || e.start === undefined) continue;
      const start = bibKeyOffset(text, e.start);
      if (start < 0) continue;
      out.push({
        range: rangeOf(doc, { offset: start, length: e.key.length }), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
        code: DiagnosticCodes.duplicate,
        message: l10n.t('Duplicate key "{0}": BibTeX uses the first and ignores the others (keys are case-insensitive).', e.key),
      });
    }
  }
  // The reader's problems (a skipped entry, a field left out), unless the file is a library
  // whose store publishes them already. Not an undefined macro: BibTeX reads a document's
  // databases as one (`\bibliography{abbrev,refs}`), so another file may define it.
  out.push(...readerProblems(ctx, uri, read.problems?.filter((p) => p.code !== 'bib-undefined-macro')));
  // Preprints with a version of record, and fields that disagree with the verified record.
  out.push(...await fileRecordDiagnostics(ctx, doc, shared?.text === text ? shared : { path: uri.path, format: 'bibtex', text, ...read }));
  return out;
}

/**
 * A bibliography file's reader problems (a skipped entry or item, a field left out) as its own
 * diagnostics, at their line and column, unless the file is one the library store reads, loaded
 * or not: the store is the one source of a library file's reader problems (its `BibFile` is the
 * one this file's reading is), and reports them once loaded.
 *
 * @param problems - the reader's problems to show (none: undefined)
 */
function readerProblems(ctx: ServiceContext, uri: URI, problems: readonly BibProblem[] | undefined): Diagnostic[] {
  if (!problems?.length || ctx.opts.corpus().isLibraryFile(uri.toString())) return [];
  return problems.map((p) => {
    const at = Position.create(p.line - 1, p.column - 1);
    return { range: Range.create(at, Position.create(at.line, at.character + 1)), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, message: problemMessage(p) };
  });
}

/**
 * Which of the declared files that exist but gave no text are not regular files: those with no
 * stamp (`WorkspaceFiles.stamp` gives one for regular files and open documents only: not for a
 * folder, a device, a pipe or a link that leads to nothing); the others are regular files over the
 * size cap or not UTF-8.
 */
async function unreadableReasons(ctx: ServiceContext, uris: readonly URI[]): Promise<{ notRegular: URI[]; other: URI[] }> {
  const notRegular: URI[] = [];
  const other: URI[] = [];
  for (const uri of uris) ((await ctx.ws.stamp(uri)) === undefined ? notRegular : other).push(uri);
  return { notRegular, other };
}

/**
 * Where a document declares a bibliography file, for a problem of that file: the `\bibliography`,
 * `\addbibresource` (…) command of its own text that names it, or its front matter's
 * `bibliography:` line; the start of the document when its own text does not name the file (a
 * root's or a build's declaration, a file beside it nobody declared).
 */
function declarationRange(doc: TextDocument, file: URI): Range {
  const text = doc.getText();
  const docUri = URI.parse(doc.uri);
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  // The declaration that leads to the file from this document's folder; else one that names a file of its name
  // (a section's declaration is read from its root's folder).
  const leadsTo = (path: string) => Utils.joinPath(Utils.dirname(docUri), path.replace(/\\/g, '/')).path === file.path;
  const named = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1) === name;
  const kind = fileKind(docUri, doc.languageId);
  let span: { start: number; end: number } | undefined;
  if (kind === 'latex') {
    const spans = latexBibliographySpans(text);
    span = spans.find((d) => leadsTo(d.decl.path)) ?? spans.find((d) => named(d.decl.path));
  } else if (isCiting(kind) && markdownBibliographies(text).some((d) => leadsTo(d.path) || named(d.path))) {
    span = frontMatterBibliographySpan(text);
  }
  return span ? Range.create(doc.positionAt(span.start), doc.positionAt(span.end)) : Range.create(0, 0, 0, 0);
}

/**
 * What a message says of a bibliography nobody declared (`bibliography/undeclared.ts`): "not
 * declared; checked against refs.bib beside it".
 *
 * @param names - the files, as the user sees them
 */
export function undeclaredNote(where: UndeclaredWhere, names: string): string {
  return where === 'beside' ? l10n.t('not declared; checked against {0} beside it', names) : l10n.t('not declared; checked against {0} at the workspace root', names);
}

/**
 * A citing document's diagnostics: unknown keys, keys of the corpus or a library missing from the
 * bibliography, a `% !TEX root` naming no file, and each unreadable bibliography once; the record
 * checks at citations (`recordChecks.ts`, off by default) and the hints at systems named but not
 * cited (`namedSystemHints.ts`). Cross-references
 * written as citations (Quarto's `@fig-plot`) are not checked.
 *
 * @returns warnings (none when cancelled), and the bibliography resolved for them
 */
export async function citationDiagnostics(ctx: ServiceContext, doc: TextDocument, token: Cancellation = NOT_CANCELLED): Promise<CheckedDocument> {
  const { displayPath } = ctx;
  const { cited } = documentCitationsIn(bibDocument(doc), await ctx.crossrefsOf(doc));
  const bib = await ctx.bibliographyOf(doc);
  if (token.isCancellationRequested) return { diagnostics: [], bib };
  const defined = definedKeys(bib);
  // A file with a broken entry or item is read as BibTeX reads a .bib: the other entries count.
  // A CSL file that reads nothing (not JSON, not YAML) is unreadable.
  const readable = bib?.files.filter((s) => !s.error || s.format === 'bibtex' || s.entries.length > 0) ?? [];
  // A thebibliography (written by hand, or a .bbl the document inputs) is where keys were looked for too.
  const thebib = bib?.thebibliography?.map((s) => displayPath(s.uri)).join(', ');
  const bibName = [...readable.map((s) => displayPath(s.uri)), ...(readable.length && thebib ? [thebib] : [])].join(', ');
  // Declared files that are missing or cannot be parsed: the document does declare a bibliography.
  const unreadable = [...(bib?.files.filter((s) => !readable.includes(s)).map((s) => s.uri) ?? []), ...(bib?.unreadable ?? []), ...(bib?.missing ?? [])].map(displayPath).join(', ');
  const { corpus } = ctx.opts.corpus();
  const out: Diagnostic[] = [];
  let unreadableWhy: { notRegular: URI[]; other: URI[] } | undefined;
  const raise = (c: CitedKey, code: string, message: string) =>
    out.push({ range: rangeOf(doc, c), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code, message });
  if (bib?.missingRoot) {
    const m = bib.missingRoot;
    const found = bib.root.toString() === doc.uri ? l10n.t('the document itself') : displayPath(bib.root);
    out.push({
      range: rangeOf(doc, { offset: m.start, length: m.end - m.start }), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.missingRoot,
      message: m.outside
        ? l10n.t('The root file "{0}" named by % !TEX root is outside the workspace; it was not read; the root used instead is {1}.', m.path, found)
        : l10n.t('The root file "{0}" named by % !TEX root does not exist; the root used instead is {1}.', m.path, found),
    });
  }
  // Once per broken bibliography, where the document declares it (never on a good citation): the keys it defines elsewhere still count.
  if (cited.length) {
    for (const s of bib?.files ?? []) {
      if (!s.error) continue;
      out.push({
        range: declarationRange(doc, s.uri), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
        message: readable.includes(s)
          ? l10n.t('{0}, line {1}: {2}. The keys of its other entries are checked.', displayPath(s.uri), s.error.line, problemMessage(s.error))
          // Nothing of it reads (a CSL file that is not CSL, a CSL-YAML list without references:): no key of it counts.
          : l10n.t('{0}, line {1}: {2}. None of its keys are defined.', displayPath(s.uri), s.error.line, problemMessage(s.error)),
      });
    }
  }
  // A declared resource we do not read (a URL, BibLaTeXML) may define any key: none is flagged.
  if (bib?.unread?.length) return { diagnostics: out, bib };
  // Files nobody declared, found beside the document (or at the workspace root): said in every message.
  const undeclared = bib?.undeclared ? undeclaredNote(bib.undeclared, bibName) : undefined;
  for (const c of cited) {
    if (defined(c.key)) continue;
    const known = corpus.entry(c.key) ?? ctx.lookup(c.key);
    const from = known?.library ? l10n.t('your library {0}', known.library.name) : l10n.t('the MLSys Papers corpus');
    if (undeclared) {
      raise(c, known ? DiagnosticCodes.notInBib : DiagnosticCodes.unknown, known
        ? l10n.t('"{0}" is in {1} but not in the bibliography ({2}).', c.key, from, undeclared)
        : l10n.t('Unknown citation key "{0}": {1}; the MLSys Papers corpus does not know it either.', c.key, undeclared));
      continue;
    }
    if (!known) {
      // Without a readable bibliography we cannot tell a typo from a key defined elsewhere,
      // unless the corpus does not know it either: then say so.
      raise(c, DiagnosticCodes.unknown, readable.length
        ? l10n.t('Unknown citation key "{0}": not in {1}, nor in the MLSys Papers corpus.', c.key, bibName)
        : thebib
          ? l10n.t('Unknown citation key "{0}": no \\bibitem of the thebibliography in {1} defines it, and the MLSys Papers corpus does not know it.', c.key, thebib)
          : unreadable
          ? l10n.t('Unknown citation key "{0}": the MLSys Papers corpus does not know it, and the declared bibliography ({1}) is missing or cannot be read.', c.key, unreadable)
          : l10n.t('Unknown citation key "{0}": the document declares no bibliography and the MLSys Papers corpus does not know it.', c.key));
    } else if (readable.length) {
      raise(c, DiagnosticCodes.notInBib, l10n.t('"{0}" is in {1} but not in {2}.', c.key, from, bibName));
    } else if (thebib) {
      // A code of its own, with no quick fix: nothing is added to a thebibliography (`planBibliographyUpdate` refuses).
      raise(c, DiagnosticCodes.notInThebibliography, l10n.t('"{0}" is in {1}, but no \\bibitem of the thebibliography in {2} defines it.', c.key, from, thebib));
    } else if (bib?.unreadable?.length && !bib.files.length) {
      // A folder, a device, a pipe or a link to nothing where the file should be (a refs.bib that links to /dev/zero): not missing, and not created over.
      unreadableWhy ??= await unreadableReasons(ctx, bib.unreadable);
      raise(c, DiagnosticCodes.unreadableBibliography, unreadableWhy.notRegular.length && !unreadableWhy.other.length
        ? l10n.t('"{0}" is in {1}; {2} is not a regular file (a device, a pipe, a folder or a link that leads to none), so it is not read.', c.key, from, unreadableWhy.notRegular.map(displayPath).join(', '))
        : l10n.t('"{0}" is in {1}; {2} exists but cannot be read as a file.', c.key, from, bib.unreadable.map(displayPath).join(', ')));
    } else if (bib?.missing.length && !bib.files.length) {
      // Declared but not created yet: the quick fix creates it with the entry.
      raise(c, DiagnosticCodes.notInBib, l10n.t('"{0}" is in {1}; {2} does not exist yet.', c.key, from, bib.missing.map(displayPath).join(', ')));
    }
  }
  out.push(...await citationRecordDiagnostics(ctx, doc, cited, bib));
  out.push(...await namedSystemHints(ctx, doc, cited, bib, defined));
  return { diagnostics: out, bib };
}
