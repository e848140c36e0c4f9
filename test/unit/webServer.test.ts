/**
 * The browser build of the language server (`src/host/browser/`, `dist/web/server.js`): built here
 * with the options `scripts/build.mjs` uses, then run as a Web Worker runs it — in a context with a
 * worker's globals and none of Node's (no `process`, `require`, `Buffer`, `module`), talking
 * JSON-RPC through `postMessage` on a `MessageChannel`. Workspace files use a scheme the server
 * cannot read itself (`memfs:`), so every one of them comes through the client's
 * `mlsysPapers/readFile`, as `vscode.workspace.fs` answers it in the browser; the package's own
 * corpus and CSL files come from the client too (`initializationOptions.bundledCorpus`,
 * `mlsysPapers/readBundled`), as `extension.web.ts` gives them.
 */
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserMessageReader, BrowserMessageWriter, CompletionRequest, ConfigurationRequest, createMessageConnection, DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest, HoverRequest, InitializedNotification, InitializeRequest, type CompletionList, type Diagnostic,
  type DocumentDiagnosticReport, type Hover, type MarkupContent, type MessageConnection,
} from 'vscode-languageserver-protocol/browser';
import { BUNDLED_STYLES } from '../../src/core/cite/styles.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';
import type { CitePlan } from '../../src/core/service/types.js';
import {
  BUNDLED_PATH, Methods, type PreviewCitationsResult, type ReadBundledParams, type ReadBundledResult, type ReadFileParams, type ReadFileResult, type SearchResult, type StatParams, type StatResult,
} from '../../src/server/protocol.js';
// @ts-expect-error -- a plain ES module of the build scripts, without type declarations
import { webServerOptions } from '../../scripts/web-build.mjs';

const ROOT = join(__dirname, '../..');
let dir: string;
let script: string;
/** The compiled corpus, as `dist/corpus.json` has it. */
let corpusText: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mlsys-web-server-'));
  corpusText = JSON.stringify(loadCorpusDir(join(ROOT, 'corpus')).data);
  const out = join(dir, 'server.js');
  await build({ ...webServerOptions(out), absWorkingDir: ROOT, sourcemap: false, logLevel: 'silent' });
  script = readFileSync(out, 'utf8');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the server script as a worker does: its global scope is the worker's (`self`,
 * `postMessage`, `onmessage`, `addEventListener`), with the Web APIs a worker has.
 *
 * @returns the client's connection (its `mlsysPapers/readFile` and `mlsysPapers/stat` answered
 *   from `files`, `mlsysPapers/readBundled` from the repository), the workspace file requests the
 *   server sent (`method uri`, in order), the package files it asked for, and what it printed
 */
function startWorker(files: Record<string, string>, settings: Record<string, unknown> = { citationStyle: 'apa' }): { client: MessageConnection; logs: string[]; requests: string[]; bundled: string[]; stop(): void } {
  const channel = new MessageChannel();
  // Node's MessagePort is an EventTarget with `onmessage`, as a worker's scope is; its types say less.
  const worker = channel.port1 as unknown as { postMessage(m: unknown): void; addEventListener(t: string, fn: (e: unknown) => void): void; removeEventListener(t: string, fn: (e: unknown) => void): void; onmessage: unknown; close(): void };
  const page = channel.port2;
  const logs: string[] = [];
  const scope: Record<string, unknown> = {
    postMessage: (m: unknown) => worker.postMessage(m),
    addEventListener: (type: string, fn: (e: unknown) => void) => worker.addEventListener(type, fn),
    removeEventListener: (type: string, fn: (e: unknown) => void) => worker.removeEventListener(type, fn),
    console: { log: (...a: unknown[]) => logs.push(a.join(' ')), info: (...a: unknown[]) => logs.push(a.join(' ')), warn: (...a: unknown[]) => logs.push(a.join(' ')), error: (...a: unknown[]) => logs.push(a.join(' ')) },
    setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask, structuredClone,
    TextEncoder, TextDecoder, URL, URLSearchParams, AbortController, performance, crypto, MessageChannel, MessagePort, Event, EventTarget,
    navigator: { userAgent: 'test', language: 'en-US', hardwareConcurrency: 2 },
  };
  Object.defineProperty(scope, 'onmessage', { set: (fn) => { worker.onmessage = fn; }, get: () => worker.onmessage });
  scope.self = scope;
  const context = createContext(scope);
  runInContext(script, context, { filename: 'dist/web/server.js' });
  for (const name of ['process', 'require', 'Buffer', 'module', 'global', '__dirname']) {
    expect(runInContext(`typeof ${name}`, context), `a worker has no ${name}`).toBe('undefined');
  }

  const port = page as unknown as ConstructorParameters<typeof BrowserMessageReader>[0];
  const client = createMessageConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
  client.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'mlsysPapers' ? settings : null)));
  const requests: string[] = [];
  const isFolder = (uri: string) => Object.keys(files).some((k) => k.startsWith(`${uri.replace(/\/$/, '')}/`));
  client.onRequest(Methods.readFile, (p: ReadFileParams): ReadFileResult => {
    requests.push(`${Methods.readFile} ${p.uri}`);
    const text = files[p.uri];
    if (text !== undefined) return { text, mtime: 1, size: text.length };
    return isFolder(p.uri) ? { directory: true, mtime: 1, size: 0 } : { missing: true };
  });
  client.onRequest(Methods.stat, (p: StatParams): StatResult => {
    requests.push(`${Methods.stat} ${p.uri}`);
    const text = files[p.uri];
    if (text !== undefined) return { mtime: 1, size: text.length };
    return isFolder(p.uri) ? { directory: true, mtime: 1, size: 0 } : { missing: true };
  });
  client.onRequest(Methods.findFiles, () => []);
  const bundled: string[] = [];
  client.onRequest(Methods.readBundled, (p: ReadBundledParams): ReadBundledResult => {
    bundled.push(p.path);
    if (!BUNDLED_PATH.test(p.path)) return { missing: true };
    if (p.path === 'dist/corpus.json') return { text: corpusText };
    try {
      return { text: readFileSync(join(ROOT, p.path), 'utf8') };
    } catch {
      // expected for a path the package does not have: the client answers `missing`
      return { missing: true };
    }
  });
  client.listen();
  return {
    client,
    logs,
    requests,
    bundled,
    stop() {
      client.dispose();
      worker.close();
      page.close();
    },
  };
}

