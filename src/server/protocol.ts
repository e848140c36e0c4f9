/**
 * The requests and notifications between the MLSys Papers language server and its clients beyond
 * LSP's standard ones, as typed `RequestType`/`NotificationType` objects. Shared by the server and
 * the VS Code client: imports neither `vscode` nor `node:` nor a transport-specific entry, only the
 * main entry of `vscode-languageserver-protocol`, which both `vscode-languageclient` and
 * `vscode-languageserver` are built on and re-export (its `browser` field picks the browser half
 * in the browser builds): the client bundles no server library, the server no client one.
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { Position } from 'vscode-languageserver-types';
import type { BrowseNode, BrowseParent, TopicScope } from '../core/corpus/browse.js';
import type { Entry, Level, TopicInput } from '../core/corpus/schema.js';
import type { BibChange, CitePlan, SameWorkInBibliography } from '../core/service/types.js';

/** How one library file stands (`mlsysPapers/libraryStatus`, `mlsysPapers/libraryStatusChanged`). */
export interface LibraryFileStatus {
  uri: string;
  /** The file's name. */
  name: string;
  state: 'loading' | 'ready' | 'error';
  /** Loading: entries done, of about `total`. */
  done: number;
  total: number;
  /** Ready: entries loaded. */
  entries: number;
  problems: number;
  /** Why it could not be read (state `error`). */
  message?: string;
  /** Joined as an open document's bibliography, not named by `mlsysPapers.libraries`. */
  fromDocument: boolean;
  /** Loaded from the cache, not parsed. */
  cached?: boolean;
}

/** A group of a library's entries for the Topics view: a JabRef group or a keyword. */
export interface LibraryGroup {
  id: string;
  label: string;
  count: number;
}

/** The id of a library's group of entries in no group (without keywords). */
export const UNGROUPED = '\u0000none';

/**
 * Requests the client sends the server, each with its parameters and result, so that a caller and
 * a handler cannot disagree on them (`client.sendRequest(ClientRequests.search, p)` is typed).
 * All names are under `mlsysPapers/`.
 */
export const ClientRequests = {
  /**
   * The corpus's taxonomy (bundled plus the user's corpus files; no entries: a client that shows
   * the corpus asks for what it shows, `topicChildren`, `entries`, `search`).
   */
  topics: new RequestType0<TopicsResult, void>('mlsysPapers/topics'),
  /** The rows of the Topics view under one node: topics with their counts, entries, the field's works by year. */
  topicChildren: new RequestType<TopicChildrenParams, TopicChildrenResult, void>('mlsysPapers/topicChildren'),
  /** Every entry under topics that the Topics view shows (Export Entries of a topic). */
  topicEntries: new RequestType<TopicEntriesParams, EntriesResult, void>('mlsysPapers/topicEntries'),
  /** Entries of the corpus or of a library by key (the ones it has, in the order asked). */
  entries: new RequestType<EntriesParams, EntriesResult, void>('mlsysPapers/entries'),
  /** Search the corpus and the libraries. */
  search: new RequestType<SearchParams, SearchResult, void>('mlsysPapers/search'),
  /** The text of `mlsys-papers:/<key>.bib`. */
  entryDocument: new RequestType<EntryDocumentParams, string, void>('mlsysPapers/entryDocument'),
  /** Plan citing entries at a position. */
  planCitation: new RequestType<PlanCitationParams, CitePlan, void>('mlsysPapers/planCitation'),
  /** Plan adding entries a document cites to its bibliography. */
  planBibliography: new RequestType<PlanBibliographyParams, PlanBibliographyResult, void>('mlsysPapers/planBibliography'),
  /** Plan adding entries to a named bibliography file. */
  planInsertion: new RequestType<PlanInsertionParams, BibChange, void>('mlsysPapers/planInsertion'),
  /** Plan declaring a new bibliography file in an open document. */
  planDeclaration: new RequestType<PlanDeclarationParams, PlanDeclarationResult, void>('mlsysPapers/planDeclaration'),
  /** The keys an open document cites, in order, each once. */
  citedKeys: new RequestType<CitedKeysParams, string[], void>('mlsysPapers/citedKeys'),
  /** Entries as formatted references in the configured CSL style. */
  format: new RequestType<FormatParams, FormatResult, void>('mlsysPapers/format'),
  /** An entry of the corpus or of a library by key, with a library entry's fields as written. */
  entry: new RequestType<EntryParams, EntryResult, void>('mlsysPapers/entry'),
  /**
   * The library files and how far each has loaded, now. The server pushes the same whenever it
   * changes as {@link ServerNotifications.libraryStatusChanged}.
   */
  libraryStatus: new RequestType0<LibraryStatusResult, void>('mlsysPapers/libraryStatus'),
  /** A library's groups for the tree (JabRef groups, else keywords). */
  libraryGroups: new RequestType<LibraryGroupsParams, LibraryGroupsResult, void>('mlsysPapers/libraryGroups'),
  /** The entries of one group of a library, newest first. */
  libraryEntries: new RequestType<LibraryEntriesParams, LibraryEntriesResult, void>('mlsysPapers/libraryEntries'),
  /** A Markdown text's citations and bibliography rendered as `pandoc --citeproc` renders them, for the Markdown preview. */
  previewCitations: new RequestType<PreviewCitationsParams, PreviewCitationsResult, void>('mlsysPapers/previewCitations'),
  /** Where an entry's literature note is, and the text of a new one (the client creates it). */
  planNote: new RequestType<PlanNoteParams, PlanNoteResult, void>('mlsysPapers/planNote'),
} as const;

