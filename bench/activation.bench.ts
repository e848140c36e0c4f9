/**
 * What activating the extension costs, beside Node's own start-up (`node -e 0`) measured in the
 * same run, each printed as a ratio to it. Prints; never fails on a timing.
 *
 * - Activation: a fresh Node process (this bundle with `--child`) requires the built
 *   `dist/extension.js` with a stub `vscode` module and calls `activate` with a fake extension
 *   context. Timed inside the child: the `require`, and `activate` (its synchronous part: what the
 *   extension host waits for; the language client starts the server in the background, which the
 *   child never lets happen). Timed outside: spawn to the child's answer.
 * - Server: `node dist/server.js --stdio` on the benches' corpus (3,000 entries: `benchCorpus.ts`),
 *   spawn to the answer to `initialize`; to the answers the client asks for first after
 *   `initialized` (the taxonomy, `mlsysPapers/topics`, and the Topics view's roots,
 *   `mlsysPapers/topicChildren`), with their size and what the extension host does with them
 *   (`buildTaxonomy`; the client builds nothing per entry); and to the first `mlsysPapers/search`.
 *
 * Every side runs in a fresh process each time (module loading is what activation pays), runs
 * alternate between the sides after one untimed warm-up of each (file cache), and the p50 and p90
 * of `BENCH_ACTIVATION_RUNS` runs (default 9) are printed. The stub `vscode` is only what activation
 * touches: real `Uri` (vscode-uri), `EventEmitter`, `Disposable`, `l10n.t`, settings with
 * package.json's defaults; anything else is a do-nothing value. So the activation time is the
 * extension's own code and module loading, not VS Code's API behind it.
 *
 * Build and run (needs `npm run build` first, for dist/):
 *   node bench/build-activation.mjs && node dist-test/bench-activation.js
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { URI, Utils } from 'vscode-uri';
import { buildTaxonomy } from '../src/core/corpus/model.js';
import { LEVELS } from '../src/core/corpus/schema.js';
import { FROM_WORKSPACE, Methods, type SearchParams, type SearchResult, type TopicChildrenParams, type TopicChildrenResult, type TopicsResult } from '../src/server/protocol.js';
import { benchCorpus, benchDist } from './benchCorpus.js';
import { percentile } from './common.js';

const ROOT = join(__dirname, '..');
const EXTENSION = join(ROOT, 'dist/extension.js');
const RUNS = Math.max(1, Number(process.env.BENCH_ACTIVATION_RUNS) || 9);
const FIRST_QUERY = 'paged attention';
const TIMEOUT_MS = 30_000;

/** What the child prints: milliseconds. */
interface ChildTimes {
  require: number;
  activate: number;
}

// ---------------------------------------------------------------------------------------------
// The child: a stub `vscode`, a fake context, require + activate.

/**
 * A value for any part of the API the stub leaves out: callable (returns another such value),
 * constructible, every property another such value (the same one each time, or what was assigned
 * to it). Never a promise
 * (`then` is undefined, or `await` would hang), iterable as empty, a string as ''.
 */
function anything(): unknown {
  const props = new Map<PropertyKey, unknown>();
  const target = function () { /* a do-nothing API */ };
  return new Proxy(target, {
    get(t, p) {
      if (p === 'then') return undefined;
      if (p === Symbol.iterator) return function* () { /* empty */ };
      if (p === Symbol.toPrimitive) return () => '';
      if (p === 'prototype') return t.prototype; // `class X extends vscode.Y` needs an object
      if (props.has(p)) return props.get(p);
      if (typeof p === 'symbol') return undefined;
      props.set(p, anything());
      return props.get(p);
    },
    // Assignments are remembered (a function's own `name` and `length` are read-only).
    set(_, p, value) {
      props.set(p, value);
      return true;
    },
    apply: () => anything(),
    construct: (t, args, newTarget) => instance(Reflect.construct(t, args, newTarget) as object),
  });
}

/**
 * `obj`, where properties it does not have are {@link anything} (a partial stub). The fallback is
 * its prototype, not a proxy around it: the bundler's `__toESM` copies a module's own properties
 * onto an object with the module's prototype, so a missing name must be found through the prototype.
 */
