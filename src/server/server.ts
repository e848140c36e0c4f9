/**
 * The MLSys Papers language server: the citation language service (`core/service/`) over LSP,
 * whatever the transport (a Node process over IPC or stdio, or a Web Worker) and whatever the
 * editor. The host supplies file access and the bundled data; this file imports no `node:`.
 *
 * Standard requests: completion (+ resolve), hover, definition, pull diagnostics, code actions,
 * execute command (for editors other than VS Code). Custom requests: `server/protocol.ts`.
 */
import {
  CodeActionKind, DiagnosticRefreshRequest, ErrorCodes, ResponseError, type CodeActionParams, type CompletionItem, type CompletionParams, type DefinitionParams,
  type DidChangeConfigurationParams, type DidChangeWatchedFilesParams, type DocumentDiagnosticParams, type DocumentDiagnosticReport, type ExecuteCommandParams,
  type HoverParams, type WorkspaceFoldersChangeEvent, DidChangeWatchedFilesNotification, DocumentDiagnosticReportKind,
  FileChangeType, TextDocuments, type Disposable, type FileSystemWatcher, TextDocumentSyncKind, type Connection, type InitializeParams, type InitializeResult,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI, Utils } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import { isCitingLanguage, LATEX_LANGUAGES } from '../core/context.js';
import { configureL10n, TOPIC_LABELS, type TopicLabels } from '../core/l10n.js';
import { inWorkspace, inWorkspaceReal, normalizeUri, sameFile } from '../core/bib/resolve.js';
import { maxFileBytes, megabytes } from '../core/fileLimits.js';
import { bibFormatOf } from '../core/bib/sync.js';
import { BUNDLED_STYLES, type BundledStyle } from '../core/cite/styles.js';
import type { CorpusData } from '../core/corpus.js';
import type { Logger } from '../core/log.js';
import type { Entry } from '../core/schema.js';
import { mergeHits, parseQuery } from '../core/search.js';
import { createCitationService } from '../core/service/service.js';
import { DEFAULT_CITATION_STYLE, documentSettingsFrom, ServiceCommands, type CorpusView, type DocumentSettings, type ServiceWorkspace } from '../core/service/types.js';
import { CorpusStore } from './corpusStore.js';
import { Params, RequestGate } from './requests.js';
import { GROUP_LIMIT, LibraryStore, type LibraryCache } from './libraryStore.js';
import { LATEX_FILE_LIMIT } from '../core/latex/project.js';
import { isLatexFile, LatexProjectIndexer } from './latexProject.js';
import {
  FROM_WORKSPACE, Methods, TOPIC_LABELS_SETTING, type ReadBundledParams, type ReadBundledResult, type CorpusResult, type EntryDocumentParams, type FormatParams, type FormatResult,
  type CitedKeysParams, type InitializationOptions, type PlanBibliographyParams, type PlanDeclarationParams, type PlanDeclarationResult, type PlanCitationParams, type PlanInsertionParams,
  type ReadFileResult, type ReadStateParams, type SearchParams, type SearchResult, type StatResult,
  type EntryParams, type EntryResult, type LibraryFileStatus, type LibraryEntriesParams, type LibraryEntriesResult, type LibraryGroupsParams, type LibraryGroupsResult,
} from './protocol.js';

/**
 * The stamp of a file on disk, the one format every host and the client's answers share: `m…`
 * for a file, `d…` for a folder, `s…` for anything else (a device, a FIFO); neither of the last
 * two is a file the service reads.
 *
 * @param mtime - modification time, in any unit the same host keeps to
 * @param size - size in bytes
 * @param directory - whether it is a folder (true), not a regular file at all (`special`), or a file (false)
 */
export function fileStampOf(mtime: number, size: number, directory: boolean | 'special' = false): string {
  return `${directory === 'special' ? 's' : directory ? 'd' : 'm'}${mtime}:${size}`;
}

/** How long a request naming a document waits for the document's `didOpen` (see `openDocument`), in ms. */
const OPEN_WAIT_MS = 5000;
/** How many formatted references are kept (for hovers and completion documentation). */
const FORMATTED_LIMIT = 500;

/**
 * A file as the host reads it; `stamp` as {@link fileStampOf} makes it. `notFile`: neither a
 * regular file nor a folder (a device, a FIFO, `/dev/stdin`), never read; `tooLarge`: over the
 * size cap (`size` bytes), never read.
 */
export type HostFile =
  | { text: string; stamp: string } | { notUtf8: true; stamp: string } | { directory: true; stamp: string }
  | { notFile: true; stamp: string } | { tooLarge: true; size: number; stamp: string } | undefined;

/**
 * The extension's own files as the client gives them, for a host with no file access of its own:
 * the corpus sent with `initialize` (`initializationOptions.bundledCorpus`) and any other file on
 * request (`mlsysPapers/readBundled`). Undefined where the client gives none.
 */
export interface BundledFiles {
  /** The text of `dist/corpus.json`. */
  readonly corpus: string | undefined;
  /** A file by its path in the package (`csl/styles/apa.csl`); undefined when the client has none. */
  read(path: string): Promise<string | undefined>;
}

