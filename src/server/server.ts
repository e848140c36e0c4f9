/**
 * The MLSys Papers language server: the citation language service (`core/service/`) over LSP,
 * whatever the transport (a Node process over IPC or stdio, or a Web Worker) and whatever the
 * editor. The host supplies file access and the bundled data (`host.ts`); this file imports no
 * `node:` and only wires the modules together:
 * - `serverContext.ts`: the connection, log, request gate, clock, client capabilities, folders;
 * - `serverSettings.ts`: the `mlsysPapers.*` settings, pulled or pushed;
 * - `serverWorkspace.ts`: open documents, files through the host or the client, the open-document wait;
 * - `workspaceChanges.ts`: every document, file, folder and settings event, as one change the modules subscribe to;
 * - `sources.ts`: the corpus and the libraries (`corpusStore.ts`, `libraryStore.ts`) as one view;
 * - `references.ts`: formatted references (CSL);
 * - `diagnostics.ts`: pull, push and refresh;
 * - `lensRefresh.ts`: an open bibliography's code lenses asked for again after its readers change;
 * - `watching.ts`: the client's file watchers, in and outside the workspace;
 * - `handlers.ts`, `customRequests.ts`: the standard and the `mlsysPapers/*` requests;
 * - `citationPreview.ts`: citations rendered for the Markdown preview;
 * - `literatureNotes.ts`: where an entry's note is, and a new note's text.
 */
