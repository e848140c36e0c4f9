/**
 * The edge between the connection and the server's handlers: every request the server handles is
 * answered, with a result that can be sent or with an error that says why; every notification is
 * either handled or dropped with a log line. No handler's exception reaches the client as anything
 * but one line of message (its stack goes to the log), and no result that cannot be sent
 * (`JSON.stringify` would throw on a cycle, and the answer would never leave) is handed to the
 * writer. Imports no `node:`.
 *
 * The lifecycle follows LSP 3.17 ("Server lifecycle"): a request before the `initialize` result is
 * answered `ServerNotInitialized` (-32002) and a notification then is dropped; after `shutdown`,
 * a request is answered `InvalidRequest` (-32600) and a notification is dropped. Parameters are
 * checked against the shape the handler reads (zod) before it runs: a request whose parameters do
 * not fit is answered `InvalidParams` (-32602), a notification's are dropped.
 * `vscode-languageserver` 9 does none of this itself: its request handlers run whenever a message
 * comes, and a result that cannot be serialised is logged ("Sending response failed.") but never
 * answered.
 */
import { CancellationToken, ErrorCodes, LSPErrorCodes, ResponseError, type Connection, type NotificationType, type RequestType, type RequestType0, type WillSaveTextDocumentParams } from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import * as z from 'zod/mini';
import type { Logger } from '../core/config/logger.js';
import { TOPIC_SCOPES } from '../core/corpus/browse.js';
import { LEVELS } from '../core/corpus/schema.js';
import { ClientNotifications, ClientRequests } from './protocol.js';

/** Where the server is in LSP's lifecycle. */
export type Lifecycle = 'starting' | 'initializing' | 'running' | 'shutdown';

/** Nesting deeper than this in a result is refused: no answer of ours nests more than a few dozen levels. */
export const MAX_RESULT_DEPTH = 1000;
/** Values (objects, arrays, scalars) in one result beyond this are refused: far beyond any answer of ours (the corpus is about 10^5). */
export const MAX_RESULT_VALUES = 20_000_000;

/**
 * The codes of a `ResponseError` a handler may answer with as it is; any other (the client's answer
 * to a request of ours, say) is that handler's failure, answered `RequestFailed`.
 */
const OWN_CODES = new Set<number>([ErrorCodes.InvalidParams, LSPErrorCodes.RequestFailed, LSPErrorCodes.RequestCancelled, LSPErrorCodes.ServerCancelled, LSPErrorCodes.ContentModified]);

/** Why a result cannot be sent. */
class Unsendable extends Error {}

/**
 * Checks that `JSON.stringify` can write a value and will write what it holds: no cycle, nothing
 * nested deeper than {@link MAX_RESULT_DEPTH}, no more than {@link MAX_RESULT_VALUES} values, no
 * BigInt; `toJSON` is followed as `JSON.stringify` follows it. Shared objects (the same entry in two
 * places) are fine: JSON writes them twice. Recursion is bounded by the depth limit.
 *
 * @param value - a handler's result
 * @throws Unsendable naming where (`entries[0].library.csl.author`) and what
 */
export function assertSendable(value: unknown): void {
  const ancestors = new Set<object>();
  let count = 0;
  const visit = (v: unknown, key: string, path: () => string, depth: number): void => {
    if (++count > MAX_RESULT_VALUES) throw new Unsendable(`more than ${MAX_RESULT_VALUES} values`);
    if (typeof v === 'bigint') throw new Unsendable(`a BigInt at ${path()}`);
    if (v === null || typeof v !== 'object') return;
    const json = (v as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') {
      const to: unknown = json.call(v, key);
      if (to !== v) { visit(to, key, path, depth); return; }
    }
    if (depth >= MAX_RESULT_DEPTH) throw new Unsendable(`nested deeper than ${MAX_RESULT_DEPTH} levels at ${path()}`);
    if (ancestors.has(v)) throw new Unsendable(`a cycle at ${path()}`);
    ancestors.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], String(i), () => `${path()}[${i}]`, depth + 1);
    } else {
      for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k], k, () => `${path()}.${k}`, depth + 1);
    }
    ancestors.delete(v);
  };
  visit(value, '', () => 'result', 0);
}

function isToken(t: unknown): t is CancellationToken {
  return !!t && typeof t === 'object' && typeof (t as CancellationToken).isCancellationRequested === 'boolean';
}

/** The first line of an exception's message: what a response may carry (never a stack). */
export function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message : typeof e === 'string' ? e : 'unknown error';
  return text.split('\n')[0]!.trim().slice(0, 500) || 'unknown error';
}