/** What the server needs from where it runs. */
export interface ServerHost {
  /**
   * Reads a file the server can reach itself (Node: `file:` URIs), without blocking the server's
   * thread: stat first (following symlinks), and only a regular file of at most `maxBytes` is read.
   *
   * @param maxBytes - the size cap in bytes (`mlsysPapers.maxFileSizeMB`)
   * @returns the file, undefined when it does not exist, or null when this host cannot read such URIs (the client is asked)
   */
  readFile?(uri: URI, maxBytes: number): Promise<HostFile | null> | HostFile | null;
  /**
   * What changes when the file changes, without reading it ({@link fileStampOf}, as the stamps
   * of {@link readFile}); same conventions as {@link readFile}. Absent: the client is asked
   * (`mlsysPapers/stat`), or, without one, the file is read for it.
   */
  stamp?(uri: URI): Promise<string | undefined | null> | string | undefined | null;
  /**
   * A file's real path (`BibWorkspace.realPath`: symlinks resolved; for a file not there yet, its
   * nearest existing folder's real path plus the rest), for every "inside the workspace" and "is
   * this a library" decision. Absent (the browser): URIs are compared normalised.
   */
  realPath?(uri: URI): Promise<URI | undefined>;
  /** Whether the host's file system ignores case in names (real paths are then compared case-folded). */
  foldsCase?: boolean;
  /**
   * The compiled bundled corpus (`dist/corpus.json`).
   *
   * @param client - reads the extension's own files through the client (`mlsysPapers/readBundled`),
   *   for a host that has none of its own
   */
  bundledCorpus(client: BundledFiles): CorpusData | Promise<CorpusData>;
  /** A bundled CSL file by path under `csl/` (`styles/apa.csl`, `locales/locales-en-US.xml`); `client` as for {@link bundledCorpus}. */
  bundledCsl(path: string, client: BundledFiles): string | undefined | Promise<string | undefined>;
  /** citeproc-js and our formatter (`core/cite/csl.ts`), loaded on the first formatted reference. */
  loadCsl(): Promise<typeof import('../core/cite/csl.js')>;
  /** The user's home folder, for `~` in settings; absent where there is none (the web). */
  home?: string;
  /**
   * Where loaded libraries are cached; absent: none is. `dir` is the client's choice
   * (`initializationOptions.cacheDir`: the extension's global storage).
   */
  libraryCache?(dir: string | undefined, warn: (message: string) => void): LibraryCache | undefined;
  /** A strong hash of a text, for cache keys (Node: SHA-256); absent: FNV-1a with the length. */
  hash?(text: string): string;
  /**
   * The regular files under some folders whose names end with one of `extensions` (`.tex`), without
   * following symbolic links or entering hidden folders; at most `limit`. Absent, or null for
   * folders it cannot reach: the client is asked (`mlsysPapers/findFiles`).
   */
  listFiles?(folders: readonly URI[], extensions: readonly string[], limit: number): Promise<URI[] | null>;
}

/** The settings the server reads (`mlsysPapers.*`), as the client sends them. */
interface RawSettings {
  latexCommand?: string;
  markdownStyle?: string;
  syncBibliography?: boolean;
  latexRoot?: string;
  citationStyle?: string;
  corpusFiles?: string[];
  libraries?: string[];
  includeDocumentBibliography?: boolean;
  preferCorpusKeys?: boolean;
  /** The largest file read, in MB (`core/fileLimits.ts`). */
  maxFileSizeMB?: number;
  [FROM_WORKSPACE]?: string[];
  [TOPIC_LABELS_SETTING]?: unknown;
}

/** Timers keyed by document URI, at most one pending per URI: starting one replaces the pending one. */
function timerPerUri(): { start(uri: string, ms: number, run: () => void): void; cancel(uri: string): void } {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const cancel = (uri: string) => { clearTimeout(timers.get(uri)); timers.delete(uri); };
  return {
    start(uri, ms, run) {
      cancel(uri);
      timers.set(uri, setTimeout(() => { timers.delete(uri); run(); }, ms));
    },
    cancel,
  };
}

/**
 * Serves the citation language service on a connection until it closes.
 *
 * @param connection - from `vscode-languageserver/node` or `/browser`
 * @param host - file access and bundled data
 */
