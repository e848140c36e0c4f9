/**
 * Issue 28, set 2, cause 3: diagnostics that depended on timing. (a) A `% !TeX root` naming a file
 * with no `\documentclass` whose bibliography is in a file it `\input`s: the answer must not depend
 * on whether the project's indexer has reached those files. (b) The indexer's read of a file from
 * disk must never overwrite the text of a document opened while the read was under way. The host
 * answers reads late (each read waits for the test to release it) and the edit timer runs on an
 * injected clock: nothing here depends on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { LatexProjectIndexer } from '../../src/server/latexIndexer.js';
import type { Clock } from '../../src/server/host.js';
import { MemoryWorkspace, serviceOver } from './memoryWorkspace.js';

const u = (p: string) => URI.file(p);
const silent = { info() {}, warn() {}, error() {} };

/** A clock whose timers run only when the test says (the server's injected clock). */
function fakeClock(): Pick<Clock, 'setTimeout' | 'clearTimeout'> & { runAll(): void } {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimeout: (fn: () => void) => { const id = next++; timers.set(id, fn); return id; },
    clearTimeout: (id: unknown) => { timers.delete(id as number); },
    runAll() { for (const [id, fn] of [...timers]) { timers.delete(id); fn(); } },
  };
}

/** Reads that answer only when released: each with the file's text when it was asked (a read under way), in any order. */
function lateReads(files: Record<string, string>): { read: (uri: URI) => Promise<string | undefined>; pending: () => string[]; release: (index?: number) => void } {
  const waiting: { path: string; text: string | undefined; done: (t: string | undefined) => void }[] = [];
  return {
    read: (uri) => new Promise((done) => waiting.push({ path: uri.path, text: files[uri.path], done })),
    pending: () => waiting.map((w) => w.path),
    release(index = 0) {
      const [w] = waiting.splice(index, 1);
      w!.done(w!.text);
    },
  };
}

/** Lets every settled promise's continuation run (no timer, no clock). */
const settle = async () => { for (let i = 0; i < 20; i++) await Promise.resolve(); };

describe('a % !TeX root without \\documentclass, its bibliography in a file it \\inputs (issue 28, cause 3a)', () => {
  const FILES = {
    // The root TeX is run on: its class and bibliography come from the files it \inputs.
    '/ws/thesis.tex': '\\input{setup/preamble}\n\\begin{document}\n\\input{chapters/one}\n\\printbibliography\n\\end{document}\n',
    '/ws/setup/preamble.tex': '\\documentclass{book}\n\\input{setup/bib}\n',
    '/ws/setup/bib.tex': '\\usepackage{biblatex}\n\\addbibresource{refs.bib}\n',
    '/ws/chapters/one.tex': '% !TeX root = ../thesis.tex\nSee \\cite{own2020} and \\cite{nosuch1999}.\n',
    '/ws/refs.bib': '@misc{own2020, title = {Own}}\n',
  };
  const CHAPTER = FILES['/ws/chapters/one.tex'];
  const EXPECTED = ['Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.'];

  it('gives the same diagnostics before, during and after the project indexes the workspace, its reads answered late', async () => {
    const reads = lateReads(FILES);
    const indexer = new LatexProjectIndexer({
      list: async () => Object.keys(FILES).filter((p) => p.endsWith('.tex')).map(u),
      read: reads.read, yield: async () => {}, now: () => 0, clock: fakeClock(), changed: () => {}, log: silent, fail: () => {},
    });
    const service = serviceOver(FILES, { project: indexer.project });
    const doc = TextDocument.create(u('/ws/chapters/one.tex').toString(), 'latex', 1, CHAPTER);
    const messages = async () => (await service.diagnostics(doc)).map((d) => d.message);
    // Before the indexer has read anything.
    expect(await messages()).toEqual(EXPECTED);
    const indexed = indexer.index();
    await settle();
    // Part way: the indexer has read the chapter and the preamble, not thesis.tex nor bib.tex.
    reads.release(reads.pending().indexOf('/ws/chapters/one.tex'));
    await settle();
    reads.release(reads.pending().indexOf('/ws/setup/preamble.tex'));
    await settle();
    expect(await messages()).toEqual(EXPECTED);
    while (reads.pending().length) { reads.release(); await settle(); }
    await indexed;
    expect(indexer.project.size).toBe(4);
    expect(await messages()).toEqual(EXPECTED);
    indexer.dispose();
  });

  it('reads the root\'s \\input chain on demand, bounded, and nothing outside the workspace', async () => {
    // A chain of 1,000 files; the bibliography is declared in the last: beyond the bound, not read.
    const files: Record<string, string> = { '/ws/refs.bib': '@misc{own2020, title = {Own}}\n', '/ws/ch.tex': CHAPTER.replace('../thesis.tex', 'thesis.tex') };
    files['/ws/thesis.tex'] = '\\input{c0}\n';
    for (let i = 0; i < 1000; i++) files[`/ws/c${i}.tex`] = i === 999 ? '\\addbibresource{refs.bib}\n' : `\\input{c${i + 1}}\n`;
    const ws = new MemoryWorkspace(files);
    const service = serviceOver({}, { workspace: ws });
    const doc = TextDocument.create(u('/ws/ch.tex').toString(), 'latex', 1, files['/ws/ch.tex']!);
    const d = await service.diagnostics(doc);
    expect(d.length).toBeGreaterThan(0);
    expect(ws.reads.filter((r) => /\/c\d+\.tex$/.test(r)).length).toBeLessThanOrEqual(256);
    // An \input leading outside the workspace is not read.
    const out = new MemoryWorkspace({ ...FILES, '/ws/setup/preamble.tex': '\\documentclass{book}\n\\input{/etc/bib}\n', '/etc/bib.tex': '\\addbibresource{refs.bib}\n' });
    await serviceOver({}, { workspace: out }).diagnostics(TextDocument.create(u('/ws/chapters/one.tex').toString(), 'latex', 1, CHAPTER));
    expect(out.reads.filter((r) => r.includes('/etc/'))).toEqual([]);
  });
});

