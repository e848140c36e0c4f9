/**
 * The one way the VS Code features talk to the language server: a typed method per custom message
 * of `server/protocol.ts` over the `vscode-languageclient` client. A feature never names a method
 * or picks a result type; the protocol's `RequestType`s carry both, so a change of a message's
 * shape fails to compile here rather than at run time, and a message added to the protocol is a
 * method here without a line written twice. Standard LSP (completion, hover, …) goes through the
 * client itself, not through this.
 */
import type * as vscode from 'vscode';
import { State, type BaseLanguageClient, type NotificationType, type RequestType, type RequestType0 } from 'vscode-languageclient';
import { ClientNotifications, ClientRequests, ServerNotifications, type ReadStateParams } from '../../server/protocol.js';

/** A request of the protocol as a method: `(params, token?)`, or `(token?)` for one without parameters. */
type RequestMethod<T> = T extends RequestType0<infer R, void>
  ? (token?: vscode.CancellationToken) => Promise<R>
  : T extends RequestType<infer P, infer R, void> ? (params: P, token?: vscode.CancellationToken) => Promise<R> : never;

/** A notification of the protocol as an event: the handler runs on each, until the disposable is disposed. */
type EventMethod<T> = T extends NotificationType<infer P> ? (handler: (params: P) => void) => vscode.Disposable : never;

/**
 * The language server's custom messages as methods: each of `ClientRequests` by its name
 * (`search(params, token)`, `corpus()`), each of `ServerNotifications` as `on<Name>(handler)`
 * (`onCorpusChanged`), `sendReadState`, and `onDidStart`. Requests sent before the client has
 * started wait for it; each rejects with the server's `ResponseError` (its message is one line,
 * fit for the user) or when `token` is cancelled.
 */
export type ServerApi = { readonly [K in keyof typeof ClientRequests]: RequestMethod<(typeof ClientRequests)[K]> }
  & { readonly [K in keyof typeof ServerNotifications as `on${Capitalize<K>}`]: EventMethod<(typeof ServerNotifications)[K]> }
  & {
    /** `mlsysPapers/readState`: the whole set of read keys. */
    sendReadState(params: ReadStateParams): Promise<void>;
    /** Calls `listener` each time the server is running: its first start and every restart after a crash. */
    onDidStart(listener: () => void): vscode.Disposable;
  };

/**
 * The {@link ServerApi} over a language client: one method per message of the protocol's tables.
 *
 * @param client - the started (or starting) language client
 */
export function createServerApi(client: BaseLanguageClient): ServerApi {
  const api: Record<string, unknown> = {
    sendReadState: (params: ReadStateParams) => client.sendNotification(ClientNotifications.readState, params),
    onDidStart: (listener: () => void) => client.onDidChangeState((e) => { if (e.newState === State.Running) listener(); }),
  };
  for (const [name, type] of Object.entries(ClientRequests)) {
    api[name] = (...args: unknown[]) => (client.sendRequest as (t: unknown, ...a: unknown[]) => Promise<unknown>)(type, ...args);
  }
  for (const [name, type] of Object.entries(ServerNotifications)) {
    api[`on${name[0]!.toUpperCase()}${name.slice(1)}`] = (handler: (params: unknown) => void) => client.onNotification(type, handler);
  }
  return api as ServerApi;
}
