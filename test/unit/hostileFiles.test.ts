/**
 * Files that are not what their names say (issue 20, findings 2, 4 and 5): a `refs.bib` that links
 * to `/dev/zero`, to `/dev/stdin` or is a FIFO, a folder named `refs.bib`, a file over the size cap;
 * bibliographies and libraries reached through symlinks and spelt with `.`, `..` and doubled
 * separators. Each case is built in a temporary folder (a repository can hold every one of them:
 * git stores symlinks), run through the CLI, `sync` and the language server over the Node host, and
 * must give one problem naming the file, at once, with nothing written outside the workspace and
 * nothing written to a library.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigurationRequest, createMessageConnection, DocumentDiagnosticRequest, type FullDocumentDiagnosticReport, ExecuteCommandRequest, ExitNotification, InitializedNotification, InitializeRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { main } from '../../src/cli.js';
import type { CitePlan } from '../../src/core/service/types.js';
import { readRegularFile, readRegularFileSync, realPathOf } from '../../src/host/node/regularFiles.js';
import { loadLibraryFiles } from '../../src/host/node/libraries.js';
import { realNodePath, readNodeFile, statNodeFile } from '../../src/host/node/nodeServerHost.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { Methods, type LibraryFileStatus, type LibraryStatusParams, type ReadFileParams, type ReadFileResult, type SearchResult } from '../../src/server/protocol.js';
import { snapshot } from './fileSnapshot.js';
import { realCorpus } from './helpers.js';
import { start, type Session } from './serverHarness.js';

const CORPUS = join(__dirname, '../../corpus');
const canFifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--help']).error === undefined;

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-hostile-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fresh folder with a workspace `ws/` and a folder outside it, `outside/` holding `refs.bib`. */
function layout(): { ws: string; outside: string } {
  const base = join(tmp, `case${n++}`);
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'refs.bib'), '@misc{theirs,\n  title = {Theirs},\n}\n');
  return { ws, outside };
}

/** The minimal inputs, by what they break. */
const fixtures = {
  /** `refs.bib` → `/dev/zero`: memory grew without bound. */
  devZero: (dir: string, name = 'refs.bib') => { symlinkSync('/dev/zero', join(dir, name)); return join(dir, name); },
  /** `refs.bib` → `/dev/stdin`: the server read its own LSP input. */
  devStdin: (dir: string, name = 'refs.bib') => { symlinkSync('/dev/stdin', join(dir, name)); return join(dir, name); },
  /** `refs.bib` a FIFO: blocked forever. */
  fifo: (dir: string, name = 'refs.bib') => { spawnSync('mkfifo', [join(dir, name)]); return join(dir, name); },
  /** A folder named `refs.bib`: "would create", then a raw `EISDIR`. */
  folder: (dir: string, name = 'refs.bib') => { mkdirSync(join(dir, name)); return join(dir, name); },
};

