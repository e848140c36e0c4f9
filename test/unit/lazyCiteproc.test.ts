/**
 * citeproc-js is loaded by the Node language server on the first formatted reference, never at
 * start: it is the largest part of the server's code, and most sessions format no reference.
 *
 * The server is bundled from the current sources as `scripts/build.mjs` bundles it (`server.js`
 * beside `csl.js` and `corpus.json`), then run in a child process over `--stdio`, as other editors
 * run it. A preloaded module (`--require`) reports every module the process loads on stderr, so the
 * test sees the server's module graph before and after the first reference it formats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompletionRequest, ConfigurationRequest, createMessageConnection, DidOpenTextDocumentNotification, ExitNotification, InitializedNotification,
  InitializeRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter, type MessageConnection,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';
import { Methods, type FormatResult, type SearchResult } from '../../src/server/protocol.js';

const ROOT = join(__dirname, '../..');
/** What each module load is reported as, on the server's stderr. */
const LOADED = 'lazy-citeproc-test: loaded ';
/**
 * A property of citeproc-js's `CSL` object (`citeproc_commonjs.js`); property names survive
 * minification, so the text of a bundle that holds citeproc-js contains it.
 */
const CITEPROC_MARK = 'PROCESSOR_VERSION';

let tmp: string;
let dist: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mlsys-lazy-citeproc-'));
  dist = join(tmp, 'dist');
  mkdirSync(dist);
  // The options of scripts/build.mjs for these two outputs (no source maps: nothing reads them here).
  const common = { bundle: true, platform: 'node', target: 'node18', format: 'cjs', minify: true, logLevel: 'silent', absWorkingDir: ROOT } as const;
  await Promise.all([
    build({ ...common, entryPoints: ['src/host/node/nodeServerMain.ts'], outfile: join(dist, 'server.js') }),
    build({ ...common, entryPoints: ['src/core/cite/citeproc.ts'], outfile: join(dist, 'csl.js') }),
  ]);
  writeFileSync(join(dist, 'corpus.json'), JSON.stringify(loadCorpusDir(join(ROOT, 'corpus')).data));
  // The server reads the bundled styles and locales from `../csl/` beside its folder.
  symlinkSync(join(ROOT, 'csl'), join(tmp, 'csl'), 'dir');
  writeFileSync(join(tmp, 'report-loads.cjs'), [
    "const Module = require('node:module');",
    'const load = Module._load;',
    'Module._load = function (request, parent, isMain) {',
    '  const exported = load.apply(this, arguments);',
    `  process.stderr.write(${JSON.stringify(LOADED)} + Module._resolveFilename(request, parent, isMain) + '\\n');`,
    '  return exported;',
    '};',
  ].join('\n'));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The server in a child process, the client connected to its stdio, and the files it has loaded so far. */
async function startServer(): Promise<{ client: MessageConnection; loaded: () => string[]; loadedWhen: (ok: (files: string[]) => boolean) => Promise<string[]>; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--require', join(tmp, 'report-loads.cjs'), join(dist, 'server.js'), '--stdio'], {
    cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  const loaded = () => stderr.split('\n').filter((l) => l.startsWith(LOADED)).map((l) => l.slice(LOADED.length));
  /** Waits for the child's report of loaded files (stderr, a pipe of its own) to satisfy `ok`. */
  const loadedWhen = (ok: (files: string[]) => boolean) => new Promise<string[]>((resolve) => {
    const check = () => {
      if (!ok(loaded())) return;
      child.stderr!.off('data', check);
      resolve(loaded());
    };
    child.stderr!.on('data', check);
    check();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const client = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  client.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'mlsysPapers' ? { citationStyle: 'apa' } : null)));
  client.listen();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    client,
    loaded,
    loadedWhen,
    async stop() {
      // A server that already died is ended all the same; what killed it is in the test's failure.
      await client.sendRequest(ShutdownRequest.type).catch((e: unknown) => console.error(`lazyCiteproc: shutdown: ${String(e)}\n${stderr.split('\n').filter((l) => !l.startsWith(LOADED)).join('\n')}`));
      await client.sendNotification(ExitNotification.type).catch((e: unknown) => console.error(`lazyCiteproc: exit: ${String(e)}`));
      client.dispose();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

describe('the Node language server loads citeproc-js lazily', () => {
  it('bundles citeproc-js in csl.js only, not in server.js', () => {
    // Not `toContain`: its failure message would print the whole bundle.
    expect(readFileSync(join(dist, 'csl.js'), 'utf8').includes(CITEPROC_MARK), 'the mark of citeproc-js is not in csl.js: update CITEPROC_MARK').toBe(true);
    expect(readFileSync(join(dist, 'server.js'), 'utf8').includes(CITEPROC_MARK), 'server.js holds citeproc-js: it would be parsed at every start').toBe(false);
  });

  it('loads csl.js on the first formatted reference, not at start nor for search and completion', async () => {
    const s = await startServer();
    try {
      const csl = join(dist, 'csl.js');
      const citeproc = (files: string[]) => files.filter((f) => f === csl || /[\\/]citeproc[\\/]/.test(f));
      await s.client.sendRequest(InitializeRequest.type, {
        processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } },
        workspaceFolders: [{ uri: URI.file(tmp).toString(), name: 'ws' }],
      });
      await s.client.sendNotification(InitializedNotification.type, {});
      const doc = URI.file(join(tmp, 'paper.tex')).toString();
      await s.client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: doc, languageId: 'latex', version: 1, text: '\\cite{kwo}\n' } });
      const found = await s.client.sendRequest(Methods.search, { query: 'paged attention' }) as SearchResult;
      expect(found.keys).toContain('kwon2023efficient');
      await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: doc }, position: { line: 0, character: 9 } });
      // The hook works: the server's own script is among the files it saw.
      expect(s.loaded()).toContain(join(dist, 'server.js'));
      expect(citeproc(s.loaded()), 'citeproc-js was loaded before any reference was formatted').toEqual([]);

      const formatted = await s.client.sendRequest(Methods.format, { keys: ['kwon2023efficient'], scope: doc }) as FormatResult;
      expect(formatted).toEqual({ references: [expect.stringMatching(/^Kwon, W\., Li, Z\., .*PagedAttention/)] });
      // The answer (stdout) and the report of the load (stderr) come through two pipes: the report is waited for.
      expect(citeproc(await s.loadedWhen((files) => citeproc(files).length > 0))).toEqual([csl]);
    } finally {
      await s.stop();
    }
  });
});