export function startServer(connection: Connection, host: ServerHost): void {
  const documents = new TextDocuments(TextDocument);
  /** Set once the connection is gone: work still under way (a library load, a timer) then stops telling the client. */
  let closed = false;
  /** Runs `send` unless the connection is gone (once disposed, sending throws, at once or in its promise). */
  const tell = (send: () => unknown): void => {
    if (closed) return;
    void (async () => {
      try {
        await send();
      } catch {
        // ignored: sending fails only when the connection is gone (the client went away); nothing can be told any more.
        closed = true;
      }
    })();
  };
  const log: Logger = {
    info: (m) => tell(() => connection.console.info(m)),
    warn: (m) => tell(() => connection.console.warn(m)),
    error: (m) => tell(() => connection.console.error(m instanceof Error ? `${m.message}\n${m.stack ?? ''}` : m)),
  };
  /** Every handler below is registered through it: answered always, in LSP's lifecycle, parameters checked (`requests.ts`). */
  const gate = new RequestGate(log);
  let folders: URI[] = [];
  let init: InitializationOptions = {};
  let canPullConfig = false;
  let canRefresh = false;
  let canWatch = false;
  /** The client watches `{ baseUri, pattern }` globs (LSP 3.17 `relativePatternSupport`): files outside the workspace folders. */
  let canWatchOutside = false;
  let canFolders = false;
  const read = new Set<string>();
  /** Settings pushed with `workspace/didChangeConfiguration`, for clients that cannot be asked. */
  let pushed: RawSettings = {};
  let canPushDiagnostics = false;
  const settingsCache = new Map<string, Promise<RawSettings>>();

  const rawSettings = (scope?: URI): Promise<RawSettings> => {
    const id = scope?.toString() ?? '';
    let s = settingsCache.get(id);
    if (!s) {
      s = canPullConfig
        ? connection.workspace.getConfiguration({ scopeUri: scope?.toString(), section: 'mlsysPapers' })
          .then((v: unknown) => (v && typeof v === 'object' ? withTopicLabels(v as RawSettings) : {}), (e: unknown) => { log.warn(`settings: ${String(e)}`); return {}; })
        : Promise.resolve(pushed);
      settingsCache.set(id, s);
    }
    return s;
  };
  /** The VS Code client's answer carries the topic labels it resolved (`TOPIC_LABELS_SETTING`): hovers follow a change. */
  const withTopicLabels = (s: RawSettings): RawSettings => {
    const labels = s[TOPIC_LABELS_SETTING];
    if (TOPIC_LABELS.includes(labels as TopicLabels)) configureL10n({ topicLabels: labels as TopicLabels });
    return s;
  };
  /** The extension's own files, from the client (`mlsysPapers/readBundled`), when it offers them. */
  const bundledFiles: BundledFiles = {
    get corpus() {
      return typeof init.bundledCorpus === 'string' ? init.bundledCorpus : undefined;
    },
    async read(path) {
      if (!init.bundledFiles) return undefined;
      const r = await connection.sendRequest<ReadBundledResult>(Methods.readBundled, { path } satisfies ReadBundledParams);
      return 'text' in r ? r.text : undefined;
    },
  };
  const fromWorkspace = (s: RawSettings, key: string) => (s[FROM_WORKSPACE] ?? []).includes(key);

  const documentSettings = async (uri: URI): Promise<DocumentSettings> => {
    const s = await rawSettings(uri);
    const settings = documentSettingsFrom(s, fromWorkspace(s, 'latexRoot'));
    // A workspace may not open its own way out (VS Code reads this application-scoped setting from
    // the user's settings only; a client that says where a value came from is held to it too).
    if (fromWorkspace(s, 'allowWritesOutsideWorkspace')) delete settings.allowWritesOutside;
    return settings;
  };

  /** The size cap in bytes (`mlsysPapers.maxFileSizeMB`, the user's or the window's). */
  const maxBytes = async (): Promise<number> => maxFileBytes((await rawSettings()).maxFileSizeMB);

  /**
   * Reads a file: the host's own access first, else the client's (`mlsysPapers/readFile`). Either
   * reads only a regular file within the size cap; anything else comes back as what it is.
   */
  const readFile = async (uri: URI): Promise<HostFile> => {
    const max = await maxBytes();
    const own = host.readFile ? await host.readFile(uri, max) : null;
    if (own !== null || !init.fileSystem) return own ?? undefined;
    try {
      const r = await connection.sendRequest<ReadFileResult>(Methods.readFile, { uri: uri.toString(), maxBytes: max });
      if ('missing' in r) return undefined;
      const stamp = fileStampOf(r.mtime, r.size, 'directory' in r || ('notFile' in r ? 'special' : false));
      if ('directory' in r) return { directory: true, stamp };
      if ('notFile' in r) return { notFile: true, stamp };
      if ('tooLarge' in r) return { tooLarge: true, size: r.size, stamp };
      // A client that does not know the cap (an older one) sent the text: it is held to it here.
      if ('text' in r && (r.size > max || r.text.length > max)) return { tooLarge: true, size: r.size, stamp };
      return 'notUtf8' in r ? { notUtf8: true, stamp } : { text: r.text, stamp };
    } catch (e) {
      log.warn(`cannot read ${uri.toString(true)} through the client: ${String(e)}`);
      return undefined;
    }
  };

  /**
   * A file's stamp on disk ({@link fileStampOf}), undefined when missing. Asked on every keystroke
   * for every declared file, so it never transfers the file: the host's stat, else the client's
   * (`mlsysPapers/stat`); only a host with a reader and no stat reads the file for it.
   */
  const fileStamp = async (uri: URI): Promise<string | undefined> => {
    if (host.stamp) {
      const own = await host.stamp(uri);
      if (own !== null) return own;
    } else if (host.readFile) {
      const own = await host.readFile(uri, await maxBytes());
      if (own !== null) return own?.stamp;
    }
    if (!init.fileSystem) return undefined;
    try {
      const r = await connection.sendRequest<StatResult>(Methods.stat, { uri: uri.toString() });
      return 'missing' in r ? undefined : fileStampOf(r.mtime, r.size, 'directory' in r || ('notFile' in r ? 'special' : false));
    } catch (e) {
      log.warn(`cannot stat ${uri.toString(true)} through the client: ${String(e)}`);
      return undefined;
    }
  };

  /** Why a file gave no text, for a problem naming it ("not a regular file", "larger than 200 MB"). */
  const unreadable = async (f: HostFile): Promise<string> => {
    if (!f) return l10n.t('no such file');
    if ('notUtf8' in f) return l10n.t('not UTF-8 text');
    if ('notFile' in f) return l10n.t('not a regular file');
    if ('tooLarge' in f) return l10n.t('larger than {0} MB', megabytes(await maxBytes()));
    return l10n.t('a folder, not a file');
  };

  const workspace: ServiceWorkspace = {
    get folders() { return folders; },
    foldsCase: host.foldsCase,
    realPath: async (uri) => (host.realPath ? host.realPath(uri) : normalizeUri(uri)),
    async readText(uri) {
      const open = documents.get(uri.toString());
      if (open) return open.getText();
      const f = await readFile(uri);
      return f && 'text' in f ? f.text.replace(/^\uFEFF/, '') : undefined;
    },
    async readDisk(uri) {
      const f = await readFile(uri);
      return f && ('text' in f ? f.text : 'notUtf8' in f ? { notUtf8: true } : undefined);
    },
    async stamp(uri) {
      const open = documents.get(uri.toString());
      if (open) return `v${open.version}`;
      const st = await fileStamp(uri);
      return st?.startsWith('d') || st?.startsWith('s') ? undefined : st;
    },
    async exists(uri) {
      return !!documents.get(uri.toString()) || (await fileStamp(uri)) !== undefined;
    },
    openDocument(uri) {
      const open = documents.get(uri.toString());
      return open && { version: open.version, text: open.getText() };
    },
    // A document's `.bib` that is a library too (or joined as one) is parsed once, by the library store.
    parsedBib: (uri, text) => libraries.parsedBib(uri.toString(), text),
  };

  const store = new CorpusStore(log, async (uri) => {
    const f = await readFile(uri);
    if (f && 'text' in f) return { text: f.text.replace(/^\uFEFF/, '') };
    return { problem: await unreadable(f) };
  });
  let corpusGlobs = false;
  let libraryGlobs = false;

  const libraries = new LibraryStore(log, {
    async read(uri) {
      const open = documents.get(uri.toString());
      if (open) return { text: open.getText() };
      const f = await readFile(uri);
      if (f && 'text' in f) return { text: f.text };
      return { problem: await unreadable(f) };
    },
    hash: host.hash,
    get cache() { return libraryCache; },
    yield: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    now: () => performance.now(),
  }, (files: LibraryFileStatus[]) => tell(() => connection.sendNotification(Methods.libraryStatusChanged, { files })), () => {
    for (const [uri, diagnostics] of libraries.diagnostics()) tell(() => connection.sendDiagnostics({ uri, diagnostics }));
    tell(() => connection.sendNotification(Methods.librariesChanged, { version: libraries.version }));
    refreshDiagnostics();
  });
  let libraryCache: LibraryCache | undefined;

  /**
   * The files a setting's path names: an absolute path or `~/…` as it is, else that path in each
   * workspace folder.
   */
  const settingUris = (path: string): URI[] => {
    // Normalised (`ws/./refs.bib`, `ws//refs.bib`, `ws/sub/../refs.bib` are `ws/refs.bib`), so that
    // a library is one file whichever way the settings spell it.
    if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return [normalizeUri(URI.file(path))];
    if (path.startsWith('~/') && host.home) return [normalizeUri(URI.file(`${host.home}${path.slice(1)}`))];
    return folders.map((f) => normalizeUri(Utils.joinPath(f, path)));
  };

  // --- Formatting (CSL) ---
  /** Bundled styles and locales never change while the server runs: each is read once. */
  const bundled = new Map<string, Promise<string | undefined>>();
  const bundledCsl = (path: string) => {
    let xml = bundled.get(path);
    if (!xml) bundled.set(path, xml = Promise.resolve(host.bundledCsl(path, bundledFiles)));
    return xml;
  };
  /** The user's own style, read again only when its file changes (hovers format on every look). */
  let userStyle: { uri: string; stamp: string; xml: string } | undefined;
  /**
   * One entry's formatted reference by key, for the style and corpus in `formattedFor` (a hover
   * or a completion item asks again on every look; citeproc-js builds an engine per call). Dropped
   * when the style or the corpus changes; the oldest go beyond {@link FORMATTED_LIMIT}.
   */
  const formattedRefs = new Map<string, string | undefined>();
  let formattedFor = '';
  const formatReferences = async (entries: readonly Entry[], scope?: URI): Promise<string[]> => {
    const s = await rawSettings(scope);
    const setting = (typeof s.citationStyle === 'string' && s.citationStyle.trim()) || DEFAULT_CITATION_STYLE;
    let xml: string | undefined;
    let styleId: string;
    if (setting in BUNDLED_STYLES) {
      xml = await bundledCsl(`styles/${BUNDLED_STYLES[setting as BundledStyle]}`);
      if (!xml) throw new Error(l10n.t('MLSys Papers: the bundled CSL style "{0}" is missing from the installation', setting));
      styleId = `bundled:${setting}`;
    } else {
      const uri = settingUris(setting)[0] ?? URI.file(setting);
      if (fromWorkspace(s, 'citationStyle') && !(await inWorkspaceReal(workspace, uri))) {
        throw new Error(l10n.t('MLSys Papers: the CSL style "{0}" named by the workspace settings (mlsysPapers.citationStyle) is outside the workspace folders, so it is not read. Name it in your user settings to use it.', setting));
      }
      const stamp = await workspace.stamp!(uri);
      if (stamp === undefined || userStyle?.uri !== uri.toString() || userStyle.stamp !== stamp) {
        const text = stamp === undefined ? undefined : await workspace.readText(uri);
        if (text === undefined) throw new Error(l10n.t('MLSys Papers: cannot read the CSL style "{0}" (setting mlsysPapers.citationStyle)', setting));
        userStyle = { uri: uri.toString(), stamp: stamp!, xml: text };
      }
      xml = userStyle.xml;
      styleId = `user:${userStyle.uri}#${userStyle.stamp}`;
    }
    // Only one entry at a time is kept: in a numeric style, a reference's number depends on the others.
    const single = entries.length === 1 ? entries[0]!.key : undefined;
    const id = `${store.version}.${libraries.version}|${styleId}`;
    if (id !== formattedFor) { formattedRefs.clear(); formattedFor = id; }
    if (single !== undefined && formattedRefs.has(single)) {
      const ref = formattedRefs.get(single);
      formattedRefs.delete(single);
      formattedRefs.set(single, ref);
      return ref === undefined ? [] : [ref];
    }
    const csl = await host.loadCsl();
    const locales = new Map<string, string | undefined>();
    for (const lang of ['en-US', 'zh-CN']) locales.set(lang, await bundledCsl(`locales/locales-${lang}.xml`));
    const refs = csl.formatBibliography(entries, xml, (lang) => locales.get(lang), 'text');
    if (single !== undefined && formattedFor === id) {
      formattedRefs.set(single, refs[0]);
      if (formattedRefs.size > FORMATTED_LIMIT) formattedRefs.delete(formattedRefs.keys().next().value!);
    }
    return refs;
  };

  /** The corpus and the libraries, as the service sees them. */
  const view = (): Required<CorpusView> => {
    const base = store.view;
    return {
      corpus: base.corpus,
      index: {
        search(query, limit = 50) {
          const fromCorpus = base.index.search(query, limit);
          const parsed = parseQuery(query);
          if (!parsed.text && !Object.keys(parsed.filters).length) return fromCorpus;
          return mergeHits(fromCorpus, libraries.search(parsed, limit), limit);
        },
      },
      entry: (key) => base.corpus.entry(key) ?? libraries.entry(key),
      toCite: (key) => {
        const c = base.corpus.entry(key);
        return c ? libraries.twin(c.key) ?? c : libraries.entry(key);
      },
      prepare: (entries) => libraries.prepare(entries),
      isLibrary: (uri) => isLibraryFile(URI.parse(uri)),
      isLibraryReady: (uri) => libraries.isReady(uri),
      twinOf: (key) => libraries.twinOfCorpus(key),
    };
  };

  // --- The LaTeX project: roots of files that name none, from the workspace's \input and \include ---
  const latex = new LatexProjectIndexer({
    list: async () => {
      const own = host.listFiles ? await host.listFiles(folders, ['.tex'], LATEX_FILE_LIMIT + 1) : null;
      if (own) return own;
      if (!init.fileSystem) return [];
      const found = await connection.sendRequest<string[]>(Methods.findFiles, { pattern: '**/*.tex' })
        .catch((e: unknown) => { log.warn(`findFiles **/*.tex: ${String(e)}`); return []; });
      return found.map((u) => URI.parse(u)).filter((u) => inWorkspace(workspace, u));
    },
    read: (uri) => workspace.readText(uri),
    yield: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    now: () => performance.now(),
    progress: async (title) => {
      // A client that cannot show it (or refuses `window/workDoneProgress/create`) gets none; the indexing goes on.
      const p = await connection.window.createWorkDoneProgress().catch((e: unknown) => { log.warn(`no progress report: ${String(e)}`); return undefined; });
      p?.begin(title, 0, undefined, false);
      return p;
    },
    changed: () => { if (!closed) { refreshDiagnostics(); reloadLibrariesSoon(); } },
    log,
  });

  const service = createCitationService({
    project: latex.project,
    workspace,
    corpus: view,
    config: documentSettings,
    logger: log,
    formatReferences: (entries, scope) => formatReferences(entries, scope),
    isRead: (key) => read.has(key.toLowerCase()),
    clientUi: () => !!init.clientCommands,
  });

  // --- Keeping answers fresh ---
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  const refreshDiagnostics = () => {
    if (canPushDiagnostics) { pushAll(); return; }
    if (!canRefresh) return;
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => tell(() => connection.sendRequest(DiagnosticRefreshRequest.type).catch((e: unknown) => log.warn(`diagnostic refresh: ${String(e)}`))), 200);
  };

  const reloadCorpus = async () => {
    const s = await rawSettings();
    const patterns = Array.isArray(s.corpusFiles) ? s.corpusFiles.filter((p): p is string => typeof p === 'string' && !!p.trim()) : [];
    corpusGlobs = patterns.some((p) => /[*?{[]/.test(p));
    const uris = await resolveFiles('corpusFiles', patterns, fromWorkspace(s, 'corpusFiles'));
    watched.corpus = uris;
    watchOutside();
    const changed = await store.loadUserFiles(uris);
    for (const [uri, diagnostics] of store.fileDiagnostics) connection.sendDiagnostics({ uri, diagnostics });
    if (changed || !corpusSet) { corpusSet = true; libraries.setCorpus(store.view.corpus); }
    if (changed) {
      void connection.sendNotification(Methods.corpusChanged, { version: store.version });
      refreshDiagnostics();
    }
  };
  let corpusSet = false;
  const reloadSoon = () => {
    void reloadCorpus().catch((e: unknown) => log.error(e instanceof Error ? e : String(e)));
    reloadLibrariesSoon();
  };

  // --- Libraries ---
  /** Files named by `mlsysPapers.libraries`, and the bibliographies of open documents (`includeDocumentBibliography`). */
  const reloadLibraries = async () => {
    const s = await rawSettings();
    libraries.preferCorpusKeys = s.preferCorpusKeys === true;
    const patterns = Array.isArray(s.libraries) ? s.libraries.filter((p): p is string => typeof p === 'string' && !!p.trim()) : [];
    libraryGlobs = patterns.some((p) => /[*?{[]/.test(p));
    const wanted = new Map<string, { uri: URI; fromDocument: boolean }>();
    for (const u of await resolveFiles('libraries', patterns, fromWorkspace(s, 'libraries'))) wanted.set(u.toString(), { uri: u, fromDocument: false });
    configuredLibraries = [...wanted.values()].map((w) => w.uri);
    if (s.includeDocumentBibliography !== false) {
      for (const doc of documents.all()) {
        for (const u of await service.bibliographyFiles(doc).catch((e: unknown) => { log.warn(`bibliography of ${doc.uri}: ${String(e)}`); return []; })) {
          if (!wanted.has(u.toString())) wanted.set(u.toString(), { uri: u, fromDocument: true });
        }
      }
    }
    libraries.setFiles(wanted);
    watched.libraries = [...wanted.values()].map((w) => w.uri);
    watchOutside();
  };

  /** The files `mlsysPapers.libraries` named at the last reload (globs resolved). */
  let configuredLibraries: URI[] = [];
  /**
   * Whether a file is one of the libraries the settings name, which are never written: compared by
   * real path ({@link sameFile}), so that `ws/sub/../refs.bib`, `ws/./refs.bib`, `ws//refs.bib`
   * and a symlinked folder all name the one library. The settings' plain paths are read afresh (a
   * citation right after a change of the setting, before the libraries reload, is held too);
   * globs as last resolved.
   */
  const isLibraryFile = async (uri: URI): Promise<boolean> => {
    if (libraries.isConfigured(uri.toString())) return true;
    const s = await rawSettings();
    const plain = Array.isArray(s.libraries) ? s.libraries.filter((p): p is string => typeof p === 'string' && !!p.trim() && !/[*?{[]/.test(p)) : [];
    for (const lib of [...configuredLibraries, ...plain.flatMap(settingUris)]) {
      if (await sameFile(workspace, lib, uri)) return true;
    }
    return false;
  };

  // --- Files outside the workspace ---
  // The workspace watcher (`**/*.{bib,json,yaml,yml,tex}`, registered once initialized) sees only the
  // workspace folders. A library or corpus file elsewhere (a Better BibTeX auto-export in ~/Zotero,
  // a bibliography a document names by its absolute path) gets a watcher of its own: a relative
  // pattern on its folder, registered again whenever the set of such files changes.
  const watched: { corpus: URI[]; libraries: URI[] } = { corpus: [], libraries: [] };
  let outsideKey = '';
  let outsideRegistration: Promise<Disposable | undefined> = Promise.resolve(undefined);
  const watchOutside = () => {
    if (!canWatch) return;
    const outside = new Map<string, URI>();
    for (const u of [...watched.corpus, ...watched.libraries]) if (!inWorkspace(workspace, u)) outside.set(u.toString(), u);
    const key = [...outside.keys()].sort().join('\n');
    if (key === outsideKey) return;
    outsideKey = key;
    if (outside.size && !canWatchOutside) {
      log.warn(`this client cannot watch files outside the workspace (no relativePatternSupport); ${[...outside.values()].map((u) => u.toString(true)).join(', ')} will be read again only when the settings change or the window reloads`);
      return;
    }
    const watchers: FileSystemWatcher[] = [...outside.values()].map((u) => ({ globPattern: { baseUri: Utils.dirname(u).toString(), pattern: Utils.basename(u).replace(/[*?[{}]/g, '[$&]') } }));
    outsideRegistration = outsideRegistration.then(async (previous) => {
      previous?.dispose();
      if (!watchers.length || closed) return undefined;
      return connection.client.register(DidChangeWatchedFilesNotification.type, { watchers })
        .catch((e: unknown) => { log.warn(`cannot watch files outside the workspace: ${String(e)}`); return undefined; });
    });
  };
  let librariesTimer: ReturnType<typeof setTimeout> | undefined;
  const reloadLibrariesSoon = () => {
    clearTimeout(librariesTimer);
    librariesTimer = setTimeout(() => { if (!closed) void reloadLibraries().catch((e: unknown) => log.error(e instanceof Error ? e : String(e))); }, 200);
  };
  /** After a pause in typing: one timer per document and purpose, each change restarting it. */
  const libraryEditPause = timerPerUri();

  /** The files a setting's paths and globs name; from a workspace's settings, only those inside its folders. */
  const resolveFiles = async (setting: 'corpusFiles' | 'libraries', patterns: readonly string[], restricted: boolean): Promise<URI[]> => {
    const out = new Map<string, URI>();
    for (const p of patterns) {
      if (/[*?{[]/.test(p) && !/^(\/|~\/|[A-Za-z]:[\\/])/.test(p)) {
        if (!init.fileSystem) { log.warn(`${setting}: the glob "${p}" needs a client that can find files; name the files instead`); continue; }
        const found = await connection.sendRequest<string[]>(Methods.findFiles, { pattern: p }).catch((e: unknown) => { log.warn(`findFiles ${p}: ${String(e)}`); return []; });
        for (const u of found) out.set(u, URI.parse(u));
      } else for (const u of settingUris(p)) out.set(u.toString(), u);
    }
    const all = [...out.values()];
    if (!restricted) return all;
    const inside = new Set<URI>();
    for (const u of all) if (await inWorkspaceReal(workspace, u)) inside.add(u);
    const outside = all.filter((u) => !inside.has(u));
    if (outside.length) {
      log.warn(`mlsysPapers.${setting} in the workspace settings names ${outside.map((u) => u.toString(true)).join(', ')}, outside the workspace folders; not read`);
      const names = outside.map((u) => u.scheme === 'file' ? u.fsPath : u.toString(true)).join(', ');
      void connection.window.showWarningMessage(setting === 'libraries'
        ? l10n.t('MLSys Papers: the workspace settings name libraries outside the workspace ({0}); they were not read. Name them in your user settings to use them.', names)
        : l10n.t('MLSys Papers: the workspace settings name corpus files outside the workspace ({0}); they were not read. Name them in your user settings to use them.', names));
    }
    return all.filter((u) => inside.has(u));
  };

  connection.onInitialize(gate.answer('initialize', Params.initialize, async (params: InitializeParams): Promise<InitializeResult> => {
    gate.state = 'initializing';
    try {
      const result = await initialize(params);
      gate.state = 'running';
      return result;
    } catch (e) {
      gate.state = 'starting';
      throw e;
    }
  }, { lifecycle: 'starting' }));
  connection.onShutdown(gate.answer('shutdown', undefined, () => { gate.state = 'shutdown'; }));

  const initialize = async (params: InitializeParams): Promise<InitializeResult> => {
    init = (params.initializationOptions && typeof params.initializationOptions === 'object' ? params.initializationOptions : {}) as InitializationOptions;
    const lang = init.l10n && typeof init.l10n === 'object' ? init.l10n : {};
    configureL10n({
      bundle: lang.bundle && typeof lang.bundle === 'object' ? lang.bundle : undefined,
      topicLabels: TOPIC_LABELS.includes(lang.topicLabels as TopicLabels) ? lang.topicLabels : undefined,
    });
    folders = (params.workspaceFolders ?? []).map((f) => URI.parse(f.uri));
    if (!folders.length && params.rootUri) folders = [URI.parse(params.rootUri)];
    canPullConfig = !!params.capabilities.workspace?.configuration;
    canRefresh = !!params.capabilities.workspace?.diagnostics?.refreshSupport;
    canWatch = !!params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    canWatchOutside = canWatch && !!params.capabilities.workspace?.didChangeWatchedFiles?.relativePatternSupport;
    canFolders = !!params.capabilities.workspace?.workspaceFolders;
    // Clients without pull diagnostics (Neovim before 0.10, Eglot, Helix) get them pushed.
    canPushDiagnostics = !params.capabilities.textDocument?.diagnostic;
    await store.init(await host.bundledCorpus(bundledFiles));
    libraryCache = host.libraryCache?.(typeof init.cacheDir === 'string' ? init.cacheDir : undefined, (m) => log.warn(m));
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['{', ',', '@'], resolveProvider: true },
        hoverProvider: true,
        definitionProvider: true,
        diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        ...(init.clientCommands ? {} : { executeCommandProvider: { commands: [ServiceCommands.addToBibliography] } }),
        ...(canFolders ? { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } } : {}),
      },
      serverInfo: { name: 'mlsys-papers', version: '0.1.0' },
    };
  };

  connection.onInitialized(gate.heed('initialized', undefined, () => {
    if (canWatch) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{bib,json,yaml,yml,tex}' }] })
        .catch((e: unknown) => log.warn(`cannot watch files: ${String(e)}`));
    }
    if (canFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(gate.heed('workspace/didChangeWorkspaceFolders', Params.workspaceFolders, (e: WorkspaceFoldersChangeEvent) => {
        const gone = new Set(e.removed.map((f) => f.uri));
        folders = [...folders.filter((f) => !gone.has(f.toString())), ...e.added.map((f) => URI.parse(f.uri))];
        service.clearCache();
        reloadSoon();
        void latex.index();
      }));
    }
    void latex.index();
    // The corpus, then its search index, are ready before the first keystroke asks for them.
    void reloadCorpus().then(() => store.view.index, (e: unknown) => log.error(e instanceof Error ? e : String(e)));
    // The libraries load after (their twins are found against the corpus); corpus answers do not wait for them.
    reloadLibrariesSoon();
  }));

  connection.onDidChangeConfiguration(gate.heed('workspace/didChangeConfiguration', Params.didChangeConfiguration, (p: DidChangeConfigurationParams) => {
    const section = (p.settings as { mlsysPapers?: unknown } | null)?.mlsysPapers;
    if (section && typeof section === 'object') pushed = section as RawSettings;
    settingsCache.clear();
    reloadSoon();
    refreshDiagnostics();
  }));

  connection.onDidChangeWatchedFiles(gate.heed('workspace/didChangeWatchedFiles', Params.didChangeWatchedFiles, ({ changes }: DidChangeWatchedFilesParams) => {
    if (changes.some((c) => isLatexFile(c.uri))) void latex.filesChanged(changes).catch((e: unknown) => log.error(e instanceof Error ? e : String(e)));
    let bib = false;
    let corpus = false;
    let libraryCreated = false;
    for (const c of changes) {
      if (libraries.has(c.uri)) libraries.fileChanged(c.uri);
      else if (c.type === FileChangeType.Created && libraryGlobs && /\.(bib|json|ya?ml)$/i.test(c.uri)) libraryCreated = true;
      if (store.isUserFile(c.uri)) corpus = true;
      else if (bibFormatOf(URI.parse(c.uri).path)) bib = true;
      if (c.type === FileChangeType.Created && corpusGlobs && /\.ya?ml$/i.test(c.uri)) corpus = true;
    }
    if (corpus) reloadSoon();
    else if (libraryCreated) reloadLibrariesSoon();
    if (bib) refreshDiagnostics();
  }));

  const pushPause = timerPerUri();
  const pushDiagnostics = (uri: string) => {
    pushPause.start(uri, 300, () => {
      const doc = documents.get(uri);
      if (!doc) return;
      service.diagnostics(doc).then((diagnostics) => connection.sendDiagnostics({ uri, version: doc.version, diagnostics }),
        (e: unknown) => log.error(e instanceof Error ? e : String(e)));
    });
  };
  const pushAll = () => { for (const d of documents.all()) pushDiagnostics(d.uri); };

  // A pulling client asks for a citing document's diagnostics after each change. VS Code's client
  // (vscode-languageclient 9) can lose track of a document when its tab closes and reopens while a
  // pull is in flight (the answer is dropped as out of date, and a document it does not track is
  // never pulled on change): its problems then stay empty however the user types. So a change that
  // no pull follows within a while gets a `workspace/diagnostic/refresh`, which makes the client
  // pull every visible document again, and track this one anew.
  const pulledVersion = new Map<string, number>();
  const pullWatch = timerPerUri();
  const watchPull = (document: TextDocument) => {
    if (canPushDiagnostics || !canRefresh || !isCitingLanguage(document.languageId)) return;
    const uri = document.uri;
    pullWatch.start(uri, 2000, () => {
      const doc = documents.get(uri);
      if (!doc || (pulledVersion.get(uri) ?? -1) >= doc.version) return;
      log.info(`diagnostics: no pull for ${uri} (version ${doc.version}) followed its change; asking the client to refresh`);
      refreshDiagnostics();
    });
  };

  documents.onDidChangeContent(({ document }) => {
    const uri = document.uri;
    if (LATEX_LANGUAGES.has(document.languageId)) latex.documentChanged(uri, document.getText());
    // An edited library is read again where it changed, after a pause in typing.
    if (libraries.has(uri)) {
      libraryEditPause.start(uri, 300, () => { const d = documents.get(uri); if (d) libraries.documentChanged(uri, d.getText()); });
    }
    // An edited bibliography changes the answers for the documents that cite from it.
    if (bibFormatOf(URI.parse(uri).path)) refreshDiagnostics();
    else if (canPushDiagnostics) pushDiagnostics(uri);
    else watchPull(document);
  });
  // Open documents' bibliographies join the libraries (includeDocumentBibliography).
  documents.onDidOpen(() => reloadLibrariesSoon());
  documents.onDidClose(({ document }) => {
    if (LATEX_LANGUAGES.has(document.languageId)) void latex.documentClosed(document.uri).catch((e: unknown) => log.error(e instanceof Error ? e : String(e)));
    reloadLibrariesSoon();
    settingsCache.delete(document.uri);
    pulledVersion.delete(document.uri);
    for (const timers of [libraryEditPause, pushPause, pullWatch]) timers.cancel(document.uri);
    if (canPushDiagnostics) void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  /**
   * An open document that a client's own request names, undefined when it has not opened within
   * {@link OPEN_WAIT_MS}. The request may arrive before the document's `didOpen`: VS Code's client
   * (`vscode-languageclient` 9) sends a request made while it starts ahead of the `didOpen`s of the
   * documents already open (both wait for the start, the request first), so a command that starts
   * the extension would find no document. So it waits for the `didOpen` a while.
   */
  const openDocument = async (uri: string): Promise<TextDocument | undefined> => {
    const open = documents.get(uri);
    if (open) return open;
    const doc = await new Promise<TextDocument | undefined>((resolve) => {
      const timer = setTimeout(() => { listener.dispose(); resolve(undefined); }, OPEN_WAIT_MS);
      const listener = documents.onDidOpen(({ document }) => {
        if (document.uri !== uri) return;
        clearTimeout(timer);
        listener.dispose();
        resolve(document);
      });
    });
    if (!doc) log.warn(`${uri} was named by a request but did not open within ${OPEN_WAIT_MS} ms`);
    return doc;
  };
  /** {@link openDocument}, for a request that cannot be answered without it. @throws Error naming the URI */
  const mustBeOpen = async (uri: string): Promise<TextDocument> => {
    const doc = await openDocument(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc;
  };

  connection.onCompletion(gate.answer('textDocument/completion', Params.positional, (p: CompletionParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.complete(doc, p.position, token) : undefined;
  }));
  connection.onCompletionResolve(gate.answer('completionItem/resolve', Params.completionItem, (item: CompletionItem, token) => service.resolveCompletion(item, token)));
  connection.onHover(gate.answer('textDocument/hover', Params.positional, (p: HoverParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.hover(doc, p.position, token) : undefined;
  }));
  connection.onDefinition(gate.answer('textDocument/definition', Params.positional, (p: DefinitionParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.definition(doc, p.position, token) : undefined;
  }));
  connection.languages.diagnostics.on(gate.answer('textDocument/diagnostic', Params.textDocument, async (p: DocumentDiagnosticParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc) pulledVersion.set(doc.uri, doc.version);
    const items = doc ? await service.diagnostics(doc, token) : [];
    return { kind: DocumentDiagnosticReportKind.Full, items } satisfies DocumentDiagnosticReport;
  }));
  connection.onCodeAction(gate.answer('textDocument/codeAction', Params.codeAction, (p: CodeActionParams) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.codeActions(doc, p.range, p.context.diagnostics) : [];
  }));
  connection.onExecuteCommand(gate.answer('workspace/executeCommand', Params.executeCommand, async (p: ExecuteCommandParams) => {
    // For editors other than VS Code: add the entry to the bibliography through `workspace/applyEdit`.
    if (p.command !== ServiceCommands.addToBibliography) return;
    const [uri, key] = p.arguments ?? [];
    if (typeof uri !== 'string' || typeof key !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, `${p.command} takes a document URI and a citation key`);
    const doc = documents.get(uri);
    if (!doc) return;
    const { bibliography: b } = await service.planBibliography(doc, [key]);
    const edit = await genericEdit(b);
    if (typeof edit === 'string') void connection.window.showWarningMessage(`MLSys Papers: ${edit}`);
    else if (edit) await connection.workspace.applyEdit({ label: l10n.t('Add {0} to the bibliography', key), edit });
  }));

  /** A bibliography change as a plain `WorkspaceEdit`, for clients without our own UI; a string says why not. */
  const genericEdit = async (b: Awaited<ReturnType<typeof service.planBibliography>>['bibliography']): Promise<WorkspaceEdit | string | undefined> => {
    switch (b.kind) {
      case 'none': return undefined;
      case 'refuse': return `${URI.parse(b.uri).path} ${b.message}.`;
      case 'declare': return l10n.t('the document declares no bibliography; declare one (\\bibliography{…} or bibliography: in the front matter) first.');
      case 'create': return { documentChanges: [{ kind: 'create', uri: b.uri, options: { ignoreIfExists: true } }, { textDocument: { uri: b.uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: b.text }] }] };
      case 'insert': {
        const open = documents.get(b.uri);
        if (open && b.document) {
          const at = open.positionAt(b.document.offset);
          return { documentChanges: [{ textDocument: { uri: b.uri, version: b.document.version }, edits: [{ range: { start: at, end: at }, newText: b.document.text }] }] };
        }
        // A closed file: the client opens it as it is on disk; positions count lines the way LSP does.
        if (!b.disk?.editorSafe) return l10n.t('{0} has mixed line endings or is not UTF-8; add the entry in an editor that keeps them, or run mlsys-papers sync.', URI.parse(b.uri).path);
        const raw = await workspace.readDisk!(URI.parse(b.uri));
        if (typeof raw !== 'string') return l10n.t('{0} cannot be read.', URI.parse(b.uri).path);
        const at = TextDocument.create(b.uri, 'bibtex', 0, raw).positionAt(b.disk.offset);
        return { changes: { [b.uri]: [{ range: { start: at, end: at }, newText: b.disk.text }] } };
      }
    }
  };

  // --- Custom requests ---
  connection.onRequest(Methods.corpus, gate.answer('mlsysPapers/corpus', undefined, (): CorpusResult => ({ version: store.version, data: store.data })));
  connection.onRequest(Methods.search, gate.answer(Methods.search, Params.search, (p: SearchParams): SearchResult => {
    const { invalid } = parseQuery(p.query);
    const v = view();
    const hits = p.query.trim() ? v.index.search(p.query, p.limit ?? 60).map((h) => h.entry) : v.corpus.entries.slice(0, p.limit ?? 60);
    const twins: SearchResult['twins'] = {};
    for (const e of hits) {
      const t = !e.library ? libraries.twinOfCorpus(e.key) : undefined;
      if (t) twins[e.key] = { key: t.key, library: t.library!.name };
    }
    return { keys: hits.map((e) => e.key), invalid, entries: hits.filter((e) => e.library), twins };
  }));
  connection.onRequest(Methods.entry, gate.answer(Methods.entry, Params.entry, (p: EntryParams): EntryResult => {
    const e = view().entry(p.key);
    if (!e) return {};
    return { entry: e, fields: e.library ? libraries.fields(e) : undefined, twin: e.library ? undefined : libraries.twinOfCorpus(e.key) };
  }));
  connection.onRequest(Methods.libraryStatus, gate.answer(Methods.libraryStatus, undefined, () => ({ files: libraries.status() })));
  connection.onRequest(Methods.libraryGroups, gate.answer(Methods.libraryGroups, Params.libraryGroups, (p: LibraryGroupsParams): LibraryGroupsResult => ({ groups: libraries.groups(p.uri) ?? [] })));
  connection.onRequest(Methods.libraryEntries, gate.answer(Methods.libraryEntries, Params.libraryEntries, (p: LibraryEntriesParams): LibraryEntriesResult => {
    const r = libraries.groupEntries(p.uri, p.group);
    return { entries: r?.entries ?? [], total: r?.total ?? 0, limit: GROUP_LIMIT };
  }));
  connection.onRequest(Methods.entryDocument, gate.answer(Methods.entryDocument, Params.entryDocument, (p: EntryDocumentParams) => service.entryDocument(p.uri)));
  connection.onRequest(Methods.planCitation, gate.answer(Methods.planCitation, Params.planCitation, async (p: PlanCitationParams) => service.planCitation(await mustBeOpen(p.uri), p.position, p.keys)));
  connection.onRequest(Methods.planBibliography, gate.answer(Methods.planBibliography, Params.planBibliography, async (p: PlanBibliographyParams) => service.planBibliography(await mustBeOpen(p.uri), p.keys)));
  connection.onRequest(Methods.planDeclaration, gate.answer(Methods.planDeclaration, Params.planDeclaration, async (p: PlanDeclarationParams): Promise<PlanDeclarationResult> =>
    service.planDeclaration(await mustBeOpen(p.uri), p.file) ?? null));
  connection.onRequest(Methods.citedKeys, gate.answer(Methods.citedKeys, Params.citedKeys, async (p: CitedKeysParams): Promise<string[]> => {
    const doc = await openDocument(p.uri);
    return doc ? service.citedKeys(doc) : [];
  }));
  connection.onRequest(Methods.planInsertion, gate.answer(Methods.planInsertion, Params.planInsertion, (p: PlanInsertionParams) => service.planInsertion(URI.parse(p.uri), p.keys)));
  connection.onRequest(Methods.format, gate.answer(Methods.format, Params.format, async (p: FormatParams): Promise<FormatResult> => {
    const v = view();
    const entries = p.keys.map((k) => v.entry(k)).filter((e): e is Entry => !!e);
    try {
      return { references: await formatReferences(entries, p.scope ? URI.parse(p.scope) : undefined) };
    } catch (e) {
      log.warn(e instanceof Error ? e.message : String(e));
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }));
  connection.onNotification(Methods.readState, gate.heed(Methods.readState, Params.readState, (p: ReadStateParams) => {
    read.clear();
    for (const k of p.keys) read.add(k.toLowerCase());
  }));

  documents.listen(gate.documentsConnection(connection));
  connection.listen();
}
