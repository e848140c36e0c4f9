/**
 * The language server's LaTeX project (`src/server/latexIndexer.ts`) over LSP: the workspace's
 * `.tex` files indexed at start (each read once, with progress), a section file given its root's
 * bibliography, and watched-file events and edits updating the graph without reading the workspace
 * again. Also the Node host's side: its listing of `.tex` files, the CLI's `sync` on a section file,
 * and the fixtures of issue 21's causes 1 and 2 (`fixtures/latex-project/`) read from disk.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompletionRequest, DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification, DocumentDiagnosticRequest, FileChangeType,
  type CompletionList, type FullDocumentDiagnosticReport, type LogMessageParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { createCitationService } from '../../src/core/service/service.js';
import { corpusView } from '../../src/core/service/types.js';
import { scopeSettings } from '../../src/core/config/settings.js';
import { nodeLatexProject } from '../../src/host/node/nodeLatexProject.js';
import { listNodeFiles } from '../../src/host/node/nodeServerHost.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { NodeBibWorkspace } from '../../src/host/node/nodeBibWorkspace.js';
import { LatexProjectIndexer } from '../../src/server/latexIndexer.js';
import { REAL_CLOCK } from '../../src/server/host.js';
import { realCorpus } from './helpers.js';
import { start, type Session } from './serverHarness.js';

const MAIN = '\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n\\bibliography{refs}\n\\end{document}\n';
const INTRO = 'See \\cite{smith2021paging} and \\cite{nosuch1999}.\n';
const SMITH = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';
const uri = (p: string) => URI.file(p).toString();
const INTRO_URI = uri('/ws/sections/intro.tex');

/** A server over a paper whose `.tex` files the host lists, once indexed. */
async function paper(extraFiles: Record<string, string> = {}, capabilities = {}): Promise<Session & { lists: () => number }> {
  const files: Record<string, string> = { '/ws/main.tex': MAIN, '/ws/sections/intro.tex': INTRO, '/ws/refs.bib': SMITH, ...extraFiles };
  let lists = 0;
  const s = await start(files, { citationStyle: 'apa' }, {
    fileSystem: {
      listFiles: async () => {
        lists++;
        return Object.keys(files).filter((p) => p.endsWith('.tex')).map((p) => URI.file(p));
      },
    },
  }, undefined, capabilities);
  await s.notified<LogMessageParams>('window/logMessage', (p) => /LaTeX project: \d+ \.tex file/.test(p.message));
  return Object.assign(s, { lists: () => lists });
}

const codes = async (s: Session) => {
  const r = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: INTRO_URI } }) as FullDocumentDiagnosticReport;
  return r.items.map((d) => `${d.code}: ${d.message}`);
};
const texReads = (s: Session, p: string) => s.reads.filter((r) => r === uri(p)).length;

describe('the LaTeX project over LSP', () => {
  it('indexes the workspace once and gives a section file its root\'s bibliography: diagnostics and completion', async () => {
    const s = await paper();
    expect(texReads(s, '/ws/main.tex')).toBe(1);
    s.open(INTRO_URI, 'latex', INTRO);
    // No wait: the server handles messages in order, and this host reads from memory (no I/O, no
    // timer), so an open document or a watched-file event is in the project before the next pull.
    expect(await codes(s)).toEqual(['unknown-key: Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.']);
    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: INTRO_URI }, position: { line: 0, character: 14 } }) as CompletionList;
    expect(list.items[0]!.label).toBe('smith2021paging');
    // Typing reads nothing again.
    await s.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: INTRO_URI, version: 2 }, contentChanges: [{ text: `${INTRO}More.\n` }] });
    await codes(s);
    expect(texReads(s, '/ws/main.tex')).toBe(1);
    expect(s.lists()).toBe(1);
  });

  it('follows watched-file events: a deleted root, then created again, read alone', async () => {
    const s = await paper({ '/ws/other.tex': 'x\n' });
    s.open(INTRO_URI, 'latex', INTRO);
    expect(await codes(s)).toHaveLength(1);
    await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/main.tex'), type: FileChangeType.Deleted }] });
    // Without its root the section declares nothing: it is checked against the workspace root's refs.bib, and says so.
    expect(await codes(s)).toEqual(['unknown-key: Unknown citation key "nosuch1999": not declared; checked against refs.bib at the workspace root; the MLSys Papers corpus does not know it either.']);
    await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/main.tex'), type: FileChangeType.Created }] });
    expect(await codes(s)).toHaveLength(1);
    expect(texReads(s, '/ws/main.tex')).toBe(2);
    expect(texReads(s, '/ws/other.tex')).toBe(1);
    expect(s.lists()).toBe(1);
  });

  it('indexes in slices of the host\'s clock, with progress, and a newer indexing cancels an older one', async () => {
    let clock = 0;
    const reports: string[] = [];
    let yields = 0;
    let changed = 0;
    const files = Array.from({ length: 10 }, (_, i) => URI.file(`/ws/f${i}.tex`));
    const indexer = new LatexProjectIndexer({
      list: async () => files,
      // Each read takes 5 ms of the fake clock: a 12 ms slice holds three.
      read: async () => { clock += 5; return '\\documentclass{article}'; },
      yield: async () => { yields++; },
      now: () => clock,
      clock: REAL_CLOCK,
      progress: async () => ({ report: (pct, msg) => reports.push(`${pct}% ${msg}`), done: () => reports.push('done') }),
      changed: () => { changed++; },
      log: { info() {}, warn() {}, error() {} },
      fail() {},
    });
    await indexer.index();
    expect(yields).toBe(3);
    expect(reports).toEqual(['30% 3/10', '60% 6/10', '90% 9/10', '100% 10/10', 'done']);
    expect(changed).toBe(1);
    expect(indexer.project.size).toBe(10);
    const first = indexer.index();
    const second = indexer.index();
    await Promise.all([first, second]);
    expect(changed).toBe(2);
    indexer.dispose();
  });
});

