/**
 * An in-process language server session for unit tests: the server (`src/server/server.ts`) reads
 * and writes JSON-RPC on two in-memory streams and a protocol client sits on their other ends. The
 * host serves files from a map, the bundled corpus from `corpus/` and CSL from `csl/`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll } from 'vitest';
import {
  ApplyWorkspaceEditRequest, ConfigurationRequest, createConnection, createMessageConnection, DiagnosticRefreshRequest, DidOpenTextDocumentNotification,
  InitializedNotification, InitializeRequest, LogMessageNotification, RegistrationRequest, ShowMessageRequest, UnregistrationRequest, StreamMessageReader, StreamMessageWriter,
  type ApplyWorkspaceEditParams, type ClientCapabilities, type Registration, type InitializeResult, type MessageConnection, type ShowMessageRequestParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import type { CorpusData } from '../../src/core/corpus/readCorpus.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';
import { normalizeUri } from '../../src/core/workspace/paths.js';
import { startServer, type HostFile, type HostFileSystem, type ServerHost } from '../../src/server/server.js';

export const ROOT = join(__dirname, '../..');
/** The bundled corpus, loaded once per test file. */
export let bundled: CorpusData;

beforeAll(() => {
  bundled = loadCorpusDir(join(ROOT, 'corpus')).data;
});

/** A running server and the client connected to it. */
export interface Session {
  client: MessageConnection;
  init: InitializeResult;
  /** URIs the host was asked to read or stat, in order. */
  reads: string[];
  /** How many times the host loaded the formatter (once per reference formatted, not cached). */
  cslLoads: () => number;
  /** Notifications the server sent, in order. */
  notifications: { method: string; params: unknown }[];
  /** `window/showMessageRequest`s the server sent. */
  messages: ShowMessageRequestParams[];
  /** `workspace/applyEdit`s the server sent. */
  edits: ApplyWorkspaceEditParams[];
  /** Capabilities the server registered (`client/registerCapability`) and has not unregistered since, in order. */
  registrations: Registration[];
  /** Replaces (or creates) a file on the host's disk: `path` absolute, as in `files`. */
  write(path: string, text: string): void;
  /** How many `workspace/diagnostic/refresh` requests the server sent (with `refreshSupport`). */
  refreshes: () => number;
  /** Resolves with the params of the first notification (past or future) of `method` that satisfies `pred`. */
  notified<T>(method: string, pred?: (p: T) => boolean): Promise<T>;
  /** Resolves once {@link registrations} satisfy `pred`: now, or after the server registers or unregisters a capability. */
  registered(pred: (registrations: readonly Registration[]) => boolean): Promise<void>;
  /** Opens a document. */
  open(uri: string, languageId: string, text: string, version?: number): void;
  dispose(): void;
}

/**
 * What a test may change of the harness's host: any member of `ServerHost`, and members of its
 * file system (`fileSystem`: merged over the in-memory one; `null`: no file system of the host's
 * own, so the client's is used, as in the browser).
 */
export type HarnessHost = Partial<Omit<ServerHost, 'fileSystem'>> & { fileSystem?: Partial<HostFileSystem> | null };

/**
 * The harness's file system over `disk` (URI → text): a read or a stat is recorded in `reads`; a
 * stamp is `len<length>` (a folder, any prefix of a file's path, `d0:0`); real paths
 * are the URIs normalised; `listFiles` lists nothing (a test lists with `fileSystem.listFiles`), `listFolder` a folder's files.
 */
export function memoryFileSystem(disk: ReadonlyMap<string, string>, reads: string[]): HostFileSystem {
  const isFolder = (uri: URI) => {
    const dir = uri.toString().replace(/\/$/, '') + '/';
    return [...disk.keys()].some((k) => k.startsWith(dir));
  };
  return {
    async readFile(uri): Promise<HostFile> {
      reads.push(uri.toString());
      const text = disk.get(uri.toString());
      if (text !== undefined) return { text, stamp: `len${text.length}` };
      return isFolder(uri) ? { directory: true, stamp: 'd0:0' } : undefined;
    },
    async stamp(uri) {
      reads.push(uri.toString());
      const text = disk.get(uri.toString());
      if (text !== undefined) return `len${text.length}`;
      return isFolder(uri) ? 'd0:0' : undefined;
    },
    realPath: async (uri) => normalizeUri(uri),
    foldsCase: false,
    listFiles: async () => [],
    async listFolder(folder) {
      const dir = folder.toString().replace(/\/$/, '') + '/';
      return [...disk.keys()].filter((k) => k.startsWith(dir) && !k.slice(dir.length).includes('/')).map((k) => decodeURIComponent(k.slice(dir.length)));
    },
  };
}

const sessions: { dispose(): void }[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.dispose();
});

/**
 * A server and a client connected to it, not initialized: for the lifecycle (requests before
 * `initialize`). The host serves `files` as {@link start}'s does, without a library cache.
 */
