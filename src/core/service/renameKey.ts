/**
 * Rename a citation key (LSP `textDocument/prepareRename` and `textDocument/rename`), from a
 * citation or from an entry's key: one workspace edit that changes every citation of the key in
 * its scope (`keyOccurrences.ts`: the whole LaTeX project from its root, files not open included;
 * the pandoc document; the other documents of a Quarto project or bookdown book), in every form
 * the citation readers read (`\cite{a,b}`, `\cites{a}{b}`, `[@a; @b]`, `@a`, `nocite:`), and the
 * entry's key in the `.bib`, CSL-JSON or CSL-YAML files that define it (`bibliography/entryEdits.ts`,
 * with the BibTeX fields that name it: `crossref`, `xref`, `xdata`, `related`, `entryset`).
 *
 * Every change is a splice planned on the text the editor applies it to (an open document's at its
 * version, else the file's, which must be UTF-8 with one kind of line break, so that the editor
 * opens it unchanged): nothing but the keys changes, and the editor's undo takes it back.
 *
 * Refused, with a sentence that says why and changes nothing: a key defined by a `\bibitem` (a
 * thebibliography is never written); a new name that some citation, entry or bibliography format
 * in the scope cannot hold as it is (`cite/keyRules.ts`), that Quarto would read as a
 * cross-reference, or that a key of the scope, the corpus or a library already is; a file outside
 * the workspace, not UTF-8, or with mixed line endings. A key that lives only in a library (never
 * written) or in the corpus, or nowhere, is renamed in its citations only, and only after the user
 * confirms that (an LSP change annotation that needs confirmation; an editor that cannot ask is
 * refused with the same sentence).
 */