describe('reading: regular files only, within the cap (Node host)', () => {
  it.skipIf(!canFifo)('refuses a link to /dev/zero, a FIFO and a folder before reading, and a file over the cap', async () => {
    const { ws } = layout();
    const max = 1024;
    writeFileSync(join(ws, 'big.bib'), 'x'.repeat(max + 1));
    writeFileSync(join(ws, 'ok.bib'), '@misc{a,}\n');
    const cases: [string, string][] = [
      [fixtures.devZero(ws, 'zero.bib'), 'notFile'], [fixtures.fifo(ws, 'fifo.bib'), 'notFile'], [fixtures.folder(ws, 'dir.bib'), 'directory'],
      [join(ws, 'big.bib'), 'tooLarge'], [join(ws, 'missing.bib'), 'missing'], [join(ws, 'ok.bib'), 'file'],
    ];
    for (const [path, kind] of cases) {
      expect((await readRegularFile(path, max)).kind, path).toBe(kind);
      expect(readRegularFileSync(path, max).kind, path).toBe(kind);
    }
    expect(await readNodeFile(URI.file(join(ws, 'zero.bib')), max)).toMatchObject({ notFile: true });
    expect(await readNodeFile(URI.file(join(ws, 'big.bib')), max)).toMatchObject({ tooLarge: true, size: max + 1 });
    expect(await statNodeFile(URI.file(join(ws, 'fifo.bib')))).toMatch(/^s/);
  });

  it('finds real paths through symlinked folders, dangling symlinks, and files not there yet', async () => {
    const { ws, outside } = layout();
    symlinkSync(outside, join(ws, 'linkdir'));
    symlinkSync(join(outside, 'new.bib'), join(ws, 'dangling.bib'));
    symlinkSync(join(ws, 'loop1'), join(ws, 'loop2'));
    symlinkSync(join(ws, 'loop2'), join(ws, 'loop1'));
    const real = (p: string) => realPathOf(p);
    const wsReal = (await real(ws))!;
    const outReal = (await real(outside))!;
    expect(await real(join(ws, 'linkdir/refs.bib'))).toBe(join(outReal, 'refs.bib'));
    expect(await real(join(ws, 'linkdir/not/yet.bib'))).toBe(join(outReal, 'not/yet.bib'));
    expect(await real(join(ws, 'dangling.bib'))).toBe(join(outReal, 'new.bib'));
    expect(await real(join(ws, 'sub/../x.bib'))).toBe(join(wsReal, 'x.bib'));
    expect(await real(join(ws, 'loop1'))).toBeUndefined();
    expect((await realNodePath(URI.file(`${ws}//linkdir/./refs.bib`)))?.fsPath).toBe(join(outReal, 'refs.bib'));
  });
});

describe('the CLI: one line naming the file, at once', () => {
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, (s) => out.push(s), (s) => err.push(s));
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it.skipIf(!canFifo)('--library: a link to /dev/zero, a FIFO, a folder', async () => {
    const { ws } = layout();
    for (const [path, why] of [[fixtures.devZero(ws), 'not a regular file'], [fixtures.fifo(ws, 'fifo.bib'), 'not a regular file'], [fixtures.folder(ws, 'dir.bib'), 'is a folder, not a file']]) {
      const r = await run('list', '--library', path!, '--corpus', CORPUS);
      expect(r).toEqual({ code: 2, out: '', err: `mlsys-papers: --library ${path}: ${why}` });
    }
  });

  it('--library over the size cap', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'big.bib'), `@misc{a,\n  note = {${'x'.repeat(2048)}},\n}\n`);
    await expect(loadLibraryFiles([join(ws, 'big.bib')], { cacheDir: false, maxBytes: 1024 })).rejects.toThrow(/big\.bib: larger than 0 MB/);
  });

  it.skipIf(!canFifo)('--library → /dev/stdin, with stdin a pipe, in a process of its own', async () => {
    const { ws } = layout();
    const link = fixtures.devStdin(ws);
    const cli = join(tmp, 'cli.js');
    await build({ entryPoints: [join(__dirname, '../../src/cli.ts')], outfile: cli, bundle: true, platform: 'node', target: 'node18', format: 'cjs', logLevel: 'silent' });
    const r = spawnSync(process.execPath, [cli, 'list', '--library', link, '--corpus', CORPUS], { input: '@misc{fromstdin,}\n', encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe(`mlsys-papers: --library ${link}: not a regular file\n`);
    expect(r.status).toBe(2);
  });

  it.skipIf(!canFifo)('sync FILE where FILE is a FIFO', async () => {
    const { ws } = layout();
    const fifo = fixtures.fifo(ws, 'paper.tex');
    expect(await run('sync', fifo, '--corpus', CORPUS)).toEqual({ code: 2, out: '', err: `mlsys-papers: sync: cannot read ${fifo}: not a regular file` });
  });
});