const PAPER = 'memfs:/ws/paper.tex';
const REFS = 'memfs:/ws/refs.bib';

/** Initializes the worker's server as VS Code's client does (our file system, our commands) and opens the paper with `text`. */
async function openPaper(w: ReturnType<typeof startWorker>, text: string): Promise<void> {
  await w.client.sendRequest(InitializeRequest.type, {
    processId: null, rootUri: null,
    capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: { dynamicRegistration: false } } },
    workspaceFolders: [{ uri: 'memfs:/ws', name: 'ws' }],
    initializationOptions: { fileSystem: true, clientCommands: true, bundledFiles: true, bundledCorpus: corpusText },
  });
  await w.client.sendNotification(InitializedNotification.type, {});
  await w.client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: PAPER, languageId: 'latex', version: 1, text } });
}

describe('the language server as a Web Worker (browser build)', () => {
  it('embeds no second copy of the package\'s data, and each bundled CSL file is a path the client may give', () => {
    expect(script).not.toContain('kwon2023efficient');
    expect(script).not.toContain('American Psychological Association 7th edition'); // csl/styles/apa.csl's title
    const files = ['styles', 'locales'].flatMap((d) => readdirSync(join(ROOT, 'csl', d)).map((f) => `csl/${d}/${f}`));
    expect(files.length).toBeGreaterThanOrEqual(Object.keys(BUNDLED_STYLES).length + 2);
    for (const f of [...files, 'dist/corpus.json']) expect(BUNDLED_PATH.test(f), f).toBe(true);
    for (const f of ['../package.json', 'csl/styles/../../x.csl', 'dist/server.js', '/etc/passwd']) expect(BUNDLED_PATH.test(f), f).toBe(false);
  });

  it('runs without Node, reads the workspace through the client, and answers search, completion, hover, diagnostics and citation plans', async () => {
    const text = '\\bibliography{refs}\n\\cite{pag}, \\cite{nosuch1999}.\n';
    const w = startWorker({ [REFS]: '@misc{own2020,\n  title = {Own},\n  year = {2020}\n}\n', [PAPER]: text });
    try {
      await openPaper(w, text);

      // The embedded corpus and its index.
      const search = await w.client.sendRequest(Methods.search, { query: 'paged attention', limit: 5 }) as SearchResult;
      expect(search.keys[0]).toBe('kwon2023efficient');

      const list = await w.client.sendRequest(CompletionRequest.type, { textDocument: { uri: PAPER }, position: { line: 1, character: 9 } }) as CompletionList;
      expect(list.items.map((i) => i.label)).toContain('kwon2023efficient');

      const unknown = await w.client.sendRequest(HoverRequest.type, { textDocument: { uri: PAPER }, position: { line: 1, character: 7 } }) as Hover;
      expect((unknown.contents as MarkupContent).value).toBe('Unknown key pag\n\n---\n\n✗ not in refs\\.bib');
      // Hover formats with citeproc-js and the embedded APA style and locale; the bibliography came through readFile.
      await w.client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: 'memfs:/ws/b.tex', languageId: 'latex', version: 1, text: '\\bibliography{refs}\n\\cite{kwon2023efficient}\n' } });
      const card = await w.client.sendRequest(HoverRequest.type, { textDocument: { uri: 'memfs:/ws/b.tex' }, position: { line: 1, character: 8 } }) as Hover;
      const value = (card.contents as MarkupContent).value;
      expect(value).toContain('Kwon, W\\., Li, Z\\., Zhuang, S\\., Sheng, Y\\., Zheng, L\\., Yu, C\\. H\\., Gonzalez, J\\. E\\., Zhang, H\\., & Stoica, I\\. \\(2023\\)\\. Efficient Memory Management');
      expect(value).toContain('✗ not in refs\\.bib');
      // The style and locales came from the client, each once.
      expect(w.bundled.sort()).toEqual(['csl/locales/locales-en-US.xml', 'csl/locales/locales-zh-CN.xml', 'csl/styles/apa.csl']);

      const report = await w.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: PAPER } }) as DocumentDiagnosticReport;
      const messages = (report as { items: Diagnostic[] }).items.map((d) => d.message);
      expect(messages.some((m) => m.includes('nosuch1999'))).toBe(true);

      // Citing plans the edit and the bibliography addition on the text the client gave.
      const plan = await w.client.sendRequest(Methods.planCitation, { uri: 'memfs:/ws/b.tex', position: { line: 1, character: 0 }, keys: ['yu2022orca'] }) as CitePlan;
      expect(plan.bibliography.kind).toBe('insert');
      expect(plan.bibliography).toMatchObject({ uri: REFS });
      expect(w.logs.join('\n')).not.toMatch(/error/i);
    } finally {
      w.stop();
    }
  });

  it('renders the Markdown preview\'s citations and bibliography (citeproc-js inside the worker; the style and the note\'s bibliography through the client)', async () => {
    const note = '---\nbibliography: refs.bib\n---\nSee [@own2020, p. 3] and @kwon2023efficient.\n';
    const w = startWorker({ [REFS]: '@misc{own2020,\n  title = {Own Work},\n  author = {Doe, Jane},\n  year = {2020}\n}\n', 'memfs:/ws/note.md': note });
    try {
      await openPaper(w, '\\cite{x}\n');
      const r = await w.client.sendRequest(Methods.previewCitations, { uri: 'memfs:/ws/note.md', languageId: 'markdown', text: note }) as PreviewCitationsResult;
      expect(r.error).toBeUndefined();
      const texts = r.citations.map((c) => [note.slice(c.start, c.end), c.html.replace(/<[^>]*>/g, '')]);
      expect(texts).toEqual([['[@own2020, p. 3]', '(Doe, 2020, p. 3)'], ['@kwon2023efficient', 'Kwon et al. (2023)']]);
      expect(r.bibliography?.html).toContain('id="ref-kwon2023efficient"');
      expect(r.bibliography?.html).toContain('Doe, J. (2020). <i>Own Work</i>');
      expect(w.logs.join('\n')).not.toMatch(/error/i);
    } finally {
      w.stop();
    }
  });

  it('reads a bibliography through the client once, then only stats it while it is unchanged', async () => {
    const text = '\\bibliography{refs}\n\\cite{pag}\n';
    // The document's bibliography is not also loaded as a library here (the library store reads it
    // once more; libraryServer.test.ts covers that): this is about the service's own reads.
    const w = startWorker({ [REFS]: '@misc{own2020,\n  title = {Own},\n  year = {2020}\n}\n', [PAPER]: text }, { citationStyle: 'apa', includeDocumentBibliography: false });
    try {
      await openPaper(w, text);
      const complete = () => w.client.sendRequest(CompletionRequest.type, { textDocument: { uri: PAPER }, position: { line: 1, character: 9 } }) as Promise<CompletionList>;
      expect((await complete()).items.map((i) => i.label)).toContain('kwon2023efficient');
      const reads = () => w.requests.filter((r) => r.startsWith(`${Methods.readFile} `));
      expect(reads()).toEqual([`${Methods.readFile} ${REFS}`]);
      const before = w.requests.length;
      for (let i = 0; i < 3; i++) await complete();
      await w.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: PAPER } });
      const after = w.requests.slice(before);
      expect(after.length).toBeGreaterThanOrEqual(4);
      expect(after.every((r) => r === `${Methods.stat} ${REFS}`)).toBe(true);
      expect(reads()).toHaveLength(1);
    } finally {
      w.stop();
    }
  });
});