/** Notifications the client sends the server. */
export const ClientNotifications = {
  /** Which entries the user has read (the whole set). */
  readState: new NotificationType<ReadStateParams>('mlsysPapers/readState'),
} as const;

/** Requests the server sends the client (see {@link InitializationOptions} for who answers them). */
export const ServerRequests = {
  /** The files a glob names in the workspace (VS Code's `findFiles`), as URIs. */
  findFiles: new RequestType<FindFilesParams, string[], void>('mlsysPapers/findFiles'),
  /** A file's text, for URIs the server cannot read itself (virtual workspaces). */
  readFile: new RequestType<ReadFileParams, ReadFileResult, void>('mlsysPapers/readFile'),
  /**
   * A file of the extension's own package by its path in the package (`dist/corpus.json`,
   * `csl/styles/apa.csl`), for a server with no file access of its own (the Web Worker): the
   * browser build does not carry a second copy of them.
   */
  readBundled: new RequestType<ReadBundledParams, ReadBundledResult, void>('mlsysPapers/readBundled'),
  /**
   * A file's modification time and size without its contents, for URIs the server cannot reach
   * itself; asked on every request for every file the answers depend on.
   */
  stat: new RequestType<StatParams, StatResult, void>('mlsysPapers/stat'),
} as const;

/** Notifications the server sends the client. */
export const ServerNotifications = {
  /** The corpus changed (the user's corpus files were reloaded): what a client shows of it is out of date. */
  corpusChanged: new NotificationType<CorpusChangedParams>('mlsysPapers/corpusChanged'),
  /**
   * The library files' status changed (loading progress too). A name of its own, not the
   * request's: one method name is one message in one direction.
   */
  libraryStatusChanged: new NotificationType<LibraryStatusParams>('mlsysPapers/libraryStatusChanged'),
  /** A library's entries changed (loaded, reloaded, edited, removed). */
  librariesChanged: new NotificationType<LibrariesChangedParams>('mlsysPapers/librariesChanged'),
} as const;

type Messages = typeof ClientRequests & typeof ClientNotifications & typeof ServerRequests & typeof ServerNotifications;

/**
 * Every custom method name, by the same key as its typed message above (`Methods.search` is
 * `ClientRequests.search.method`): for handlers and tests that register or send by name. There is
 * one name per message; the names are not written twice.
 */