describe('sync: declared bibliographies that are not files, and symlinks that lead out', () => {
  const sync = (ws: string, text: string, opts: { dryRun?: boolean; allowOutside?: boolean } = {}) =>
    syncBibliography('paper.tex', realCorpus(), { cwd: ws, text, ...opts });
  const paper = (bib: string) => `\\cite{kwon2023efficient}\n\\bibliography{${bib}}\n`;

  it('a folder named refs.bib: the same refusal with and without --dry-run, no EISDIR', async () => {
    const { ws } = layout();
    fixtures.folder(ws);
    for (const dryRun of [true, false]) {
      expect(await sync(ws, paper('refs'), { dryRun })).toEqual({ code: 2, out: [], err: ['refs.bib: is a folder, not a file; nothing was written'] });
    }
  });

  it.skipIf(!canFifo)('refs.bib → /dev/zero, /dev/stdin, or a FIFO: "not a regular file", at once', async () => {
    for (const make of [fixtures.devZero, fixtures.devStdin, fixtures.fifo]) {
      const { ws } = layout();
      make(ws);
      expect(await sync(ws, paper('refs'))).toEqual({ code: 2, out: [], err: ['refs.bib: not a regular file; nothing was written'] });
    }
  });

  it('a declared file over the cap is named, not created over', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'refs.bib'), 'x'.repeat(2048));
    const r = await syncBibliography('paper.tex', realCorpus(), { cwd: ws, text: paper('refs'), maxBytes: 1024 });
    expect(r).toEqual({ code: 2, out: [], err: [expect.stringMatching(/^refs\.bib: larger than 0 MB \(0 MB\); nothing was written$/)] });
  });

  it('\\bibliography{linkdir/refs} and \\bibliography{linkfile}: refused, the outside file unchanged; --allow-outside writes', async () => {
    const { ws, outside } = layout();
    symlinkSync(outside, join(ws, 'linkdir'));
    symlinkSync(join(outside, 'refs.bib'), join(ws, 'linkfile.bib'));
    const before = snapshot(outside);
    for (const bib of ['linkdir/refs', 'linkfile', 'linkdir/new', './sub/../linkdir/refs']) {
      for (const dryRun of [true, false]) {
        const r = await sync(ws, paper(bib), { dryRun });
        expect(r.code, bib).toBe(2);
        expect(r.err, bib).toEqual([expect.stringMatching(/: is outside the working directory; it was not changed; add kwon2023efficient by hand, or pass --allow-outside to write there$/)]);
      }
    }
    expect(snapshot(outside)).toEqual(before);
    const allowed = await sync(ws, paper('linkfile'), { allowOutside: true });
    expect(allowed).toMatchObject({ code: 0, out: ['linkfile.bib: added kwon2023efficient'] });
    expect(readFileSync(join(outside, 'refs.bib'), 'utf8')).toMatch(/^@misc\{theirs,[^]*@inproceedings\{kwon2023efficient,/);
  });

  it('a dangling symlink to a file outside is not created through', async () => {
    const { ws, outside } = layout();
    symlinkSync(join(outside, 'new.bib'), join(ws, 'dangling.bib'));
    const r = await sync(ws, paper('dangling'));
    expect(r.code).toBe(2);
    expect(existsSync(join(outside, 'new.bib'))).toBe(false);
  });

  it('--allow-outside on the command line', async () => {
    const { ws, outside } = layout();
    symlinkSync(outside, join(ws, 'linkdir'));
    writeFileSync(join(ws, 'paper.tex'), paper('linkdir/refs'));
    const cwd = process.cwd();
    process.chdir(ws);
    try {
      const out: string[] = [];
      const err: string[] = [];
      const refused = await main(['sync', 'paper.tex', '--corpus', CORPUS], (s) => out.push(s), (s) => err.push(s));
      expect(refused).toBe(2);
      expect(err).toEqual(['mlsys-papers: linkdir/refs.bib: is outside the working directory; it was not changed; add kwon2023efficient by hand, or pass --allow-outside to write there']);
      expect(await main(['sync', 'paper.tex', '--allow-outside', '--corpus', CORPUS], (s) => out.push(s), (s) => err.push(s))).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(readFileSync(join(outside, 'refs.bib'), 'utf8')).toMatch(/kwon2023efficient/);
  });
});

describe('the language server (Node host on a real folder)', () => {
  /** A server over the disk, with `ws` as its workspace folder. */
  async function diskServer(ws: string, settings: Record<string, unknown>): Promise<Session> {
    const { nodeServerHost } = await import('../../src/host/node/nodeServerHost.js');
    const host = nodeServerHost(join(__dirname, '../../dist'));
    return start({}, { citationStyle: 'apa', ...settings }, { fileSystem: host.fileSystem }, undefined, {}, ws);
  }
  const settled = (s: Session, count: number) => s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length === count && p.files.every((f) => f.state !== 'loading'));

  it.skipIf(!canFifo)('libraries that link to /dev/zero or /dev/stdin, a FIFO, a folder, a file over the cap: one problem each, at once; the rest keep working', async () => {
    const { ws } = layout();
    fixtures.devZero(ws, 'zero.bib');
    fixtures.devStdin(ws, 'stdin.bib');
    fixtures.fifo(ws, 'fifo.bib');
    fixtures.folder(ws, 'dir.bib');
    writeFileSync(join(ws, 'big.bib'), `@misc{big,\n  note = {${'x'.repeat(1024 * 1024)}},\n}\n`);
    writeFileSync(join(ws, 'good.bib'), '@misc{smith2024good,\n  title = {A Good Library Entry},\n}\n');
    const s = await diskServer(ws, { libraries: ['zero.bib', 'stdin.bib', 'fifo.bib', 'dir.bib', 'big.bib', 'good.bib'], maxFileSizeMB: 1 });
    const { files } = await settled(s, 6);
    const by = (name: string) => files.find((f: LibraryFileStatus) => f.name === name)!;
    for (const name of ['zero.bib', 'stdin.bib', 'fifo.bib']) expect(by(name), name).toMatchObject({ state: 'error', message: 'cannot be read: not a regular file' });
    expect(by('dir.bib')).toMatchObject({ state: 'error', message: 'cannot be read: a folder, not a file' });
    expect(by('big.bib')).toMatchObject({ state: 'error', message: 'cannot be read: larger than 1 MB' });
    expect(by('good.bib')).toMatchObject({ state: 'ready', entries: 1 });
    const hits = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'good library entry' });
    expect(hits.keys[0]).toBe('smith2024good');
  });

  it.skipIf(!canFifo)('a document whose bibliography is a FIFO: citing into it is refused at once, nothing created over it', async () => {
    const { ws } = layout();
    fixtures.fifo(ws, 'refs.bib');
    const s = await diskServer(ws, {});
    const doc = URI.file(join(ws, 'paper.tex')).toString();
    s.open(doc, 'latex', '\\cite{kwon2023efficient}\n\\bibliography{refs}\n');
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 0, character: 0 }, keys: ['yu2022orca'] });
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', reason: 'not-regular', keys: ['yu2022orca'] });
  });

  it.skipIf(!canFifo)('a declared bibliography that links to /dev/zero, is a FIFO or a folder is said to be unreadable, not missing', async () => {
    for (const make of [fixtures.devZero, fixtures.fifo, fixtures.folder]) {
      const { ws } = layout();
      make(ws, 'refs.bib');
      const s = await diskServer(ws, {});
      const doc = URI.file(join(ws, 'paper.tex')).toString();
      s.open(doc, 'latex', '\\documentclass{article}\n\\begin{document}\n\\cite{kwon2023efficient,nosuch1999}\n\\bibliography{refs}\n\\end{document}\n');
      const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc } }) as FullDocumentDiagnosticReport;
      expect(report.items.map((d) => [d.code, d.message]), make.name).toEqual([
        ['unreadable-bibliography', '"kwon2023efficient" is in the MLSys Papers corpus; refs.bib is not a regular file (a device, a pipe, a folder or a link that leads to none), so it is not read.'],
        ['unknown-key', 'Unknown citation key "nosuch1999": the MLSys Papers corpus does not know it, and the declared bibliography (refs.bib) is missing or cannot be read.'],
      ]);
      s.dispose();
    }
  });

  it('a bibliography through a symlinked folder that leads out of the workspace is refused, not written', async () => {
    const { ws, outside } = layout();
    symlinkSync(outside, join(ws, 'linkdir'));
    const s = await diskServer(ws, {});
    const doc = URI.file(join(ws, 'paper.tex')).toString();
    s.open(doc, 'latex', 'See .\n\\bibliography{linkdir/refs}\n');
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 0, character: 4 }, keys: ['yu2022orca'] });
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
    s.open(URI.file(join(ws, 'b.tex')).toString(), 'latex', 'See .\n\\bibliography{linkdir/fresh}\n');
    const create = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: URI.file(join(ws, 'b.tex')).toString(), position: { line: 0, character: 4 }, keys: ['yu2022orca'] });
    expect(create.bibliography).toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
  });

  it('mlsysPapers.allowWritesOutsideWorkspace from the user lets a symlinked bibliography be written; from a workspace it does not', async () => {
    const { ws, outside } = layout();
    symlinkSync(join(outside, 'refs.bib'), join(ws, 'refs.bib'));
    const plan = async (settings: Record<string, unknown>) => {
      const s = await diskServer(ws, settings);
      const doc = URI.file(join(ws, 'paper.tex')).toString();
      s.open(doc, 'latex', 'See .\n\\bibliography{refs}\n');
      return (await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 0, character: 4 }, keys: ['yu2022orca'] })).bibliography;
    };
    expect(await plan({})).toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
    expect(await plan({ allowWritesOutsideWorkspace: true })).toMatchObject({ kind: 'insert' });
    expect(await plan({ allowWritesOutsideWorkspace: true, __fromWorkspace: ['allowWritesOutsideWorkspace'] })).toMatchObject({ kind: 'refuse' });
  });

  it('a library the workspace settings name through a symlink that leads out is not read', async () => {
    const { ws, outside } = layout();
    symlinkSync(join(outside, 'refs.bib'), join(ws, 'link.bib'));
    writeFileSync(join(ws, 'own.bib'), '@misc{own,\n  title = {Own},\n}\n');
    const s = await diskServer(ws, { libraries: ['link.bib', 'own.bib'], __fromWorkspace: ['libraries'] });
    const { files } = await settled(s, 1);
    expect(files.map((f) => f.name)).toEqual(['own.bib']);
    expect(s.messages.map((m) => m.message)).toEqual([expect.stringMatching(/name libraries outside the workspace \(.*link\.bib\)/)]);
    await s.client.sendRequest(Methods.libraryStatus);
  });

  it('a library named through a symlinked folder is never written', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'refs.bib'), '@misc{mine,\n  title = {Mine},\n}\n');
    symlinkSync(ws, join(ws, '..', 'alias'));
    const s = await diskServer(ws, { libraries: [join(ws, '..', 'alias', 'refs.bib')] });
    await settled(s, 1);
    const doc = URI.file(join(ws, 'paper.tex')).toString();
    s.open(doc, 'latex', 'See .\n\\bibliography{refs}\n');
    await s.client.sendRequest(ExecuteCommandRequest.type, { command: 'mlsysPapers.addToBibliography', arguments: [doc, 'yu2022orca'] });
    expect(s.edits).toEqual([]);
    expect(s.messages.map((m) => m.message)).toEqual([expect.stringMatching(/refs\.bib is one of your libraries/)]);
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 0, character: 4 }, keys: ['yu2022orca'] });
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', reason: 'library' });
  });
});