describe('LatexProjectIndexer', () => {
  it('takes an open document\'s unsaved text over the disk\'s, and the disk\'s again once it closes', async () => {
    const disk: Record<string, string> = { '/ws/main.tex': '\\documentclass{article}\n', '/ws/intro.tex': 'x\n' };
    let changed = 0;
    const indexer = new LatexProjectIndexer({
      list: async () => Object.keys(disk).map((p) => URI.file(p)),
      read: async (u) => disk[u.path],
      yield: async () => {},
      now: () => 0,
      clock: REAL_CLOCK,
      changed: () => { changed++; },
      log: { info() {}, warn() {}, error() {} },
      fail() {},
    });
    await indexer.index();
    const intro = URI.file('/ws/intro.tex');
    expect(indexer.project.rootsOf(intro)).toEqual([]);
    indexer.documentChanged(uri('/ws/main.tex'), '\\documentclass{article}\n\\input{intro}\n');
    expect(indexer.project.rootsOf(intro).map((r) => r.path)).toEqual(['/ws/main.tex']);
    // A new listing keeps the open document's text.
    await indexer.index();
    expect(indexer.project.rootsOf(intro).map((r) => r.path)).toEqual(['/ws/main.tex']);
    const before = changed;
    await indexer.documentClosed(uri('/ws/main.tex'));
    expect(indexer.project.rootsOf(intro)).toEqual([]);
    expect(changed).toBe(before + 1);
    indexer.dispose();
  });
});

describe('listNodeFiles', () => {
  it('lists regular .tex files breadth first, not entering hidden folders or node_modules, not following links, up to a limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mlsys-list-'));
    try {
      mkdirSync(join(dir, 'sections', 'deep'), { recursive: true });
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'node_modules'));
      for (const f of ['main.tex', 'sections/a.TEX', 'sections/deep/b.tex', '.git/c.tex', 'node_modules/d.tex', 'notes.txt']) writeFileSync(join(dir, f), 'x');
      symlinkSync(join(dir, 'main.tex'), join(dir, 'link.tex'));
      const found = await listNodeFiles([URI.file(dir)], ['.tex'], 100);
      expect(found!.map((u) => u.path.slice(URI.file(dir).path.length))).toEqual(['/main.tex', '/sections/a.TEX', '/sections/deep/b.tex']);
      expect(await listNodeFiles([URI.file(dir)], ['.tex'], 2)).toHaveLength(2);
      expect(await listNodeFiles([URI.parse('vscode-vfs://github/x')], ['.tex'], 2)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mlsys-papers sync on a section file', () => {
  it('finds the section\'s root under the working directory and plans the addition to the root\'s bibliography', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mlsys-sync-project-'));
    try {
      mkdirSync(join(dir, 'sections'));
      writeFileSync(join(dir, 'main.tex'), '\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n\\bibliography{refs}\n\\end{document}\n');
      const text = 'See \\cite{kwon2023efficient}.\n';
      writeFileSync(join(dir, 'sections/intro.tex'), text);
      writeFileSync(join(dir, 'refs.bib'), '');
      const r = await syncBibliography('sections/intro.tex', realCorpus(), { cwd: dir, dryRun: true, text });
      expect(r.code).toBe(0);
      expect(r.out[0]).toBe('refs.bib: would add kwon2023efficient');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the fixtures of issue 21 (causes 1 and 2), read from disk', () => {
  const FIXTURES = join(__dirname, 'fixtures/latex-project');
  /** The service's diagnostics for `sections/intro.tex` of a fixture folder, with the folder's project. */
  const diagnosticsOf = async (name: string) => {
    const dir = join(FIXTURES, name);
    const ws = new NodeBibWorkspace(dir);
    const corpus = realCorpus();
    const service = createCitationService({
      workspace: ws, corpus: () => corpusView(corpus, createSearchIndex(corpus)), config: () => scopeSettings({}),
      logger: { info() {}, warn() {}, error() {} }, project: await nodeLatexProject(ws, dir),
    });
    const file = join(dir, 'sections/intro.tex');
    return service.diagnostics(TextDocument.create(URI.file(file).toString(), 'latex', 1, readFileSync(file, 'utf8')));
  };

  it('section-without-magic-comment: the root\'s refs.bib defines smith2021paging; only nosuch1999 is unknown', async () => {
    expect((await diagnosticsOf('section-without-magic-comment')).map((d) => d.message)).toEqual([
      'Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.',
    ]);
  });

  it('magic-root-missing: a warning on the comment\'s line, and the detected root\'s bibliography', async () => {
    const d = await diagnosticsOf('magic-root-missing');
    expect(d.map((x) => [x.range.start.line, x.code])).toEqual([[0, 'missing-root']]);
    expect(d[0]!.message).toBe('The root file "/Users/someone/paper/main.tex" named by % !TEX root does not exist; the root used instead is main.tex.');
  });
});