export const Methods = Object.fromEntries(
  [ClientRequests, ClientNotifications, ServerRequests, ServerNotifications].flatMap((group) => Object.entries(group).map(([k, t]) => [k, t.method])),
) as { readonly [K in keyof Messages]: string };

/** `mlsysPapers/topics` result. */
export interface TopicsResult {
  /** Increases with every reload of the corpus. */
  version: number;
  /** The taxonomy, roots in tree order, each with its subtopics. */
  topics: TopicInput[];
}

/** How the Topics view filters: what it shows (`mlsysPapers.topicsShow`) and which levels (`mlsysPapers.levels`). */
export interface TopicFilter {
  scope: TopicScope;
  levels: Level[];
}

/** `mlsysPapers/topicChildren` parameters: the node whose rows are asked (the roots without a topic), and the view's filter. */
export interface TopicChildrenParams extends TopicFilter {
  parent: BrowseParent;
}

/** `mlsysPapers/topicChildren` result: the rows, and the corpus version they come from. */
export interface TopicChildrenResult {
  version: number;
  nodes: BrowseNode[];
}

/** `mlsysPapers/topicEntries` parameters. */
export interface TopicEntriesParams extends TopicFilter {
  topics: string[];
}

export interface EntriesParams {
  keys: string[];
}

/** `mlsysPapers/entries` and `mlsysPapers/topicEntries` result. */
export interface EntriesResult {
  entries: Entry[];
}

export interface SearchParams {
  query: string;
  limit?: number;
}

/** `mlsysPapers/search` result: keys in rank order, and the query's filters that were not understood. */
export interface SearchResult {
  keys: string[];
  invalid: string[];
  /** The hits, in rank order (the client keeps no corpus of its own). */
  entries: Entry[];
  /** Corpus hits that are also in a library: citing them cites the library's key. */
  sameWorkInLibraries?: Record<string, { key: string; library: string }>;
}

export interface EntryParams {
  key: string;
}

/** `mlsysPapers/entry` result: the entry, a library entry's fields as written, the library entry that is a corpus entry's work. */
export interface EntryResult {
  entry?: Entry;
  fields?: Record<string, string>;
  sameWorkInLibrary?: Entry;
}

/** `mlsysPapers/libraryStatusChanged` parameters: every library file's status. */
export interface LibraryStatusParams {
  files: LibraryFileStatus[];
}

/** `mlsysPapers/libraryStatus` result: the same as the notification carries. */
export type LibraryStatusResult = LibraryStatusParams;

/** `mlsysPapers/corpusChanged` parameters. */
export interface CorpusChangedParams {
  /** The new corpus's version (`TopicsResult.version`). */
  version: number;
}

/** `mlsysPapers/librariesChanged` parameters. */
export interface LibrariesChangedParams {
  /** Increases with every change of any library's entries. */
  version: number;
}

export interface LibraryGroupsParams {
  uri: string;
}

export interface LibraryGroupsResult {
  groups: LibraryGroup[];
}

export interface LibraryEntriesParams {
  uri: string;
  group: string;
}