describe('the language server: a library spelt another way is still a library (in-memory host)', () => {
  for (const spelling of ['/ws/sub/../refs.bib', '/ws/./refs.bib', '/ws//refs.bib']) {
    it(`${spelling}: no workspace/applyEdit for the library`, async () => {
      const s = await start({ '/ws/refs.bib': '@misc{mine,\n  title = {Mine},\n}\n' }, { citationStyle: 'apa', libraries: [spelling] });
      const doc = URI.file('/ws/paper.tex').toString();
      s.open(doc, 'latex', 'See .\n\\bibliography{refs}\n');
      await s.client.sendRequest(ExecuteCommandRequest.type, { command: 'mlsysPapers.addToBibliography', arguments: [doc, 'yu2022orca'] });
      expect(s.edits).toEqual([]);
      expect(s.messages.map((m) => m.message)).toEqual([expect.stringMatching(/refs\.bib is one of your libraries/)]);
      // One more round trip: the server has the answer to its warning before the session closes.
      await s.client.sendRequest(Methods.libraryStatus);
    });
  }
});

describe('the language server through the client (the browser build, VS Code: mlsysPapers/readFile)', () => {
  it('sends the cap, and takes notFile, tooLarge, and an older client\'s oversized text as one problem each', async () => {
    const asked: ReadFileParams[] = [];
    const big = `@misc{big,\n  note = {${'x'.repeat(1024 * 1024)}},\n}\n`;
    const s = await start({}, { citationStyle: 'apa', libraries: ['/ws/dev.bib', '/ws/big.bib', '/ws/old.bib', '/ws/good.bib'], maxFileSizeMB: 1 }, { fileSystem: null }, { fileSystem: true });
    s.client.onRequest(Methods.readFile, (p: ReadFileParams): ReadFileResult => {
      asked.push(p);
      if (p.uri.endsWith('dev.bib')) return { notFile: true, mtime: 1, size: 0 };
      if (p.uri.endsWith('big.bib')) return { tooLarge: true, mtime: 1, size: big.length };
      if (p.uri.endsWith('old.bib')) return { text: big, mtime: 1, size: big.length };
      return { text: '@misc{smith2024good,\n  title = {Good},\n}\n', mtime: 1, size: 40 };
    });
    const { files } = await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length === 4 && p.files.every((f) => f.state !== 'loading'));
    expect(files.map((f) => [f.name, f.state, f.message])).toEqual([
      ['dev.bib', 'error', 'cannot be read: not a regular file'],
      ['big.bib', 'error', 'cannot be read: larger than 1 MB'],
      ['old.bib', 'error', 'cannot be read: larger than 1 MB'],
      ['good.bib', 'ready', undefined],
    ]);
    expect(asked.every((p) => p.maxBytes === 1024 * 1024)).toBe(true);
  });
});

