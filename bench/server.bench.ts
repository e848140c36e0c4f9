/**
 * Part of `npm run bench`: the language server's start-to-first-answer and per-request latency,
 * each beside the in-process baseline (what activation plus the first search cost before the
 * server split), measured in the same run and printed as ratios. Target (the issue): server start
 * to first answer ≤ 2× activation-plus-first-search.
 *
 * How the comparison is kept fair (same shape on both sides):
 *
 * - First answer is measured cold on both sides: wall clock from `spawn()` of a fresh Node process
 *   to the first search answer arriving in this process.
 *   - Server: `node dist/server.js --stdio`; `initialize` (a temp-dir workspace folder, the VS Code
 *     client's capabilities and `initializationOptions`), `initialized`, `mlsysPapers/search`.
 *     The server's own requests are answered as VS Code would with default settings
 *     (`workspace/configuration`: the defaults of package.json; `mlsysPapers/readFile` from disk;
 *     `mlsysPapers/findFiles`: nothing; registrations: accepted).
 *   - Baseline: `node dist-test/bench-cold.js` (`bench/coldSearch.ts`), a minified bundle of the
 *     core model and search only, which reads + parses `dist/corpus.json`, builds the model and
 *     the index, answers the same query and prints the answer on stdout.
 *   Module loading was part of activation, so a warm in-process baseline (modules already loaded)
 *   would understate it; a cold child counts it on both sides. The baseline bundle holds less
 *   code than the pre-split extension loaded at activation (none of its VS Code features), so
 *   the baseline is a lower bound and the ratio errs against the server. Both pay Node's own
 *   start-up (printed separately, `node -e ""`), which the old activation did not (the extension
 *   host was already running); the section's last ratio is computed with the baseline's
 *   Node start-up taken out, the user-visible worst case. Runs alternate between the two sides
 *   after one untimed warm-up of each (file cache), `BENCH_SERVER_RUNS` runs (default 7); median
 *   and p90.
 * - Per request: one live server (the last started), 200 sequential `mlsysPapers/search`
 *   round-trips against the same work in this process (`parseQuery` + `index.search` → keys),
 *   after a warm-up; median and p90.
 *
 * The results of both sides are compared (same keys in the same order): a difference, a server
 * that does not answer, or a crash is an error (exit 1); timings never fail the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { percentile, QUERIES } from './common.js';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { buildCorpus, type CorpusData } from '../src/core/corpus/model.js';
import { createSearchIndex, type SearchIndex } from '../src/core/search/corpus/corpusIndex.js';
import { parseQuery } from '../src/core/search/queryLanguage.js';
import { benchCorpus, benchDist } from './benchCorpus.js';
import { FROM_WORKSPACE, Methods, type InitializationOptions, type SearchParams, type SearchResult } from '../src/server/protocol.js';

const ROOT = join(__dirname, '..');
const COLD = join(ROOT, 'dist-test/bench-cold.js');
const FIRST_QUERY = 'paged attention';
const LIMIT = 60;
const RUNS = Math.max(1, Number(process.env.BENCH_SERVER_RUNS) || 7);
const REQUESTS = 200;
const TIMEOUT_MS = 30_000;

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const ms = (x: number) => `${x.toFixed(x < 10 ? 3 : 1)} ms`;
const stats = (xs: readonly number[]) => {
  const s = sorted(xs);
  return `p50 ${ms(percentile(s, 50)).padStart(10)}  p90 ${ms(percentile(s, 90)).padStart(10)}`;
};
const row = (label: string, xs: readonly number[]) => console.log(`  ${label.padEnd(76)}${stats(xs)}`);
const ratioText = (server: number, base: number) => `server/baseline = ${(server / base).toFixed(2)}`;
const target = (r: number) => `target ≤ 2×: ${r <= 2 ? 'met' : 'NOT met'}`;

/** Rejects after `TIMEOUT_MS` (a hung server is an error, not a slow one). */
function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS); }),
  ]);
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The `mlsysPapers.*` settings as VS Code answers them with nothing set: package.json's defaults. */
function defaultSettings(): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(pkg.contributes.configuration.properties)) {
    if (name.startsWith('mlsysPapers.')) out[name.slice('mlsysPapers.'.length)] = p.default;
  }
  // The VS Code client adds which settings come from the workspace: none here.
  return { ...out, [FROM_WORKSPACE]: [] };
}