/** `mlsysPapers/libraryEntries` result: at most `limit` entries, of `total`. */
export interface LibraryEntriesResult {
  entries: Entry[];
  total: number;
  limit: number;
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
  reused: SameWorkInBibliography[];
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

export interface PreviewCitationsParams {
  /** The document (its settings, bibliography and folder count). */
  uri: string;
  languageId: string;
  /** The text the preview renders, which the answer's offsets refer to (an open document may have moved on). */
  text: string;
}

/** One rendered citation: `[start, end)` of its text in the request's text (UTF-16 code units), and its HTML. */
export interface PreviewCitation {
  start: number;
  end: number;
  html: string;
}

/**
 * `mlsysPapers/previewCitations` result: every citation's HTML, and the bibliography's (`null` with
 * `suppress-bibliography`, or when nothing known is cited): where it goes (the `::: {#refs}` div's
 * fence lines, else the end). `error`: why nothing was rendered (a style that cannot be used).
 */
export interface PreviewCitationsResult {
  citations: PreviewCitation[];
  bibliography: { html: string; open?: { start: number; end: number }; close?: { start: number; end: number } } | null;
  error?: string;
}

export interface PlanNoteParams {
  key: string;
  /** A document or folder whose workspace folder and settings count; the first workspace folder when absent. */
  scope?: string;
}

/**
 * `mlsysPapers/planNote` result: the note's URI and whether it exists; for a note to create, its
 * text (from the template); or why there is none (no folder open, a notes folder or template
 * outside the workspace, a template that cannot be read).
 */
export type PlanNoteResult = { uri: string; exists: true } | { uri: string; exists: false; text: string } | { error: string };

export interface ReadStateParams {
  keys: string[];
}

export interface FindFilesParams {
  pattern: string;
}

export interface ReadFileParams {
  uri: string;
  /**
   * The largest file the server takes, in bytes (`mlsysPapers.maxFileSizeMB`): a larger one is
   * answered `tooLarge` without reading it. Absent: the client's own reading of the setting.
   */
  maxBytes?: number;
}

/**
 * `mlsysPapers/readFile` result: the text (UTF-8, BOM kept), or why there is none. `notFile`:
 * neither a regular file nor a folder (a device, a FIFO), never read; `tooLarge`: over `maxBytes`,
 * never read.
 */
export type ReadFileResult =
  | { text: string; mtime: number; size: number }
  | { missing: true }
  | { notUtf8: true; mtime: number; size: number; /** The bytes read as Windows-1252, for reading only (never written back). */ legacyText?: string }
  | { directory: true; mtime: number; size: number }
  | { notFile: true; mtime: number; size: number }
  | { tooLarge: true; mtime: number; size: number };

export interface ReadBundledParams {
  /** The path in the extension's package, `/`-separated: `dist/corpus.json`, `csl/styles/<name>.csl` or `csl/locales/<name>.xml`. */
  path: string;
}

/** `mlsysPapers/readBundled` result: the file's text, or nothing when the package has no such file. */
export type ReadBundledResult = { text: string } | { missing: true };

/** The paths `mlsysPapers/readBundled` may name: the compiled corpus and the bundled CSL files. */
export const BUNDLED_PATH = /^(?:dist\/corpus\.json|csl\/(?:styles\/[\w.-]+\.csl|locales\/[\w.-]+\.xml))$/;

export interface StatParams {
  uri: string;
}

/** `mlsysPapers/stat` result: what changes when the file changes (no contents), or that it is not there. */
export type StatResult =
  | { missing: true }
  | { directory: true; mtime: number; size: number }
  /** Neither a regular file nor a folder (a device, a FIFO). */
  | { notFile: true; mtime: number; size: number }
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
  /** The client answers `mlsysPapers/readBundled` (the browser build's client does). */
  bundledFiles?: boolean;
  /**
   * The text of the extension's `dist/corpus.json`, from a client whose server has no file access
   * of its own (the browser build's Web Worker): the corpus must be there before the first answer,
   * and a server may not ask the client anything before it has answered `initialize`.
   */
  bundledCorpus?: string;
  /** Where the server may cache loaded libraries (the extension's global storage folder, a path). */
  cacheDir?: string;
  /**
   * The client implements the code actions' commands (`mlsysPapers.addToBibliography`,
   * `mlsysPapers.replaceKey`) with its own UI; otherwise the server executes them.
   */
  clientCommands?: boolean;
  /**
   * The display language's bundle: a loaded `vscode.l10n` bundle for the server's messages
   * (absent: English). Which topic labels hovers show follows the settings and
   * `InitializeParams.locale` (`core/config/settings.ts`'s `topicLabelsOf`).
   */
  l10n?: { bundle?: Record<string, string> };
}
