/**
 * What every module of the language server shares: the connection and its log, the request gate,
 * the host and its clock, the client's capabilities and `initializationOptions`, and the workspace
 * folders. One object, made once by `startServer`, filled in by `initialize`.
 */
import type { Connection, InitializeParams } from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import type { Logger } from '../core/config/logger.js';
import { clientFileSystem } from './clientFileSystem.js';
import { REAL_CLOCK, type Clock, type HostFileSystem, type ServerHost } from './host.js';
import type { InitializationOptions } from './protocol.js';
import { RequestGate } from './requests.js';

/** What the client said it can do in `initialize` (LSP 3.17 `ClientCapabilities`), as the server uses it. */
export interface ClientAbilities {
  /** `workspace/configuration`: settings are pulled per scope. */
  pullConfig: boolean;
  /** `workspace/diagnostic/refresh`. */
  refresh: boolean;
  /** `workspace/codeLens/refresh`. */
  lensRefresh: boolean;
  /** `workspace/didChangeWatchedFiles` with dynamic registration. */
  watch: boolean;
  /** The client watches `{ baseUri, pattern }` globs (`relativePatternSupport`): files outside the workspace folders. */
  watchOutside: boolean;
  /** `workspace/didChangeWorkspaceFolders`. */
  folders: boolean;
  /** No pull diagnostics (Neovim before 0.10, Eglot, Helix): they are pushed. */
  pushDiagnostics: boolean;
  /** Workspace edits with versioned `documentChanges` (`workspace.workspaceEdit.documentChanges`). */
  documentChanges: boolean;
  /** Change annotations the user is asked to confirm (`workspace.workspaceEdit.changeAnnotationSupport`). */
  changeAnnotations: boolean;
}

/** Timers keyed by document URI, at most one pending per URI: starting one replaces the pending one. */
export interface TimerPerUri {
  start(uri: string, ms: number, run: () => void): void;
  cancel(uri: string): void;
}

/** The state the server's modules share (see the file comment). */
export class ServerContext {
  /** Set once the connection is gone: work still under way (a library load, a timer) then stops telling the client. */
  closed = false;
  init: InitializationOptions = {};
  /** The client's display language (`InitializeParams.locale`: `en`, `zh-cn`, …); undefined when it did not say. */
  locale: string | undefined;
  folders: URI[] = [];
  readonly can: ClientAbilities = { pullConfig: false, refresh: false, lensRefresh: false, watch: false, watchOutside: false, folders: false, pushDiagnostics: false, documentChanges: false, changeAnnotations: false };
  readonly log: Logger;
  /** Every handler is registered through it: answered always, in LSP's lifecycle, parameters checked (`requests.ts`). */
  readonly gate: RequestGate;
  readonly clock: Clock;
  /**
   * The file system every file is read through, chosen at `initialize` ({@link initialize}): the
   * host's own when it has one and every workspace folder is a `file:` URI, else the client's.
   */
  files: HostFileSystem;

  constructor(readonly connection: Connection, readonly host: ServerHost) {
    this.clock = host.clock ?? REAL_CLOCK;
    this.log = {
      info: (m) => this.tell(() => connection.console.info(m)),
      warn: (m) => this.tell(() => connection.console.warn(m)),
      error: (m) => this.tell(() => connection.console.error(m instanceof Error ? `${m.message}\n${m.stack ?? ''}` : m)),
    };
    this.gate = new RequestGate(this.log);
    this.files = clientFileSystem(connection, this.log, false, () => this.folders);
  }

  /** Runs `send` unless the connection is gone (once disposed, sending throws, at once or in its promise). */
  tell(send: () => unknown): void {
    if (this.closed) return;
    void (async () => {
      try {
        await send();
      } catch {
        // ignored: sending fails only when the connection is gone (the client went away); nothing can be told any more.
        this.closed = true;
      }
    })();
  }

  /** Logs a failure of work nobody awaits (a reload, a re-index). */
  readonly fail = (e: unknown): void => { this.log.error(e instanceof Error ? e : String(e)); };

  /** Lets other messages be handled: resolves on the clock's next turn. */
  readonly yield = (): Promise<void> => new Promise<void>((resolve) => { this.clock.setTimeout(resolve, 0); });

  /** Reads the client's `initialize`: its options, folders and capabilities, and chooses the file system ({@link files}). */
  initialize(params: InitializeParams): void {
    this.init = (params.initializationOptions && typeof params.initializationOptions === 'object' ? params.initializationOptions : {}) as InitializationOptions;
    this.locale = typeof params.locale === 'string' ? params.locale : undefined;
    this.folders = (params.workspaceFolders ?? []).map((f) => URI.parse(f.uri));
    if (!this.folders.length && params.rootUri) this.folders = [URI.parse(params.rootUri)];
    const own = this.host.fileSystem;
    this.files = own && this.folders.every((f) => f.scheme === 'file') ? own : clientFileSystem(this.connection, this.log, !!this.init.fileSystem, () => this.folders);
    const ws = params.capabilities.workspace;
    this.can.pullConfig = !!ws?.configuration;
    this.can.refresh = !!ws?.diagnostics?.refreshSupport;
    this.can.lensRefresh = !!ws?.codeLens?.refreshSupport;
    this.can.watch = !!ws?.didChangeWatchedFiles?.dynamicRegistration;
    this.can.watchOutside = this.can.watch && !!ws?.didChangeWatchedFiles?.relativePatternSupport;
    this.can.folders = !!ws?.workspaceFolders;
    this.can.pushDiagnostics = !params.capabilities.textDocument?.diagnostic;
    this.can.documentChanges = !!ws?.workspaceEdit?.documentChanges;
    this.can.changeAnnotations = !!ws?.workspaceEdit?.changeAnnotationSupport;
  }

  /** A {@link TimerPerUri} on this clock. */
  timerPerUri(): TimerPerUri {
    const timers = new Map<string, unknown>();
    const cancel = (uri: string) => { this.clock.clearTimeout(timers.get(uri)); timers.delete(uri); };
    return {
      start: (uri, ms, run) => {
        cancel(uri);
        timers.set(uri, this.clock.setTimeout(() => { timers.delete(uri); run(); }, ms));
      },
      cancel,
    };
  }

  /** A debounced `run`: each `schedule()` restarts the wait of `ms` milliseconds. */
  debounce(ms: number, run: () => void): () => void {
    let timer: unknown;
    return () => {
      this.clock.clearTimeout(timer);
      timer = this.clock.setTimeout(run, ms);
    };
  }
}