import * as l10n from '@vscode/l10n';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { AnnotatedTextEdit, TextDocumentEdit, TextEdit, type Position, type Range, type WorkspaceEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { editorText, type BibSyntaxError } from '../bibliography/bibtexFile.js';
import { problemMessage } from '../text/problemText.js';
import { planKeyRename } from '../bibliography/entryEdits.js';
import type { EditRefusal, Splice } from '../bibliography/fileEdit.js';
import { keyRefusal, type KeyPlace, type KeyRefusal } from '../cite/keyRules.js';
import { isCrossReference } from '../markdown/crossref.js';
import { bibitemOf } from '../bibliography/thebibliography.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';
import { inWorkspaceReal } from '../workspace/paths.js';
import type { CitationScope } from './citationScope.js';
import { citesKey, keyOccurrences, keyOrigin, type KeyOccurrences } from './keyOccurrences.js';
import { rangeOf, type ServiceContext } from './serviceContext.js';

/** What the editor's workspace edits can carry (its `workspace.workspaceEdit` capabilities). */
export interface EditAbilities {
  /** Versioned `documentChanges` (else a plain `changes` map). */
  documentChanges: boolean;
  /** Change annotations, and asking the user to confirm one (`changeAnnotationSupport`). */
  changeAnnotations: boolean;
}

/** A rename's answer: the edit, or why there is none (a sentence, localized). */
export type RenameAnswer = { edit: WorkspaceEdit } | { refusal: string };

/** The id of the change annotation of a rename that changes only citations. */
export const CITATIONS_ONLY = 'mlsysPapers.citationsOnly';

/**
 * Whether the key under the cursor can be renamed, and its range (LSP `textDocument/prepareRename`).
 *
 * @returns the key's range and the key; a refusal for a key a `\bibitem` defines; undefined off a key
 */
export async function prepareKeyRename(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, position: Position): Promise<{ range: Range; placeholder: string } | { refusal: string } | undefined> {
  const origin = await keyOrigin(ctx, scope, doc, doc.offsetAt(position));
  if (!origin) return undefined;
  if (origin.kind === 'citation') {
    const bib = await ctx.bibliographyOf(doc);
    const inFile = bib?.files.some((f) => f.entries.some((e) => citesKey(e.key, origin.key)));
    const bibitem = inFile ? undefined : bibitemOf(bib?.thebibliography, origin.key);
    if (bibitem) return { refusal: bibitemRefusal(ctx, origin.key, bibitem.source.uri) };
  }
  return { range: rangeOf(doc, origin), placeholder: origin.key };
}

const bibitemRefusal = (ctx: ServiceContext, key: string, uri: URI): string =>
  l10n.t('"{0}" is defined by a \\bibitem in {1}, which MLSys Papers does not write; rename it there and in its citations by hand.', key, ctx.displayPath(uri));

/**
 * Renames the key under the cursor to `newName` across its scope (see the module comment).
 *
 * @param position - LSP position on a citation's key or an entry's key
 * @param newName - the new key, as typed
 * @param can - what the editor's workspace edits can carry
 * @returns the edit (an empty one when the name does not change), or a refusal; undefined off a key
 */
export async function renameKey(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, position: Position, newName: string, can: EditAbilities): Promise<RenameAnswer | undefined> {
  const occ = await keyOccurrences(ctx, scope, doc, doc.offsetAt(position));
  if (!occ) return undefined;
  const key = occ.origin.key;
  if (newName === key) return { edit: {} };
  const { ws, displayPath } = ctx;
  const settings = await ctx.resolveOptions(URI.parse(doc.uri));
  const corpus = ctx.opts.corpus();
  // Which files that define the key can be written.
  const writable: KeyOccurrences['files'] = [];
  let library: URI | undefined;
  for (const f of occ.files) {
    if (await corpus.isLibrary(f.file.uri.toString())) { library ??= f.file.uri; continue; }
    if (!settings.allowOutside && !(await inWorkspaceReal(ws, f.file.uri))) {
      return { refusal: l10n.t('{0} defines "{1}" but is outside the workspace, where other documents may read it; nothing was renamed.', displayPath(f.file.uri), key) };
    }
    writable.push(f);
  }
  let confirm: string | undefined;
  if (!writable.length) {
    const e = occ.elsewhere;
    if (e?.kind === 'bibitem') return { refusal: bibitemRefusal(ctx, key, e.uri) };
    const libraryName = library ? displayPath(library) : e?.kind === 'library' ? e.name : undefined;
    confirm = libraryName !== undefined ? l10n.t('"{0}" is in your library {1}, which MLSys Papers never writes: renaming changes only the citations, and {1} keeps "{0}".', key, libraryName)
      : e?.kind === 'corpus' ? l10n.t('"{0}" is an entry of the MLSys Papers corpus, not of a bibliography file of yours: renaming changes only the citations.', key)
        : l10n.t('"{0}" is defined in no bibliography: renaming changes only the citations.', key);
  }
  const invalid = await nameRefusal(ctx, occ, writable, newName);
  if (invalid) return { refusal: invalid };
  const taken = await takenBy(ctx, occ, key, newName);
  if (taken) return { refusal: l10n.t('"{0}" already exists ({1}); nothing was renamed.', newName, taken) };

  // The splices, per file, on the text each was read from.
  const plans = new Map<string, { uri: URI; text: string; splices: Splice[] }>();
  for (const { file } of writable) {
    const plan = planKeyRename({ path: file.uri.path, text: file.text }, key, newName);
    if ('refusal' in plan) return { refusal: entryRefusal(ctx, file.uri, key, plan.refusal, file.error) };
    if (plan.splices.length) plans.set(file.uri.toString(), { uri: file.uri, text: file.text, splices: plan.splices });
  }
  for (const { doc: d, cites } of occ.documents) {
    if (!cites.length) continue;
    if (!settings.allowOutside && !(await inWorkspaceReal(ws, d.uri))) {
      return { refusal: l10n.t('{0} cites "{1}" but is outside the workspace; nothing was renamed.', displayPath(d.uri), key) };
    }
    plans.set(d.uri.toString(), { uri: d.uri, text: d.text, splices: cites.map((c) => ({ offset: c.offset, length: c.length, text: newName })) });
  }
  if (!plans.size) return { refusal: l10n.t('No document cites "{0}", and no bibliography file of yours defines it: there is nothing to rename.', key) };
  if (confirm && !can.changeAnnotations) return { refusal: l10n.t('{0} Your editor cannot ask you to confirm such an edit, so nothing was renamed.', confirm) };

  // Each file as the editor will apply the edit to it: an open document at its version, else the file, unchanged when opened.
  const edits: TextDocumentEdit[] = [];
  for (const p of plans.values()) {
    const open = ws.openDocument(p.uri);
    if (open && open.text !== p.text) return { refusal: l10n.t('{0} changed while the rename was planned; nothing was renamed; try again.', displayPath(p.uri)) };
    if (!open) {
      const raw = await ws.readDisk(p.uri);
      if (typeof raw !== 'string') return { refusal: l10n.t('{0} is not UTF-8 text, and the editor would change its other characters; nothing was renamed.', displayPath(p.uri)) };
      if (raw.replace(/^\uFEFF/, '') !== p.text) return { refusal: l10n.t('{0} changed while the rename was planned; nothing was renamed; try again.', displayPath(p.uri)) };
      if (editorText(raw) !== raw) return { refusal: l10n.t('{0} has mixed line endings, which the editor would change; nothing was renamed.', displayPath(p.uri)) };
    }
    const td = TextDocument.create(p.uri.toString(), 'plaintext', open?.version ?? 0, p.text);
    const textEdits = p.splices.sort((a, b) => a.offset - b.offset).map((s) => {
      const range = rangeOf(td, s);
      return confirm ? AnnotatedTextEdit.replace(range, s.text, CITATIONS_ONLY) : TextEdit.replace(range, s.text);
    });
    edits.push(TextDocumentEdit.create({ uri: td.uri, version: open ? open.version : null }, textEdits));
  }
  if (!can.documentChanges && !confirm) return { edit: { changes: Object.fromEntries(edits.map((e) => [e.textDocument.uri, e.edits as TextEdit[]])) } };
  return {
    edit: {
      documentChanges: edits,
      ...(confirm ? { changeAnnotations: { [CITATIONS_ONLY]: { label: l10n.t('Rename only the citations of {0}', key), description: confirm, needsConfirmation: true } } } : {}),
    },
  };
}

/** Why the new name cannot be written where the key is (a sentence), or undefined when it can. */
async function nameRefusal(ctx: ServiceContext, occ: KeyOccurrences, writable: KeyOccurrences['files'], name: string): Promise<string | undefined> {
  const places = new Set<KeyPlace>();
  const markdown: KeyOccurrences['documents'] = [];
  for (const d of occ.documents) {
    const kind = fileKind(d.doc.uri, d.doc.languageId);
    if (kind === 'latex') places.add('latex');
    else if (isMarkdown(kind)) { places.add('pandoc'); markdown.push(d); }
  }
  for (const { file } of writable) {
    if (file.format === 'bibtex') places.add('bibtex');
    else if (file.format === 'csl-json') places.add('csl-json');
  }
  const bad = keyRefusal(name, places);
  if (bad) return l10n.t('"{0}" cannot be a citation key here: {1}', name, describeRefusal(bad));
  for (const { doc } of markdown) {
    const syntax = await ctx.crossrefsOf(TextDocument.create(doc.uri.toString(), doc.languageId, doc.version ?? 0, doc.text));
    if (syntax && isCrossReference(name, syntax)) return l10n.t('"{0}" cannot be a citation key here: {1} would read @{0} as a cross-reference.', name, syntax.quarto ? 'Quarto' : 'pandoc-crossref');
  }
  return undefined;
}

/** A key rule's refusal as the end of a sentence. */
function describeRefusal(r: KeyRefusal): string {
  if (r.kind === 'empty') return l10n.t('a key cannot be empty.');
  if (r.kind === 'pandoc') return l10n.t('pandoc reads a citation key as letters, digits and _, with punctuation only between them.');
  const where = r.place === 'latex' ? l10n.t('a LaTeX citation') : r.place === 'bibtex' ? l10n.t('a BibTeX key') : l10n.t('a CSL-JSON id');
  const char = /\s/.test(r.char) ? l10n.t('white space') : /[\u0000-\u001f\u007f]/.test(r.char) ? l10n.t('a control character') : `"${r.char}"`;
  return l10n.t('{0} cannot hold {1}.', where, char);
}

/** Where a new name is already a key (a phrase), or undefined when it is free. */
async function takenBy(ctx: ServiceContext, occ: KeyOccurrences, key: string, name: string): Promise<string | undefined> {
  // Renaming a key to itself in another case is no clash.
  if (citesKey(name, key)) return undefined;
  for (const f of occ.bibliographies) {
    if (f.entries.some((e) => citesKey(e.key, name))) return l10n.t('in {0}', ctx.displayPath(f.uri));
  }
  for (const { doc } of occ.documents) {
    if (doc.cited.some((c) => citesKey(c.key, name))) return l10n.t('cited in {0}', ctx.displayPath(doc.uri));
  }
  const entry = ctx.lookup(name);
  if (entry && !citesKey(entry.key, key)) {
    if (!entry.library) return l10n.t('in the MLSys Papers corpus');
    if (await ctx.opts.corpus().isLibrary(entry.library.uri)) return l10n.t('in your library {0}', entry.library.name);
  }
  return undefined;
}

/** The sentence for a bibliography file whose entry cannot be renamed. */
function entryRefusal(ctx: ServiceContext, uri: URI, key: string, why: EditRefusal, error: BibSyntaxError | undefined): string {
  const file = ctx.displayPath(uri);
  if (why === 'broken') {
    return error
      ? l10n.t('{0} has an error at line {1} ({2}); nothing was renamed; fix it first.', file, error.line, problemMessage(error))
      : l10n.t('{0} cannot be read as a bibliography; nothing was renamed.', file);
  }
  return l10n.t('The entry "{0}" in {1} cannot be renamed without changing more than its key; nothing was renamed.', key, file);
}
