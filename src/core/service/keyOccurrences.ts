/**
 * Where a citation key occurs across its scope, from a citation or from an entry: the entries that
 * define it in the bibliography files of the scope, and every citation of it in the documents that
 * read those files (`citationScope.ts`). What find all citations shows and what rename changes.
 *
 * The scope grows until it closes: the files that define the key, the documents that read any of
 * them, the files of those documents' bibliographies that define it too. A key that no
 * bibliography file defines (a `\bibitem`'s, a library's or the corpus's, or nobody's) is shared by
 * the documents that cite from the same bibliography as the one asked from.
 *
 * Keys are compared ignoring case, as BibTeX compares them and as the service's checks do; an
 * entry of a CSL file matches its `id` exactly (pandoc's ids are case-sensitive).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { bibKeyOffset, type BibEntry } from '../bibliography/bibtexFile.js';
import { readBibFile } from '../bibliography/bibFile.js';
import type { ResolvedBibFile } from '../bibliography/resolve.js';
import { citationAtIn, documentCitations, type CitedKey } from '../cite/citations.js';
import { bibitemOf } from '../bibliography/thebibliography.js';
import { fileKind, isBibliography, isCiting } from '../workspace/fileKind.js';
import type { CitationScope, ScopeDocument, ScopeGap, ScopeSnapshot } from './citationScope.js';
import { citesThroughMacro, printsUncited } from './projectScope.js';
import { bibDocument, type ServiceContext } from './serviceContext.js';

/** Where the key asked about is: a citation in a citing document, or an entry's key in a bibliography file. */
export interface KeyOrigin {
  key: string;
  kind: 'citation' | 'entry';
  /** The key's span in the document asked from (UTF-16 offset and length). */
  offset: number;
  length: number;
}

/**
 * Where a key defined by no bibliography file of the scope is: a `\bibitem` of the document's
 * thebibliography, an entry of one of the user's libraries or of the corpus, or nowhere.
 */
export type KeyElsewhere = { kind: 'bibitem'; uri: URI } | { kind: 'library'; name: string; uri: string } | { kind: 'corpus' } | { kind: 'nowhere' };

/** Every occurrence of a key in its scope. */
export interface KeyOccurrences {
  origin: KeyOrigin;
  /** The bibliography files that define the key, as read now, with their entries of it (a `.bib` may have it twice). */
  files: { file: ResolvedBibFile; entries: BibEntry[] }[];
  /** Each document of the scope once, with its citations of the key (none, for a reader that does not cite it). */
  documents: { doc: ScopeDocument; cites: CitedKey[] }[];
  /** Every bibliography file of the scope's documents (those that define the key first), each once: the keys a new name must not take. */
  bibliographies: ResolvedBibFile[];
  /** Set when no bibliography file of the scope defines the key. */
  elsewhere?: KeyElsewhere;
  /** What keeps the scope from being known in full (`citationScope.ts`), each once. */
  gaps: ScopeGap[];
}

/** Whether a citation of `cited` cites the entry `key` (ignoring case, as BibTeX and the service's checks do). */
export const citesKey = (cited: string, key: string): boolean => cited.toLowerCase() === key.toLowerCase();

/** Whether an entry of `file` is the key's: a `.bib` entry ignoring case, a CSL item by its exact `id`. */
export const definesKey = (file: { format: string }, entry: BibEntry, key: string): boolean =>
  (file.format === 'bibtex' ? entry.key.toLowerCase() === key.toLowerCase() : entry.key === key);

/**
 * Where an entry's key is written in its file's text: a `.bib` entry's after `@type{`, a CSL
 * item's `id` value (inside its quotes).
 *
 * @returns the key's UTF-16 offset, or -1 when the reader did not place it
 */
export function entryKeyAt(text: string, entry: BibEntry): number {
  if (entry.keyStart !== undefined) return entry.keyStart;
  return entry.start !== undefined && !entry.csl ? bibKeyOffset(text, entry.start) : -1;
}

/**
 * The key under the cursor: a citation's in a citing document, an entry's key in a bibliography file.
 *
 * @param offset - the cursor's UTF-16 offset in the document
 * @returns undefined elsewhere
 */
export async function keyOrigin(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, offset: number): Promise<KeyOrigin | undefined> {
  const uri = URI.parse(doc.uri);
  const kind = fileKind(uri, doc.languageId);
  if (isCiting(kind)) {
    const c = citationAtIn(bibDocument(doc), offset, await ctx.crossrefsOf(doc));
    return c && { key: c.key, kind: 'citation', offset: c.offset, length: c.length };
  }
  if (!isBibliography(kind)) return undefined;
  const file = await bibFileOf(scope, uri, kind, doc.getText());
  const e = file && entryAt(file, offset);
  return e && { key: e.entry.key, kind: 'entry', offset: e.at, length: e.entry.key.length };
}

/**
 * A bibliography document as read: the scope's reading of its file when that is of this very
 * text (read once per version), else this text read now (a document named otherwise, `bibtex` by
 * its language).
 */