describe('the indexer\'s late read and a document opened meanwhile (issue 28, cause 3b)', () => {
  it('keeps the open document\'s text when the disk read answers after the document opened', async () => {
    const disk = { '/ws/main.tex': '\\documentclass{article}\n' };
    const reads = lateReads(disk);
    const clock = fakeClock();
    const indexer = new LatexProjectIndexer({
      list: async () => [u('/ws/main.tex')],
      read: reads.read, yield: async () => {}, now: () => 0, clock, changed: () => {}, log: silent, fail: () => {},
    });
    const indexed = indexer.index();
    await settle();
    expect(reads.pending()).toEqual(['/ws/main.tex']);
    // The user opens main.tex and types a \bibliography before the disk read answers.
    indexer.documentChanged(u('/ws/main.tex').toString(), '\\documentclass{article}\n\\bibliography{refs}\n');
    reads.release();
    await indexed;
    clock.runAll();
    expect(indexer.project.declarationsOf(u('/ws/main.tex'))?.map((d) => d.path)).toEqual(['refs.bib']);
    indexer.dispose();
  });

  it('keeps the text a closed document\'s file has over a watched-file read begun before it was opened', async () => {
    const disk: Record<string, string> = { '/ws/main.tex': '\\documentclass{article}\n' };
    const reads = lateReads(disk);
    const indexer = new LatexProjectIndexer({
      list: async () => [], read: reads.read, yield: async () => {}, now: () => 0, clock: fakeClock(), changed: () => {}, log: silent, fail: () => {},
    });
    const main = u('/ws/main.tex').toString();
    // A watched-file event reads the old text; meanwhile the file is opened, saved with a \bibliography and closed.
    const changed = indexer.filesChanged([{ uri: main, kind: 'latex', how: 'changed' }]);
    await settle();
    indexer.documentChanged(main, '\\documentclass{article}\n\\bibliography{refs}\n');
    disk['/ws/main.tex'] = '\\documentclass{article}\n\\bibliography{refs}\n';
    const closed = indexer.documentClosed(main);
    await settle();
    expect(reads.pending()).toEqual(['/ws/main.tex', '/ws/main.tex']);
    // The close's read answers first; the watched-file event's, with the old text, last.
    reads.release(1);
    await closed;
    reads.release(0);
    await changed;
    expect(indexer.project.declarationsOf(u('/ws/main.tex'))?.map((d) => d.path)).toEqual(['refs.bib']);
    indexer.dispose();
  });
});