describe('mlsys-papers lsp --stdio, a process of its own', () => {
  it.skipIf(!canFifo)('a library that links to /dev/stdin is "not a regular file"; the server keeps reading its LSP input and answering', async () => {
    const { ws } = layout();
    fixtures.devStdin(ws, 'stdin.bib');
    writeFileSync(join(ws, 'good.bib'), '@misc{smith2024good,\n  title = {A Good Library Entry},\n}\n');
    const dist = join(tmp, 'lsp-dist');
    mkdirSync(dist, { recursive: true });
    await build({ entryPoints: [join(__dirname, '../../src/cli.ts')], outfile: join(dist, 'cli.js'), bundle: true, platform: 'node', target: 'node18', format: 'cjs', logLevel: 'silent' });
    expect(await main(['build-corpus', CORPUS, join(dist, 'corpus.json')], () => undefined, () => undefined)).toBe(0);
    const child = spawn(process.execPath, [join(dist, 'cli.js'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const client = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    try {
      client.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'mlsysPapers' ? { libraries: ['stdin.bib', 'good.bib'] } : null)));
      const statuses: LibraryStatusParams[] = [];
      const settledStatus = new Promise<LibraryStatusParams>((resolve) => client.onNotification(Methods.libraryStatusChanged, (p: LibraryStatusParams) => {
        statuses.push(p);
        if (p.files.length === 2 && p.files.every((f) => f.state !== 'loading')) resolve(p);
      }));
      client.listen();
      await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: { workspace: { configuration: true } }, workspaceFolders: [{ uri: URI.file(ws).toString(), name: 'ws' }] });
      await client.sendNotification(InitializedNotification.type, {});
      const { files } = await settledStatus;
      expect(files.map((f) => [f.name, f.state, f.message])).toEqual([['stdin.bib', 'error', 'cannot be read: not a regular file'], ['good.bib', 'ready', undefined]]);
      const hits = await client.sendRequest<SearchResult>(Methods.search, { query: 'good library entry' });
      expect(hits.keys[0]).toBe('smith2024good');
      await client.sendRequest(ShutdownRequest.type);
      await client.sendNotification(ExitNotification.type);
    } finally {
      client.dispose();
      child.kill();
    }
  });
});