import { CodeActionKind, TextDocumentSyncKind, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { configureL10n } from '../core/text/l10n.js';
import { LATEX_FILE_LIMIT } from '../core/latex/indexing.js';
import { createCitationService } from '../core/service/service.js';
import { ServiceCommands } from '../core/service/types.js';
import { ServerContext } from './serverContext.js';
import { registerCitationPreview } from './citationPreview.js';
import { registerCustomRequests } from './customRequests.js';
import { registerTopicRequests } from './topicRequests.js';
import { registerLiteratureNotes } from './literatureNotes.js';
import { Diagnostics } from './diagnostics.js';
import { registerLanguageFeatures } from './handlers.js';
import type { ServerHost } from './host.js';
import { LatexProjectIndexer } from './latexIndexer.js';
import { ServerScopeHost } from './citationScopeHost.js';
import { References } from './references.js';
import { Params } from './requests.js';
import { ServerSettings } from './serverSettings.js';
import { Sources } from './sources.js';
import { Watching } from './watching.js';
import { ServerWorkspace } from './serverWorkspace.js';
import { LensRefresh } from './lensRefresh.js';
import { WorkspaceChanges } from './workspaceChanges.js';

export { LENS_REFRESH_MS } from './lensRefresh.js';

export { fileStampOf, REAL_CLOCK, type BundledFiles, type Clock, type HostFile, type HostFileSystem, type ServerHost } from './host.js';

/**
 * Serves the citation language service on a connection until it closes.
 *
 * @param connection - from `vscode-languageserver/node` or `/browser`
 * @param host - file access and bundled data (and, for tests, the clock)
 */
export function startServer(connection: Connection, host: ServerHost): void {
  const ctx = new ServerContext(connection, host);
  const { gate, log } = ctx;
  const settings = new ServerSettings(ctx);
  const workspace = new ServerWorkspace(ctx, settings);
  const { documents } = workspace;
  // Called once the client watches them, after `sources` exists.
  const watching = new Watching(ctx, workspace.service, (uris) => { for (const u of uris) void sources.libraries.recheck(u.toString()).catch(ctx.fail); });
  const sources: Sources = new Sources(ctx, settings, workspace, watching, {
    changed: () => diagnostics.refresh(),
    problems: (owner, byUri) => diagnostics.fileProblemsChanged(owner, byUri),
    documentBibliographies: (doc) => service.bibliographyFiles(doc),
  });
  const references = new References(ctx, settings, workspace, () => sources.version());
  /** Keys (lower case) the user marked read (`mlsysPapers/readState`). */
  const read = new Set<string>();

  // The LaTeX project: roots of files that name none, from the workspace's \input and \include.
  const latex = new LatexProjectIndexer({
    list: () => ctx.files.listFiles(ctx.folders, ['.tex'], LATEX_FILE_LIMIT + 1),
    read: (uri) => workspace.service.readText(uri),
    yield: ctx.yield,
    now: () => ctx.clock.now(),
    clock: ctx.clock,
    progress: async (title) => {
      // A client that cannot show it (or refuses `window/workDoneProgress/create`) gets none; the indexing goes on.
      const p = await connection.window.createWorkDoneProgress().catch((e: unknown) => { log.warn(`no progress report: ${String(e)}`); return undefined; });
      p?.begin(title, 0, undefined, false);
      return p;
    },
    changed: (files) => { if (!ctx.closed) { diagnostics.projectChanged(files); sources.reloadLibrariesSoon(); } },
    log,
    fail: ctx.fail,
  });

  const scope = new ServerScopeHost(ctx, workspace, latex);
  const service = createCitationService({
    project: latex.project,
    scope,
    workspace: workspace.service,
    // One cache with the library store: a `.bib` that is a library too is parsed once, by the store.
    cache: sources.bibCache,
    corpus: () => sources.view(),
    config: (uri) => settings.scope(uri),
    logger: log,
    formatReferences: (entries, scope) => references.format(entries, scope),
    isRead: (key) => read.has(key.toLowerCase()),
    clientUi: () => !!ctx.init.clientCommands,
  });
  // A file a store holds (a corpus file, a library) is read again by it, and its change refreshes once read.
  // An edit of an open library is read by the library store, whose change refreshes once read.
  const diagnostics = new Diagnostics(ctx, documents, service, (uri) => sources.corpus.isUserFile(uri) || sources.libraries.has(uri), (uri) => sources.libraries.followsEdits(uri));

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
    ctx.initialize(params);
    const { init } = ctx;
    const lang = init.l10n && typeof init.l10n === 'object' ? init.l10n : {};
    configureL10n(lang.bundle && typeof lang.bundle === 'object' ? lang.bundle : undefined);
    await sources.corpus.init(await host.bundledCorpus(workspace.bundledFiles));
    sources.libraryCache = host.libraryCache?.(typeof init.cacheDir === 'string' ? init.cacheDir : undefined, (m) => log.warn(m));
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['{', ',', '@'], resolveProvider: true },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        codeLensProvider: { resolveProvider: false },
        diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Empty] },
        ...(init.clientCommands ? {} : { executeCommandProvider: { commands: [ServiceCommands.addToBibliography] } }),
        ...(ctx.can.folders ? { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } } : {}),
      },
      serverInfo: { name: 'mlsys-papers', version: '0.1.0' },
    };
  };

  // Every document and file event reaches the modules through one owner, as one change, in this order.
  const changes = new WorkspaceChanges(ctx);
  changes.subscribe(
    { workspaceChanged: (c) => { if (c.folders) service.clearCache(); } },
    settings, scope, latex, sources, diagnostics, new LensRefresh(ctx, () => diagnostics.bibliographyOpen()),
  );
  changes.listenToWorkspace(connection);
  changes.listenToDocuments(documents);

  connection.onInitialized(gate.heed('initialized', undefined, () => {
    watching.watchWorkspace();
    if (ctx.can.folders) changes.listenToFolders(connection);
    void latex.index();
    // The corpus, then its search index, are ready before the first keystroke asks for them.
    void sources.reloadCorpus().then(() => sources.corpus.view.index, ctx.fail);
    // The libraries load after (each library entry that is a corpus entry's work is found); corpus answers do not wait for them.
    sources.reloadLibrariesSoon();
  }));

  registerLanguageFeatures(ctx, workspace, service);
  diagnostics.register();
  registerCustomRequests(ctx, { workspace, sources, references, service, read });
  registerTopicRequests(ctx, { sources, read });
  registerCitationPreview(ctx, service, references);
  registerLiteratureNotes(ctx, settings, workspace, sources);

  documents.listen(gate.documentsConnection(connection));
  connection.listen();
}