interface LiveServer {
  child: ChildProcess;
  connection: MessageConnection;
  /** Spawn to first search answer. */
  firstAnswerMs: number;
  first: SearchResult;
  stop(): Promise<void>;
}

/** Starts `node dist/server.js --stdio` as the VS Code client would and asks the first search. */
async function startServer(server: string, workspace: string, settings: Record<string, unknown>): Promise<LiveServer> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [server, '--stdio', `--clientProcessId=${process.pid}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const died = exited(child).then((code) => { throw new Error(`the server exited (code ${code}) before answering${stderr ? `:\n${stderr}` : ''}`); });
  died.catch(() => {});
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((i) => (i.section === 'mlsysPapers' ? settings : null)));
  // The Node server reads file: URIs itself; it asks the client only for other schemes, which this workspace has none of.
  connection.onRequest(Methods.readFile, () => ({ missing: true }));
  connection.onRequest(Methods.findFiles, () => []);
  // Registrations, refreshes, progress: accepted, as VS Code does.
  connection.onRequest(() => null);
  connection.onNotification(() => {});
  connection.listen();

  const folder = pathToFileURL(workspace).toString();
  const initializationOptions: InitializationOptions = { fileSystem: true, clientCommands: true };
  const answer = (async () => {
    await connection.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'mlsys-papers bench' },
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'bench' }],
      initializationOptions,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          diagnostics: { refreshSupport: true },
        },
        textDocument: {
          synchronization: { dynamicRegistration: true },
          completion: { dynamicRegistration: true, completionItem: { snippetSupport: true } },
          hover: { dynamicRegistration: true },
          diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
        },
      },
    });
    await connection.sendNotification('initialized', {});
    return connection.sendRequest<SearchResult>(Methods.search, { query: FIRST_QUERY, limit: LIMIT } satisfies SearchParams);
  })();
  let first: SearchResult;
  try {
    first = await withTimeout(Promise.race([answer, died]), 'server start');
  } catch (e) {
    connection.dispose();
    child.kill();
    throw e;
  }
  const firstAnswerMs = performance.now() - t0;
  return {
    child, connection, firstAnswerMs, first,
    async stop() {
      try {
        await withTimeout(connection.sendRequest('shutdown'), 'shutdown');
        await connection.sendNotification('exit');
        await withTimeout(exited(child), 'exit');
      } finally {
        connection.dispose();
        if (child.exitCode === null && child.signalCode === null) child.kill();
      }
    },
  };
}

/** Spawns a Node process and resolves with the first line it prints and the time from spawn to that line. */
function firstLine(args: string[]): Promise<{ ms: number; line: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return withTimeout(new Promise<{ ms: number; line: string }>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ ms: performance.now() - t0, line: out.slice(0, nl) });
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`node ${args.join(' ')} exited (code ${code}) without an answer${err ? `:\n${err}` : ''}`));
    });
  }), `node ${args.join(' ')}`).finally(() => { if (child.exitCode === null) child.kill(); });
}

/** `node -e ""`: Node's own start-up, spawn to exit. */
async function nodeStartup(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const code = await withTimeout(exited(child), 'node -e ""');
  if (code !== 0) throw new Error(`node -e "" exited with ${code}`);
  return performance.now() - t0;
}

/** What the server's answer and the in-process search both give: keys in rank order, and the filters not understood. */
type Answer = Pick<SearchResult, 'keys' | 'invalid'>;

/** The same keys in the same order, and the same invalid filters. */
function sameAnswer(a: Answer, b: Answer, what: string): void {
  const core = (r: Answer) => JSON.stringify({ keys: r.keys, invalid: r.invalid });
  if (core(a) !== core(b)) {
    throw new Error(`${what}: the server and the in-process search disagree:\n  server:     ${JSON.stringify(a)}\n  in-process: ${JSON.stringify(b)}`);
  }
}

/** The server's `mlsysPapers/search` work, in this process. */
const localSearch = (index: SearchIndex, query: string): Answer =>
  ({ keys: index.search(query, LIMIT).map((h) => h.entry.key), invalid: parseQuery(query).invalid });

export async function serverBench(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'mlsys-papers-bench-'));
  const settings = defaultSettings();
  // The server and the cold baseline read the bench's corpus (`benchCorpus.ts`) from a scratch dist/.
  const scratch = benchDist();
  const corpusJson = join(scratch.dist, 'corpus.json');
  const serverJs = join(scratch.dist, 'server.js');
  let live: LiveServer | undefined;
  try {
    // In this process, warm (modules loaded): what the first search costs beyond module loading.
    const warm: number[] = [];
    let expected: Answer | undefined;
    for (let i = 0; i < RUNS + 1; i++) {
      const t = performance.now();
      const data = JSON.parse(readFileSync(corpusJson, 'utf8')) as CorpusData;
      expected = localSearch(createSearchIndex(buildCorpus(data)), FIRST_QUERY);
      if (i) warm.push(performance.now() - t);
    }

    // Cold, alternating: baseline child, server, bare Node. Run 0 is an untimed warm-up.
    const base: number[] = [];
    const server: number[] = [];
    const node: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      await live?.stop();
      live = undefined;
      const b = await firstLine([COLD, FIRST_QUERY, String(LIMIT), corpusJson]);
      sameAnswer(JSON.parse(b.line) as Answer, expected!, 'baseline child');
      const s = await startServer(serverJs, workspace, settings);
      sameAnswer(s.first, expected!, 'first search');
      live = s;
      const n = await nodeStartup();
      if (i) { base.push(b.ms); server.push(s.firstAnswerMs); node.push(n); }
    }
    const bP50 = percentile(sorted(base), 50);
    const sP50 = percentile(sorted(server), 50);
    const nP50 = percentile(sorted(node), 50);
    console.log(`\nserver start to first answer ("${FIRST_QUERY}"), cold: Node process spawn → answer, ${RUNS} runs each, alternating`);
    row('server:   node server.js --stdio: initialize, initialized, search   ', server);
    row('baseline: node dist-test/bench-cold.js: core, corpus.json, model, index,', base);
    console.log('            search (activation + first search, before the split)');
    console.log(`  ratio (p50): ${ratioText(sP50, bP50)}  (${target(sP50 / bP50)})`);
    console.log(`  ratio (p90): ${ratioText(percentile(sorted(server), 90), percentile(sorted(base), 90))}`);
    row('for reference: Node start-up alone (node -e "")', node);
    row('               baseline in this process, warm (modules already loaded)', warm);
    const hostBase = bP50 - nP50;
    if (hostBase > 0) {
      console.log(`  ratio (p50), baseline without its Node start-up (activation in an already running extension host):`);
      console.log(`    ${ratioText(sP50, hostBase)}  (${target(sP50 / hostBase)})`);
    }

    // Round-trips over the live server against the same search in this process.
    const index = createSearchIndex(buildCorpus(benchCorpus().data));
    const { connection } = live!;
    for (const q of QUERIES) {
      const got = await withTimeout(connection.sendRequest<SearchResult>(Methods.search, { query: q, limit: LIMIT }), 'search');
      sameAnswer(got, localSearch(index, q), `search "${q}"`);
    }
    const rt: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const q = QUERIES[i % QUERIES.length]!;
      let t = performance.now();
      await withTimeout(connection.sendRequest<SearchResult>(Methods.search, { query: q, limit: LIMIT }), 'search');
      rt.push(performance.now() - t);
      t = performance.now();
      localSearch(index, q);
      local.push(performance.now() - t);
    }
    console.log(`\nsearch per request (${REQUESTS} sequential requests, ${QUERIES.length} queries in turn)`);
    row('server:   mlsysPapers/search round-trip over stdio', rt);
    row('baseline: the same search in this process (parseQuery + index.search)', local);
    console.log(`  ratio (p50): ${ratioText(percentile(sorted(rt), 50), percentile(sorted(local), 50))}`);
  } finally {
    await live?.stop();
    rmSync(workspace, { recursive: true, force: true });
    scratch.dispose();
  }
}
