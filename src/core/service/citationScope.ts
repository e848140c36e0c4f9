/**
 * Who reads a bibliography, and what they cite: the one question the features that follow a
 * citation key across a workspace ask (rename, find all citations, the count on an entry, unused
 * entries), put behind one small interface so that it can be answered by whichever model of the
 * workspace the service runs on. Today `projectScope.ts` answers it over the LaTeX project model
 * and the bibliography resolver; the workspace store of issue 27 can answer it from its facts.
 *
 * The scope of a bibliography file is every citing document of the workspace that reads it, open
 * or not: a LaTeX root and every file it includes (a section file cites from its root's
 * bibliography), a pandoc document that names the file in its front matter, the documents of a
 * Quarto project or a bookdown book that name it in `_quarto.yml` or `index.Rmd`. What keeps the
 * scope from being known in full is said ({@link ScopeGap}), never guessed at.
 */
import type { URI } from 'vscode-uri';
import type { DocumentBibliography, ResolvedBibFile } from '../bibliography/resolve.js';
import type { CitedKey } from '../cite/citations.js';

/** A citing document of the workspace (LaTeX or Markdown), open or not, as read now. */
export interface ScopeDocument {
  uri: URI;
  /** The editor's language id (an open document's), else the one its name gives (`latex`, `markdown`, `quarto`). */
  languageId: string;
  /** Its text: the open document's (unsaved changes included), else the file's. */
  text: string;
  /** The open document's version; undefined for a file read from disk. */
  version?: number;
  /** The keys it cites, in document order, with their offsets in `text` (`core/cite/citations.ts`). */
  cited: readonly CitedKey[];
  /** It cites every entry of its bibliography (`\nocite{*}`, `nocite: '@*'`). */
  all: boolean;
  /**
   * LaTeX: it defines a macro that cites through its argument (`\newcommand{\see}[1]{\cite{#1}}`):
   * the keys passed to that macro are cited, and no static reader sees them.
   */
  citesThroughMacro: boolean;
  /** LaTeX: it prints entries it does not cite (bibtopic's `\btPrintNotCited`, `\btPrintAll`). */
  printsUncited: boolean;
}

/**
 * Why the documents that read a bibliography, or what they cite, are not known in full:
 * - `cites-all`: a reader cites every entry (`\nocite{*}`, `nocite: '@*'`);
 * - `cite-macro`: a reader cites through a macro's argument (see {@link ScopeDocument.citesThroughMacro});
 * - `prints-uncited`: a reader prints entries it does not cite (see {@link ScopeDocument.printsUncited});
 * - `unresolved-link`: a LaTeX root's file inputs a file that is in no workspace folder
 *   (`\input{glyphtounicode}` from TeX's own tree, a file not written yet), which may cite;
 * - `outside-workspace`: the bibliography's real path is outside the workspace folders, where
 *   documents we cannot see may read it too;
 * - `listing`: the workspace's files could not all be listed (more than the limit, or a host that cannot list).
 */
export type ScopeGap =
  | { kind: 'cites-all'; uri: URI }
  | { kind: 'cite-macro'; uri: URI }
  | { kind: 'prints-uncited'; uri: URI }
  | { kind: 'unresolved-link'; uri: URI; path: string }
  | { kind: 'outside-workspace'; uri: URI }
  | { kind: 'listing' };

/** The documents that read one bibliography file, and what keeps that set from being known in full. */
export interface BibReaders {
  /** The bibliography file asked about. */
  bib: URI;
  /** Each reader once, in workspace order (a LaTeX root's files in the order TeX reads them). */
  documents: ScopeDocument[];
  /** Empty when the readers and their citations are known in full. */
  gaps: ScopeGap[];
}

/** One view of the workspace's citing documents and their bibliographies, taken for one request. */
export interface ScopeSnapshot {
  /** Every document that reads the file (by real path, however each spells it). */
  readersOf(bib: URI): Promise<BibReaders>;
  /**
   * The documents that cite from the same bibliography as `doc` (the files of its LaTeX roots, the
   * documents of its Quarto project or bookdown book), `doc` first: whose citations a key that no
   * bibliography file defines is shared with.
   */
  projectOf(doc: URI): ScopeDocument[];
  /** A citing document of the snapshot. */
  document(uri: URI): ScopeDocument | undefined;
  /** A citing document's bibliography, as `resolveBibliography` finds it; undefined when it declares none. */
  bibliographyOf(doc: URI): DocumentBibliography | undefined;
}

/** The scope of the service's citation-following features; see the module comment. */
export interface CitationScope {
  /** The workspace's citing documents as they are now. */
  snapshot(): Promise<ScopeSnapshot>;
  /**
   * A bibliography file as it reads now (its open document's text first), read once per version;
   * undefined when it does not exist or its name is no bibliography format's.
   */
  bibFile(uri: URI): Promise<ResolvedBibFile | undefined>;
}

/** A link of a LaTeX root's files that leads to no `.tex` file the project knows (`LatexProject.unresolvedOf`). */
export interface ScopeLink {
  from: URI;
  /** As written. */
  path: string;
  /** The files TeX would try, in order. */
  candidates: URI[];
}

/** What the host gives the scope ({@link CitationScope}) besides the workspace's files. */
export interface ScopeHost {
  /**
   * The workspace's LaTeX and Markdown files, open or not (a listing, plus the open documents),
   * once the host knows them (the server waits for its LaTeX indexing); `complete` is false when
   * the listing stopped at its limit or the host cannot list.
   */
  citingFiles(): Promise<{ uris: URI[]; complete: boolean }>;
  /** The files a LaTeX root reads through its links, the root first (`LatexProject.filesOf`). */
  filesOf(root: URI): URI[];
  /** The links of a LaTeX root's files that lead to no `.tex` file the project knows (`LatexProject.unresolvedOf`). */
  unresolvedOf(root: URI): ScopeLink[];
}