function withFallback<T extends object>(obj: T): T {
  const extra = new Map<PropertyKey, unknown>();
  const fallback = new Proxy(Object.create(null) as object, {
    get(_, p) {
      if (p in Object.prototype) return (Object.prototype as Record<PropertyKey, unknown>)[p];
      if (p === 'then' || typeof p === 'symbol') return undefined;
      if (!extra.has(p)) extra.set(p, anything());
      return extra.get(p);
    },
  });
  return Object.setPrototypeOf(obj, fallback) as T;
}

/** An instance of a class the stub leaves out (`new vscode.ThemeIcon(…)`): its members are {@link anything}. */
function instance(obj: object): object {
  const extra = new Map<PropertyKey, unknown>();
  return new Proxy(obj, {
    get(t, p, receiver) {
      if (p in t) return Reflect.get(t, p, receiver);
      if (p === 'then' || typeof p === 'symbol') return undefined;
      if (!extra.has(p)) extra.set(p, anything());
      return extra.get(p);
    },
  });
}

class Disposable {
  static from(...ds: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => { for (const d of ds) d.dispose(); });
  }
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void { this.onDispose(); }
}

class EventEmitter<T> {
  private readonly listeners = new Set<(e: T) => unknown>();
  readonly event = (listener: (e: T) => unknown) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(e: T): void { for (const l of [...this.listeners]) l(e); }
  dispose(): void { this.listeners.clear(); }
}

const event = () => new EventEmitter<unknown>().event;

/** `vscode.l10n.t`: `{0}` placeholders filled, no translation (English). */
function t(message: string | { message: string; args?: unknown[] }, ...args: unknown[]): string {
  const [text, values] = typeof message === 'string' ? [message, args] : [message.message, message.args ?? []];
  return text.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < values.length ? String(values[Number(i)]) : m));
}

/** The stub `vscode` module; `workspace` is the fresh folder the fake window has open. */
function stubVscode(workspace: string): unknown {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines: { vscode: string };
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  const defaults = new Map(Object.entries(pkg.contributes.configuration.properties).map(([k, p]) => [k, p.default]));
  const getConfiguration = (section?: string) => withFallback({
    get: (key: string, fallback?: unknown) => defaults.get(section ? `${section}.${key}` : key) ?? fallback,
    has: (key: string) => defaults.has(section ? `${section}.${key}` : key),
    inspect: (key: string) => ({ key, defaultValue: defaults.get(section ? `${section}.${key}` : key) }),
    update: async () => undefined,
  });
  const Uri = Object.assign(URI, { joinPath: Utils.joinPath });
  return withFallback({
    // vscode-languageclient refuses a VS Code older than it supports: the oldest engines.vscode admits.
    version: pkg.engines.vscode.replace(/^\^/, ''),
    Uri, Disposable, EventEmitter,
    l10n: withFallback({ t, bundle: undefined, uri: undefined }),
    env: withFallback({ language: 'en', appName: 'bench', uiKind: 1, remoteName: undefined }),
    workspace: withFallback({
      getConfiguration,
      workspaceFolders: [{ uri: URI.file(workspace), name: 'bench', index: 0 }],
      textDocuments: [],
      onDidChangeConfiguration: event(),
      onDidOpenTextDocument: event(),
      onDidCloseTextDocument: event(),
      onDidChangeTextDocument: event(),
      onDidSaveTextDocument: event(),
      onDidChangeWorkspaceFolders: event(),
      isTrusted: true,
      onDidGrantWorkspaceTrust: event(),
    }),
    window: withFallback({
      createOutputChannel: (name: string) => withFallback({ name, logLevel: 3, onDidChangeLogLevel: event() }),
      activeTextEditor: undefined,
      visibleTextEditors: [],
      onDidChangeActiveTextEditor: event(),
      onDidChangeVisibleTextEditors: event(),
    }),
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    UIKind: { Desktop: 1, Web: 2 },
  });
}

/** A `Memento` in memory. */
function memento(): unknown {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
    update: async (key: string, value: unknown) => { values.set(key, value); },
    setKeysForSync: () => undefined,
  };
}