export function connectOnly(files: Record<string, string> = {}): { client: MessageConnection; logs: string[]; dispose(): void } {
  const disk = new Map(Object.entries(files).map(([p, t]) => [URI.file(p).toString(), t]));
  const host: ServerHost = {
    fileSystem: memoryFileSystem(disk, []),
    bundledCorpus: () => bundled,
    bundledCsl: (path) => readFileSync(join(ROOT, 'csl', path), 'utf8'),
    loadCsl: async () => import('../../src/core/cite/citeproc.js'),
  };
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, host);
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const logs: string[] = [];
  client.onNotification(LogMessageNotification.type, (p) => { logs.push(p.message); });
  client.listen();
  const session = { client, logs, dispose() { client.dispose(); server.dispose(); toServer.end(); toClient.end(); } };
  sessions.push(session);
  return session;
}

/**
 * Starts the server with an in-memory host on `files` (absolute paths → texts), answering
 * `workspace/configuration` with `settings`, and initializes it with the folder `/ws` (and
 * `initializationOptions`, when given). The client pulls diagnostics (without `workspace.diagnostics`
 * unless `workspaceCapabilities` adds it, for example `{ diagnostics: { refreshSupport: true } }`).
 * `folder` replaces `/ws` (a real folder, for a host over the disk). `pull` false: a client without
 * pull diagnostics (Neovim before 0.10), to which the server pushes them.
 */
export async function start(files: Record<string, string>, settings: Record<string, unknown> = { citationStyle: 'apa' }, extra: HarnessHost = {}, initializationOptions?: unknown, workspaceCapabilities: ClientCapabilities['workspace'] = {}, folder = '/ws', pull = true, locale?: string): Promise<Session> {
  const disk = new Map(Object.entries(files).map(([p, t]) => [URI.file(p).toString(), t]));
  const reads: string[] = [];
  let cslLoads = 0;
  const { fileSystem, ...rest } = extra;
  const host: ServerHost = {
    fileSystem: fileSystem === null ? undefined : { ...memoryFileSystem(disk, reads), ...fileSystem },
    bundledCorpus: () => bundled,
    bundledCsl: (path) => readFileSync(join(ROOT, 'csl', path), 'utf8'),
    loadCsl: async () => { cslLoads++; return import('../../src/core/cite/citeproc.js'); },
    ...rest,
  };
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, host);
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));

  const notifications: Session['notifications'] = [];
  const waiters: { method: string; pred: (p: unknown) => boolean; resolve: (p: unknown) => void }[] = [];
  const messages: ShowMessageRequestParams[] = [];
  const edits: ApplyWorkspaceEditParams[] = [];
  client.onNotification((method: string, params: unknown) => {
    notifications.push({ method, params });
    for (const w of [...waiters]) {
      if (w.method === method && w.pred(params)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params);
      }
    }
  });
  client.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'mlsysPapers' ? settings : null)));
  client.onRequest(ShowMessageRequest.type, (p) => { messages.push(p); return null; });
  client.onRequest(ApplyWorkspaceEditRequest.type, (p) => { edits.push(p); return { applied: true }; });
  const registrations: Registration[] = [];
  const registrationWaiters: { pred: (r: readonly Registration[]) => boolean; resolve: () => void }[] = [];
  const registrationsChanged = () => {
    for (const w of [...registrationWaiters]) {
      if (w.pred(registrations)) {
        registrationWaiters.splice(registrationWaiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  client.onRequest(RegistrationRequest.type, (p) => { registrations.push(...p.registrations); registrationsChanged(); });
  client.onRequest(UnregistrationRequest.type, (p) => {
    for (const u of p.unregisterations) {
      const i = registrations.findIndex((r) => r.id === u.id);
      if (i >= 0) registrations.splice(i, 1);
    }
    registrationsChanged();
  });
  let refreshes = 0;
  client.onRequest(DiagnosticRefreshRequest.type, () => { refreshes++; });
  client.listen();

  const init = await client.sendRequest(InitializeRequest.type, {
    // Pull diagnostics, as VS Code's client does (clients without get them pushed).
    processId: null, rootUri: null, capabilities: { workspace: { configuration: true, ...workspaceCapabilities }, textDocument: pull ? { diagnostic: { dynamicRegistration: false } } : {} },
    workspaceFolders: [{ uri: URI.file(folder).toString(), name: 'ws' }],
    ...(locale === undefined ? {} : { locale }),
    ...(initializationOptions === undefined ? {} : { initializationOptions }),
  });
  await client.sendNotification(InitializedNotification.type, {});

  const session: Session = {
    client, init, reads, notifications, messages, edits, registrations, cslLoads: () => cslLoads, refreshes: () => refreshes,
    write(path, text) { disk.set(URI.file(path).toString(), text); },
    notified<T>(method: string, pred: (p: T) => boolean = () => true) {
      const past = notifications.find((n) => n.method === method && pred(n.params as T));
      if (past) return Promise.resolve(past.params as T);
      return new Promise<T>((resolve) => waiters.push({ method, pred: pred as (p: unknown) => boolean, resolve: resolve as (p: unknown) => void }));
    },
    registered(pred) {
      return pred(registrations) ? Promise.resolve() : new Promise<void>((resolve) => registrationWaiters.push({ pred, resolve }));
    },
    open(uri, languageId, text, version = 1) {
      void client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
    },
    dispose() {
      client.dispose();
      server.dispose();
      toServer.end();
      toClient.end();
    },
  };
  sessions.push(session);
  return session;
}

