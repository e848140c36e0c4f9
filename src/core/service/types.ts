/**
 * What the citation language service needs from its host, and the plain-data plans it returns.
 * Everything here is JSON-serialisable: plans travel from the language server to the client.
 */
import type { Corpus } from '../corpus/readCorpus.js';
import type { Entry } from '../corpus/schema.js';
import type { Refusal } from '../bibliography/refusal.js';
import type { SearchIndex } from '../search/corpus/corpusIndex.js';

/**
 * The corpus the service answers from, and its search index (built by whoever owns the corpus),
 * with the user's libraries: the language server's catalog (`core/library/catalog.ts`), or the
 * corpus alone ({@link corpusView}).
 */
export interface CorpusView {
  readonly corpus: Corpus;
  /** Searches the corpus and the libraries. */
  readonly index: SearchIndex;
  /** An entry of the corpus or of a library by key, ignoring case (the corpus's first). */
  entry(key: string): Entry | undefined;
  /**
   * What citing `key` cites: a corpus entry, or the same work in a library (under the
   * user's key) unless the user prefers corpus keys; or a library entry.
   */
  toCite(key: string): Entry | undefined;
  /** Library entries as citing copies them: their own BibTeX text, or CSL item (`Entry.library`). */
  prepare(entries: readonly Entry[]): Entry[];
  /** Whether a URI is a library file named by the settings, however it is spelt (real paths compared): never written to. */
  isLibrary(uri: string): boolean | Promise<boolean>;
  /** Whether a URI is a library file that has loaded (its entries are in the index). */
  isLibraryReady(uri: string): boolean;
  /**
   * Whether a URI is a file the library store reads (a library, loaded or not): the store is the
   * one source of its reader's problems (a skipped entry, a field left out), so the service
   * reports none of them.
   */
  isLibraryFile(uri: string): boolean;
  /** The library entry that is the same work as a corpus entry (`corpus/sameWork.ts`), whatever the preference. */
  sameWorkInLibrary(corpusKey: string): Entry | undefined;
}

/**
 * The corpus alone as a {@link CorpusView}: no library, so lookups are the corpus's, citing cites
 * the corpus entry, and no file is a library.
 *
 * @param index - the corpus's search index (`createSearchIndex`)
 */
export function corpusView(corpus: Corpus, index: SearchIndex): CorpusView {
  return {
    corpus, index,
    entry: (key) => corpus.entry(key),
    toCite: (key) => corpus.entry(key),
    prepare: (entries) => [...entries],
    isLibrary: () => false,
    isLibraryReady: () => false,
    isLibraryFile: () => false,
    sameWorkInLibrary: () => undefined,
  };
}

/** A request that may be cancelled (LSP's `CancellationToken` has this shape). */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/** Never cancelled. */
export const NOT_CANCELLED: Cancellation = { isCancellationRequested: false };

/**
 * An insertion into a bibliography file on disk, planned on its bytes: apply it only to a text
 * whose `length` and {@link textHash} match, or the file changed since it was planned.
 */
export interface DiskInsertion {
  offset: number;
  text: string;
  length: number;
  hash: string;
  /**
   * Whether VS Code opens the file with its text unchanged (one kind of line break; see
   * `editorText`): then the insertion may go through the editor at `offset` (less one for a BOM).
   */
  editorSafe: boolean;
}

/**
 * What citing does to a bibliography file, as the client applies it:
 * - `none`: nothing to add;
 * - `insert`: add entries to the existing file `uri`, planned both on its open document's text
 *   (`document`, when the server has it open) and on its bytes (`disk`, absent when not UTF-8);
 * - `create`: create the declared file `uri` with `text`;
 * - `declare`: the document declares no bibliography; the client may offer to create `references.bib`;
 * - `refuse`: nothing is written, for a reason code (`core/bibliography/refusal.ts`); each host
 *   renders it with `refusalText` in its display language (a sentence that follows the file's name).
 */
export type BibChange =
  | { kind: 'none' }
  | { kind: 'insert'; uri: string; keys: string[]; document?: { version: number; offset: number; text: string }; disk?: DiskInsertion }
  | { kind: 'create'; uri: string; text: string; keys: string[] }
  | { kind: 'declare'; root: string; keys: string[] }
  | ({ kind: 'refuse'; uri: string } & Refusal);

/** The same work (`corpus/sameWork.ts`) the bibliography already has under another key, so it is cited by that key. */
export interface SameWorkInBibliography {
  /** The corpus key asked for. */
  key: string;
  /** The key it is cited as. */
  citeAs: string;
  title: string;
  /** The bibliography file that has it (a URI). */
  file: string;
}

/** Citing entries at a position: the citation's edit on the document, and the bibliography's change. */
export interface CitePlan {
  /** The document version the edit was planned on. */
  version: number;
  /** Replace `[offset, offset + length)` of the document with `text`; absent when every key is already there. */
  edit?: { offset: number; length: number; text: string };
  /** The keys the edit adds. */
  added: string[];
  reused: SameWorkInBibliography[];
  bibliography: BibChange;
}

/**
 * A 32-bit FNV-1a hash of a text's UTF-16 code units, as 8 hex digits: the fingerprint that ties
 * a {@link DiskInsertion} to the text it was planned on (Fowler–Noll–Vo, IETF draft-eastlake-fnv).
 */
export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The `source` of every diagnostic the service raises. */
export const DIAGNOSTIC_SOURCE = 'MLSys Papers';

/** Diagnostic codes, for quick fixes (`not-in-thebibliography`, a corpus or library key no `\bibitem` defines, has none: nothing is written into a thebibliography). */
export const DiagnosticCodes = {
  unknown: 'unknown-key', notInBib: 'not-in-bibliography', notInThebibliography: 'not-in-thebibliography', duplicate: 'duplicate-key', missingRoot: 'missing-root',
  /** A corpus key cited while the declared bibliography is there but cannot be read as a file (no quick fix: nothing is created over it). */
  unreadableBibliography: 'unreadable-bibliography',
  /** An entry cited as an arXiv preprint whose version of record the corpus has (`core/checks/`). */
  versionOfRecord: 'version-of-record',
  /** An entry whose fields disagree with the corpus's verified record. */
  recordMismatch: 'record-mismatch',
  /** A system the corpus knows by name, named in prose and not cited. */
  uncitedSystem: 'uncited-system',
} as const;

/**
 * The commands code actions carry (arguments in brackets). The VS Code extension implements them
 * with its own UI; the language server implements them for other editors.
 * - `addToBibliography [documentUri, key]`
 * - `replaceKey [documentUri, range, key]`
 * - `copyEntryText [text]` (VS Code only: other editors are not offered it)
 */
export const ServiceCommands = {
  addToBibliography: 'mlsysPapers.addToBibliography', replaceKey: 'mlsysPapers.replaceKey', openNote: 'mlsysPapers.openNote', showCitations: 'mlsysPapers.showCitations',
  /** `[text]`: copies an entry's rewritten text (a library entry's version of record) to the clipboard. */
  copyEntryText: 'mlsysPapers.copyEntryText',
} as const;

/** The URI scheme of the read-only BibTeX of a corpus entry: `mlsys-papers:/<key>.bib`. */
export const ENTRY_SCHEME = 'mlsys-papers';