/** The child's work: prints one line, the {@link ChildTimes} as JSON, then exits. */
function child(): void {
  const scratch = mkdtempSync(join(tmpdir(), 'mlsys-papers-activation-'));
  const vscode = stubVscode(scratch);
  // `require('vscode')` from the extension gets the stub, as the extension host's loader does.
  const mod = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  const context = withFallback({
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: URI.file(ROOT),
    extensionPath: ROOT,
    asAbsolutePath: (p: string) => join(ROOT, p),
    globalState: memento(),
    workspaceState: memento(),
    globalStorageUri: URI.file(join(scratch, 'global')),
    storageUri: URI.file(join(scratch, 'workspace')),
    logUri: URI.file(join(scratch, 'logs')),
    extensionMode: 1,
  });

  let t = performance.now();
  const extension = require(EXTENSION) as { activate(c: unknown): unknown };
  const requireMs = performance.now() - t;
  t = performance.now();
  extension.activate(context);
  const activateMs = performance.now() - t;
  // Printed and exited at once, without a turn of the event loop: the language client's start
  // (forking the server, after its first `await`) never runs here; the server is measured on its own.
  writeSync(1, `${JSON.stringify({ require: requireMs, activate: activateMs } satisfies ChildTimes)}\n`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// The parent: runs the sides in turn and prints.

function exited(c: ChildProcess): Promise<number | null> {
  return c.exitCode !== null || c.signalCode !== null ? Promise.resolve(c.exitCode) : new Promise((done) => c.once('exit', (code) => done(code)));
}

/** Rejects after `TIMEOUT_MS` (a process that hangs is an error, not a slow one). */
function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing after ${TIMEOUT_MS} ms`)), TIMEOUT_MS); }),
  ]);
}

/** `node -e 0`: spawn to exit. */
async function nodeStartup(): Promise<number> {
  const t0 = performance.now();
  const code = await withTimeout(exited(spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })), 'node -e 0');
  if (code !== 0) throw new Error(`node -e 0 exited with ${code}`);
  return performance.now() - t0;
}

/** The activation child: its own timings, and spawn to its answer. */
async function activation(): Promise<ChildTimes & { wall: number }> {
  const t0 = performance.now();
  const c = spawn(process.execPath, [__filename, '--child'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  c.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const line = await withTimeout(new Promise<string>((done, fail) => {
    c.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) done(out.slice(0, out.indexOf('\n')));
    });
    c.once('exit', (code) => fail(new Error(`the activation child exited (code ${code}) without an answer:\n${err}`)));
  }), 'activation child');
  const wall = performance.now() - t0;
  await withTimeout(exited(c), 'activation child exit');
  return { ...(JSON.parse(line) as ChildTimes), wall };
}

/** What {@link server} measures: ms from spawn, the first answers' size in bytes, the client's work on them in ms. */
interface ServerTimes {
  initialize: number;
  firstRows: number;
  firstRowsBytes: number;
  clientWork: number;
  search: number;
}

/** `node <dist>/server.js --stdio`: spawn to the answer to `initialize`, to the Topics view's first rows, and to the first search's. */
async function server(serverJs: string, workspace: string, settings: Record<string, unknown>): Promise<ServerTimes> {
  const t0 = performance.now();
  const c = spawn(process.execPath, [serverJs, '--stdio', `--clientProcessId=${process.pid}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  c.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const died = exited(c).then((code) => { throw new Error(`the server exited (code ${code}):\n${err}`); });
  died.catch(() => undefined);
  const connection = createMessageConnection(new StreamMessageReader(c.stdout!), new StreamMessageWriter(c.stdin!));
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((i) => (i.section === 'mlsysPapers' ? settings : null)));
  connection.onRequest(Methods.readFile, () => ({ missing: true }));
  connection.onRequest(Methods.findFiles, () => []);
  connection.onRequest(() => null);
  connection.onNotification(() => undefined);
  connection.listen();
  try {
    const folder = pathToFileURL(workspace).toString();
    await withTimeout(Promise.race([died, connection.sendRequest('initialize', {
      processId: process.pid, rootUri: folder, workspaceFolders: [{ uri: folder, name: 'bench' }],
      initializationOptions: { fileSystem: true, clientCommands: true },
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { diagnostic: { dynamicRegistration: true } } },
    })]), 'initialize');
    const initialize = performance.now() - t0;
    await connection.sendNotification('initialized', {});
    // What the client asks first: the taxonomy (CorpusClient) and the Topics view's roots.
    const roots: TopicChildrenParams = { parent: {}, scope: 'everything', levels: [...LEVELS] };
    const [topics, rows] = await withTimeout(Promise.race([died, Promise.all([
      connection.sendRequest<TopicsResult>(Methods.topics), connection.sendRequest<TopicChildrenResult>(Methods.topicChildren, roots),
    ])]), 'topics');
    const firstRows = performance.now() - t0;
    if (!rows.nodes.length) throw new Error('the server listed no topic');
    const firstRowsBytes = JSON.stringify(topics).length + JSON.stringify(rows).length;
    const w = performance.now();
    buildTaxonomy(topics.topics);
    const clientWork = performance.now() - w;
    const found = await withTimeout(Promise.race([died, connection.sendRequest<SearchResult>(Methods.search, { query: FIRST_QUERY } satisfies SearchParams)]), 'search');
    const search = performance.now() - t0;
    if (!found.keys.length) throw new Error(`the server found nothing for "${FIRST_QUERY}"`);
    await withTimeout(connection.sendRequest('shutdown'), 'shutdown');
    await connection.sendNotification('exit');
    await withTimeout(exited(c), 'server exit');
    return { initialize, firstRows, firstRowsBytes, clientWork, search };
  } finally {
    connection.dispose();
    if (c.exitCode === null && c.signalCode === null) c.kill();
  }
}