/** One line per problem of a parameter check, `textDocument.uri: expected string`, at most three. */
function issuesOf(error: z.core.$ZodError): string {
  const lines = error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : 'params'}: ${i.message}`);
  if (error.issues.length > 3) lines.push(`${error.issues.length - 3} more`);
  return lines.join('; ');
}

/**
 * The lifecycle gate: wraps each handler the server registers (see the module's comment).
 * One per connection.
 */
export class RequestGate {
  state: Lifecycle = 'starting';

  constructor(private readonly log: Logger) {}

  /**
   * A request handler that is always answered: `ServerNotInitialized` before initialization,
   * `InvalidRequest` after `shutdown`, `InvalidParams` when `params` do not fit `schema`, the
   * handler's result when it can be sent ({@link assertSendable}), else `RequestFailed` (-32803)
   * with the message of what went wrong (logged with its stack). A `ResponseError` the handler
   * throws with one of its own codes (`InvalidParams`, `RequestFailed`, cancelled, content
   * modified) goes as it is.
   *
   * @param method - the LSP method name, for messages and the log
   * @param schema - the parameters' shape; undefined for a request without parameters (any are ignored)
   * @param handler - receives the parameters as sent (checked, not copied) and the cancellation token
   * @param opts.lifecycle - the lifecycle state the request is valid in (`initialize`: `starting`)
   */
  answer<P, R>(
    method: string,
    schema: z.ZodMiniType | undefined,
    handler: (params: P, token: CancellationToken | undefined) => R | PromiseLike<R>,
    opts: { lifecycle?: Lifecycle } = {},
  ): (params: P, token?: CancellationToken) => Promise<R | ResponseError<never>> {
    return async (params, token) => {
      const refused = this.refusal(method, opts.lifecycle ?? 'running');
      if (refused) return refused;
      if (schema) {
        const checked = schema.safeParse(params);
        if (!checked.success) return new ResponseError<never>(ErrorCodes.InvalidParams, `${method}: invalid params: ${issuesOf(checked.error)}`);
      }
      try {
        // vscode-jsonrpc calls a request without parameters with the token first, and one with
        // positional parameters with each of them: only a real token goes on.
        const result = await handler(params, schema && isToken(token) ? token : undefined);
        if (result instanceof ResponseError && OWN_CODES.has(result.code)) return result as ResponseError<never>;
        assertSendable(result);
        return result;
      } catch (e) {
        if (e instanceof ResponseError && OWN_CODES.has(e.code)) return e as ResponseError<never>;
        if (e instanceof Unsendable) {
          this.log.error(`${method}: the result cannot be sent: ${e.message}`);
          return new ResponseError<never>(LSPErrorCodes.RequestFailed, `${method} failed: the result cannot be sent (${e.message})`);
        }
        this.log.error(`${method} failed: ${e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)}`);
        return new ResponseError<never>(LSPErrorCodes.RequestFailed, `${method} failed: ${messageOf(e)}`);
      }
    };
  }

  /**
   * Registers the handler of one of our requests (`protocol.ts`'s `ClientRequests`) on the
   * connection, through {@link answer} with the request's parameter schema
   * ({@link ClientRequestParams}): the name, the parameters' type and the result's type all come
   * from the one typed message, so a handler cannot answer a shape the client does not expect.
   */
  onRequest<K extends keyof typeof ClientRequests>(
    connection: Connection, key: K,
    handler: (params: ParamsOf<(typeof ClientRequests)[K]>, token: CancellationToken | undefined) => ResultOf<(typeof ClientRequests)[K]> | PromiseLike<ResultOf<(typeof ClientRequests)[K]>>,
  ): void {
    const { method } = ClientRequests[key];
    connection.onRequest(method, this.answer(method, ClientRequestParams[key], handler));
  }

  /** Registers the handler of one of our notifications (`ClientNotifications`) through {@link heed}, typed the same way. */
  onNotification<K extends keyof typeof ClientNotifications>(
    connection: Connection, key: K,
    handler: (params: NotificationParamsOf<(typeof ClientNotifications)[K]>) => unknown,
  ): void {
    const { method } = ClientNotifications[key];
    connection.onNotification(method, this.heed(method, ClientNotificationParams[key], handler));
  }

  /**
   * A notification handler that never throws: dropped (with a log line) outside the `running`
   * state or when `params` do not fit `schema`; an exception of the handler is logged.
   *
   * @param method - the LSP method name, for the log
   * @param schema - the parameters' shape
   */
  heed<P>(method: string, schema: z.ZodMiniType | undefined, handler: (params: P) => unknown): (params: P) => void {
    return (params) => {
      if (this.state !== 'running') {
        this.log.info(`${method} dropped: ${this.state === 'shutdown' ? 'after shutdown' : 'before initialization'}`);
        return;
      }
      if (schema) {
        const checked = schema.safeParse(params);
        if (!checked.success) { this.log.warn(`${method} dropped: invalid params: ${issuesOf(checked.error)}`); return; }
      }
      try {
        const r = handler(params);
        if (r && typeof (r as PromiseLike<unknown>).then === 'function') {
          (r as PromiseLike<unknown>).then(undefined, (e: unknown) => this.log.error(`${method} failed: ${e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)}`));
        }
      } catch (e) {
        this.log.error(`${method} failed: ${e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)}`);
      }
    };
  }

  /**
   * The connection as `TextDocuments.listen` sees it: its document notifications (and the
   * `willSaveWaitUntil` request) go through the gate with their parameters checked.
   */
  documentsConnection(connection: Connection): Connection {
    type On<K extends keyof Connection> = Connection[K] extends (h: infer H) => unknown ? H : never;
    const wrapped: Partial<Connection> = {
      onDidOpenTextDocument: (h: On<'onDidOpenTextDocument'>) => connection.onDidOpenTextDocument(this.heed('textDocument/didOpen', Params.didOpen, h)),
      onDidChangeTextDocument: (h: On<'onDidChangeTextDocument'>) => connection.onDidChangeTextDocument(this.heed('textDocument/didChange', Params.didChange, h)),
      onDidCloseTextDocument: (h: On<'onDidCloseTextDocument'>) => connection.onDidCloseTextDocument(this.heed('textDocument/didClose', Params.textDocument, h)),
      onDidSaveTextDocument: (h: On<'onDidSaveTextDocument'>) => connection.onDidSaveTextDocument(this.heed('textDocument/didSave', Params.textDocument, h)),
      onWillSaveTextDocument: (h: On<'onWillSaveTextDocument'>) => connection.onWillSaveTextDocument(this.heed('textDocument/willSave', Params.textDocument, h)),
      onWillSaveTextDocumentWaitUntil: (h: On<'onWillSaveTextDocumentWaitUntil'>) =>
        connection.onWillSaveTextDocumentWaitUntil(this.answer('textDocument/willSaveWaitUntil', Params.textDocument, (p: WillSaveTextDocumentParams, t) => h(p, t ?? CancellationToken.None))),
    };
    return new Proxy(connection, {
      get: (target, name, receiver) => (typeof name === 'string' && name in wrapped ? wrapped[name as keyof Connection] : Reflect.get(target, name, receiver)),
    });
  }

  /** The error for a request made in the wrong state, or undefined when it may run. */
  private refusal(method: string, wanted: Lifecycle): ResponseError<never> | undefined {
    if (this.state === wanted) return undefined;
    if (this.state === 'shutdown') return new ResponseError<never>(ErrorCodes.InvalidRequest, `${method}: the server is shutting down`);
    if (wanted === 'starting') return new ResponseError<never>(ErrorCodes.InvalidRequest, `${method}: the server is already initialized`);
    return new ResponseError<never>(ErrorCodes.ServerNotInitialized, `${method}: the server is not initialized`);
  }
}

// --- Parameter shapes: what the handlers read, loose about everything else ---

/** A string `vscode-uri` parses (a malformed scheme throws there). */
const uri = z.string().check(z.refine((s) => {
  try { URI.parse(s); return true; } catch { return false; /* ignored: the refusal is the answer, InvalidParams */ }
}, 'not a URI'));
const uinteger = z.int().check(z.gte(0));
const position = z.looseObject({ line: uinteger, character: uinteger });
const range = z.looseObject({ start: position, end: position });
const textDocument = z.looseObject({ uri });
const keys = z.array(z.string());
/** What the Topics view shows (`protocol.ts`'s `TopicFilter`). */
const topicFilter = { scope: z.enum(TOPIC_SCOPES), levels: z.array(z.enum(LEVELS)) };

/** The parameters of each LSP request and notification the server handles, as zod schemas (ours are in {@link ClientRequestParams} and {@link ClientNotificationParams}). */
export const Params = {
  initialize: z.looseObject({
    capabilities: z.looseObject({}),
    rootUri: z.optional(z.nullable(uri)),
    workspaceFolders: z.optional(z.nullable(z.array(z.looseObject({ uri, name: z.string() })))),
  }),
  textDocument: z.looseObject({ textDocument }),
  positional: z.looseObject({ textDocument, position }),
  references: z.looseObject({ textDocument, position, context: z.looseObject({ includeDeclaration: z.boolean() }) }),
  rename: z.looseObject({ textDocument, position, newName: z.string() }),
  completionItem: z.looseObject({
    label: z.string(),
    data: z.optional(z.unknown().check(z.refine((d) => d === null || typeof d !== 'object' || Array.isArray(d) ? true
      : (['key', 'uri'] as const).every((k) => (d as Record<string, unknown>)[k] === undefined || typeof (d as Record<string, unknown>)[k] === 'string'), 'data.key and data.uri must be strings'))),
  }),
  codeAction: z.looseObject({
    textDocument, range,
    context: z.looseObject({ diagnostics: z.array(z.looseObject({ range, message: z.string(), source: z.optional(z.string()), code: z.optional(z.union([z.string(), z.number()])) })) }),
  }),
  executeCommand: z.looseObject({ command: z.string(), arguments: z.optional(z.array(z.unknown())) }),
  didOpen: z.looseObject({ textDocument: z.looseObject({ uri, languageId: z.string(), version: z.int(), text: z.string() }) }),
  didChange: z.looseObject({
    textDocument: z.looseObject({ uri, version: z.int() }),
    contentChanges: z.array(z.union([z.looseObject({ range, text: z.string() }), z.looseObject({ text: z.string() })])),
  }),
  didChangeConfiguration: z.looseObject({ settings: z.optional(z.unknown()) }),
  didChangeWatchedFiles: z.looseObject({ changes: z.array(z.looseObject({ uri, type: z.int().check(z.gte(1), z.lte(3)) })) }),
  workspaceFolders: z.looseObject({ added: z.array(z.looseObject({ uri, name: z.string() })), removed: z.array(z.looseObject({ uri, name: z.string() })) }),
};

/** The parameters' type of a typed request (`undefined` for one without). */
type ParamsOf<T> = T extends RequestType0<unknown, unknown> ? undefined : T extends RequestType<infer P, unknown, unknown> ? P : never;
/** The result's type of a typed request. */
type ResultOf<T> = T extends RequestType0<infer R, unknown> ? R : T extends RequestType<unknown, infer R, unknown> ? R : never;
/** The parameters' type of a typed notification. */
type NotificationParamsOf<T> = T extends NotificationType<infer P> ? P : never;

/**
 * The parameter schema of each of our requests, by its key in `protocol.ts`'s `ClientRequests`
 * (undefined: it takes none): with the typed message, the one declaration of a request. A request
 * added there without a schema here does not compile.
 */
export const ClientRequestParams: { readonly [K in keyof typeof ClientRequests]: z.ZodMiniType | undefined } = {
  topics: undefined,
  topicChildren: z.looseObject({
    parent: z.looseObject({ topic: z.optional(z.string()), group: z.optional(z.union([z.literal('more'), z.literal('none'), z.int()])) }),
    ...topicFilter,
  }),
  topicEntries: z.looseObject({ topics: keys, ...topicFilter }),
  entries: z.looseObject({ keys }),
  search: z.looseObject({ query: z.string(), limit: z.optional(z.int().check(z.gte(1), z.lte(10_000))) }),
  entryDocument: z.looseObject({ uri }),
  planCitation: z.looseObject({ uri, position, keys }),
  planBibliography: z.looseObject({ uri, keys }),
  planInsertion: z.looseObject({ uri, keys }),
  planDeclaration: z.looseObject({ uri, file: z.string() }),
  citedKeys: z.looseObject({ uri }),
  format: z.looseObject({ keys, scope: z.optional(uri) }),
  entry: z.looseObject({ key: z.string() }),
  libraryStatus: undefined,
  libraryGroups: z.looseObject({ uri: z.string() }),
  libraryEntries: z.looseObject({ uri: z.string(), group: z.string() }),
  previewCitations: z.looseObject({ uri, languageId: z.string(), text: z.string() }),
  planNote: z.looseObject({ key: z.string(), scope: z.optional(uri) }),
};

/** The parameter schema of each of our notifications, by its key in `ClientNotifications`. */
export const ClientNotificationParams: { readonly [K in keyof typeof ClientNotifications]: z.ZodMiniType | undefined } = {
  readState: z.looseObject({ keys }),
};