export async function bibFileOf(scope: CitationScope, uri: URI, format: string, text: string): Promise<ResolvedBibFile | undefined> {
  const known = await scope.bibFile(uri);
  if (known?.text === text) return known;
  const read = readBibFile(uri.path, text) ?? (format === 'bibtex' ? readBibFile('document.bib', text) : undefined);
  return read && { ...read, uri };
}

/** The entry of a bibliography file whose key holds `offset` (its ends included), with where its key is. */
export function entryAt(file: { text: string; entries: readonly BibEntry[] }, offset: number): { entry: BibEntry; at: number } | undefined {
  const { text } = file;
  for (const entry of file.entries) {
    const at = entryKeyAt(text, entry);
    if (at >= 0 && offset >= at && offset <= at + entry.key.length && text.slice(at, at + entry.key.length) === entry.key) return { entry, at };
  }
  return undefined;
}

/** A document asked from as the scope sees it: the snapshot's, else read from the document itself (one the listing does not hold). */
async function scopeDocumentOf(ctx: ServiceContext, snap: ScopeSnapshot, doc: TextDocument): Promise<ScopeDocument> {
  const uri = URI.parse(doc.uri);
  const known = snap.document(uri);
  // The snapshot's reading of this very version (an open document's), or of the same text (a file read from disk).
  if (known && (known.version !== undefined ? known.version === doc.version : known.text === doc.getText())) return known;
  const text = doc.getText();
  const { cited, all } = documentCitations(text, doc.languageId, await ctx.crossrefsOf(doc));
  const latex = fileKind(uri, doc.languageId) === 'latex';
  return { uri, languageId: doc.languageId, text, version: doc.version, cited, all, citesThroughMacro: latex && citesThroughMacro(text), printsUncited: latex && printsUncited(text) };
}

/**
 * Every occurrence of the key under the cursor in its scope (see the module comment).
 *
 * @param offset - the cursor's UTF-16 offset in `doc` (a citing document or a bibliography file)
 * @returns undefined off a key
 */
export async function keyOccurrences(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, offset: number): Promise<KeyOccurrences | undefined> {
  const origin = await keyOrigin(ctx, scope, doc, offset);
  if (!origin) return undefined;
  const { key } = origin;
  const snap = await scope.snapshot();
  const files = new Map<string, { file: ResolvedBibFile; entries: BibEntry[] }>();
  const documents = new Map<string, ScopeDocument>();
  const gaps = new Map<string, ScopeGap>();
  const queue: URI[] = [];
  const addFile = (file: ResolvedBibFile) => {
    const id = file.uri.toString();
    if (files.has(id)) return;
    const entries = file.entries.filter((e) => definesKey(file, e, key));
    if (!entries.length) return;
    files.set(id, { file, entries });
    queue.push(file.uri);
  };
  const addDocument = (d: ScopeDocument) => { if (!documents.has(d.uri.toString())) documents.set(d.uri.toString(), d); };
  const uri = URI.parse(doc.uri);
  let elsewhere: KeyElsewhere | undefined;
  if (origin.kind === 'entry') {
    const read = await bibFileOf(scope, uri, fileKind(uri, doc.languageId) ?? 'bibtex', doc.getText());
    if (read) addFile(read);
  } else {
    const self = await scopeDocumentOf(ctx, snap, doc);
    addDocument(self);
    const bib = snap.bibliographyOf(uri) ?? (await ctx.bibliographyOf(doc));
    for (const f of bib?.files ?? []) addFile(f);
    if (!files.size) {
      // Defined by no bibliography file: shared by the documents that cite from the same bibliography.
      for (const d of snap.projectOf(uri)) addDocument(d);
      for (const f of bib?.files ?? []) for (const d of (await snap.readersOf(f.uri)).documents) addDocument(d);
      const bibitem = bibitemOf(bib?.thebibliography, key);
      const entry = bibitem ? undefined : ctx.lookup(key);
      elsewhere = bibitem ? { kind: 'bibitem', uri: bibitem.source.uri }
        : entry?.library ? { kind: 'library', name: entry.library.name, uri: entry.library.uri }
          : entry ? { kind: 'corpus' } : { kind: 'nowhere' };
    }
  }
  for (let next = queue.shift(); next; next = queue.shift()) {
    const readers = await snap.readersOf(next);
    for (const g of readers.gaps) gaps.set(JSON.stringify(g), g);
    for (const d of readers.documents) {
      addDocument(d);
      for (const f of snap.bibliographyOf(d.uri)?.files ?? []) addFile(f);
    }
  }
  const bibliographies = new Map<string, ResolvedBibFile>([...files.values()].map(({ file }) => [file.uri.toString(), file]));
  for (const d of documents.values()) {
    for (const f of snap.bibliographyOf(d.uri)?.files ?? (d.uri.toString() === uri.toString() ? (await ctx.bibliographyOf(doc))?.files ?? [] : [])) {
      if (!bibliographies.has(f.uri.toString())) bibliographies.set(f.uri.toString(), f);
    }
  }
  return {
    origin,
    files: [...files.values()],
    bibliographies: [...bibliographies.values()],
    documents: [...documents.values()].map((d) => ({ doc: d, cites: d.cited.filter((c) => citesKey(c.key, key)) })),
    ...(elsewhere ? { elsewhere } : {}),
    gaps: [...gaps.values()],
  };
}