async function main(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown }> } } };
  const settings: Record<string, unknown> = { [FROM_WORKSPACE]: [] };
  for (const [k, p] of Object.entries(pkg.contributes.configuration.properties)) settings[k.slice('mlsysPapers.'.length)] = p.default;
  const workspace = mkdtempSync(join(tmpdir(), 'mlsys-papers-activation-ws-'));
  // The server reads the benches' corpus (3,000 entries) from a scratch dist/.
  const scratch = benchDist();
  const series: Record<'node' | 'wall' | 'require' | 'activate' | 'initialize' | 'firstRows' | 'clientWork' | 'search', number[]> = {
    node: [], wall: [], require: [], activate: [], initialize: [], firstRows: [], clientWork: [], search: [],
  };
  let bytes = 0;
  try {
    for (let i = 0; i <= RUNS; i++) {
      const n = await nodeStartup();
      const a = await activation();
      const s = await server(join(scratch.dist, 'server.js'), workspace, settings);
      if (i === 0) continue; // warm-up: the file cache
      series.node.push(n);
      series.wall.push(a.wall);
      series.require.push(a.require);
      series.activate.push(a.activate);
      series.initialize.push(s.initialize);
      series.firstRows.push(s.firstRows);
      series.clientWork.push(s.clientWork);
      series.search.push(s.search);
      bytes = s.firstRowsBytes;
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    scratch.dispose();
  }
  const p = (xs: number[], q: number) => percentile([...xs].sort((a, b) => a - b), q);
  const base = p(series.node, 50);
  const row = (label: string, xs: number[]) => console.log(
    `  ${label.padEnd(62)}p50 ${p(xs, 50).toFixed(1).padStart(7)} ms  p90 ${p(xs, 90).toFixed(1).padStart(7)} ms  ${(p(xs, 50) / base).toFixed(2).padStart(6)}× node -e 0`);
  console.log(`activation cost, ${RUNS} runs each in fresh processes, alternating (ratios: p50 / p50 of node -e 0); the server's corpus: ${benchCorpus().describe()}`);
  row('node -e 0 (Node start-up: spawn to exit)', series.node);
  row("require('dist/extension.js'), stub vscode (in the child)", series.require);
  row('activate(context), synchronous part (in the child)', series.activate);
  row('spawn to activated (Node start-up + require + activate)', series.wall);
  row('server: spawn to initialize answered', series.initialize);
  row('server: spawn to the taxonomy and the Topics view\'s roots answered', series.firstRows);
  row(`client: its work on them (${(bytes / 1024).toFixed(1)} KB: buildTaxonomy)`, series.clientWork);
  row(`server: spawn to first search answered ("${FIRST_QUERY}")`, series.search);
}

if (process.argv[2] === '--child') {
  try {
    child();
  } catch (e) {
    // The stack only: Node would also print the failing line, a minified line of the whole bundle.
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  }
}
else main().catch((e: unknown) => { console.error(e instanceof Error ? e.stack : e); process.exit(1); });
