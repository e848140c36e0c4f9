/**
 * The requests and notifications between the MLSys Papers language server and its clients beyond
 * LSP's standard ones. Shared by the server and the VS Code client; plain types and method names
 * only (no `vscode`, no `node:`).
 */
import type { Position } from 'vscode-languageserver-types';
import type { CorpusData } from '../core/corpus.js';
import type { BibChange, ReusedKey } from '../core/service/types.js';

/** Custom method names, all under `mlsysPapers/`. */
export const Methods = {
  /** Client → server: the corpus (bundled plus the user's corpus files) as data. */
  corpus: 'mlsysPapers/corpus',
  /** Client → server: search the corpus. */
  search: 'mlsysPapers/search',
  /** Client → server: the text of `mlsys-papers:/<key>.bib`. */
  entryDocument: 'mlsysPapers/entryDocument',
  /** Client → server: plan citing entries at a position. */
  planCitation: 'mlsysPapers/planCitation',
  /** Client → server: plan adding entries a document cites to its bibliography. */
  planBibliography: 'mlsysPapers/planBibliography',
  /** Client → server: plan adding entries to a named bibliography file. */
  planInsertion: 'mlsysPapers/planInsertion',
  /** Client → server: plan declaring a new bibliography file in an open document. */
  planDeclaration: 'mlsysPapers/planDeclaration',
  /** Client → server: the keys an open document cites. */
  citedKeys: 'mlsysPapers/citedKeys',
  /** Client → server: entries as formatted references in the configured CSL style. */
  format: 'mlsysPapers/format',
  /** Client → server: which entries the user has read (the whole set). */
  readState: 'mlsysPapers/readState',
  /** Server → client: the corpus changed (the user's corpus files were reloaded). */
  corpusChanged: 'mlsysPapers/corpusChanged',
  /** Server → client: the files a glob names in the workspace (VS Code's `findFiles`). */
  findFiles: 'mlsysPapers/findFiles',
  /** Server → client: a file's text, for URIs the server cannot read itself (virtual workspaces). */
  readFile: 'mlsysPapers/readFile',
  /**
   * Server → client: a file's modification time and size without its contents, for URIs the
   * server cannot reach itself; asked on every request for every file the answers depend on.
   */
  stat: 'mlsysPapers/stat',
} as const;

/** `mlsysPapers/corpus` result. */
export interface CorpusResult {
  /** Increases with every reload. */
  version: number;
  data: CorpusData;
}

export interface SearchParams {
  query: string;
  limit?: number;
}

/** `mlsysPapers/search` result: keys in rank order, and the query's filters that were not understood. */
export interface SearchResult {
  keys: string[];
  invalid: string[];
}

export interface EntryDocumentParams {
  uri: string;
}

export interface PlanCitationParams {
  uri: string;
  position: Position;
  keys: string[];
}

export interface PlanBibliographyParams {
  uri: string;
  keys: string[];
}

export interface PlanBibliographyResult {
  reused: ReusedKey[];
  bibliography: BibChange;
}

export interface PlanInsertionParams {
  /** The bibliography file. */
  uri: string;
  keys: string[];
}

export interface PlanDeclarationParams {
  /** The document (open, a citing language). */
  uri: string;
  /** The bibliography file's name relative to it (`references.bib`). */
  file: string;
}

/** `mlsysPapers/planDeclaration` result: insertions on the document version; null without `\end{document}`. */
export type PlanDeclarationResult = { version: number; insertions: { offset: number; text: string }[] } | null;

export interface CitedKeysParams {
  uri: string;
}

export interface FormatParams {
  keys: string[];
  /** The document whose settings scope counts (the style may be set per folder). */
  scope?: string;
}

/** `mlsysPapers/format` result: one reference per key, or the reason the style cannot be used. */
export type FormatResult = { references: string[] } | { error: string };

export interface ReadStateParams {
  keys: string[];
}

export interface FindFilesParams {
  pattern: string;
}

export interface ReadFileParams {
  uri: string;
}

/** `mlsysPapers/readFile` result: the text (UTF-8, BOM kept), or why there is none. */
export type ReadFileResult =
  | { text: string; mtime: number; size: number }
  | { missing: true }
  | { notUtf8: true; mtime: number; size: number }
  | { directory: true; mtime: number; size: number };

export interface StatParams {
  uri: string;
}

/** `mlsysPapers/stat` result: what changes when the file changes (no contents), or that it is not there. */
export type StatResult =
  | { missing: true }
  | { directory: true; mtime: number; size: number }
  | { mtime: number; size: number };

/**
 * What the VS Code client adds to the `workspace/configuration` answer for `mlsysPapers`: the
 * settings whose value comes from a workspace's settings rather than the user's (files named by
 * them are read only inside the workspace folders).
 */
export const FROM_WORKSPACE = '__fromWorkspace';

/** `initializationOptions` the server understands. */
export interface InitializationOptions {
  /** The client answers `mlsysPapers/findFiles`, `mlsysPapers/readFile` and `mlsysPapers/stat`. */
  fileSystem?: boolean;
  /**
   * The client implements the code actions' commands (`mlsysPapers.addToBibliography`,
   * `mlsysPapers.replaceKey`) with its own UI; otherwise the server executes them.
   */
  clientCommands?: boolean;
}
