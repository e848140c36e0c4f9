import { describe, expect, it } from 'vitest';
import { URI, Utils } from 'vscode-uri';
import { BibCache } from '../../src/core/bibliography/bibCache.js';
import { planBibliographyUpdate, planCitationSync, resolveBibliography } from '../../src/core/bibliography/resolve.js';
import { isInside } from '../../src/core/workspace/paths.js';
import { entry } from './helpers.js';
import { MemoryWorkspace } from './memoryWorkspace.js';

const doc = (path: string, text: string, languageId = path.endsWith('.tex') ? 'latex' : 'markdown') => ({ uri: URI.file(path), languageId, text });
const paths = (us: readonly URI[]) => us.map((u) => u.path);
const smith = entry({ key: 'smith2020thing', title: 'A Thing' });

describe('resolveBibliography', () => {
  it('reads \\bibliography relative to the document, and lists declared files that do not exist', async () => {
    const ws = new MemoryWorkspace({ '/ws/paper/refs.bib': '@misc{a, title={A}}\n' });
    const bib = await resolveBibliography(ws, doc('/ws/paper/main.tex', '\\bibliography{refs,more}\n'));
    expect(bib!.root.path).toBe('/ws/paper/main.tex');
    expect(bib!.files.map((s) => [s.uri.path, s.entries.map((e) => e.key)])).toEqual([['/ws/paper/refs.bib', ['a']]]);
    expect(paths(bib!.missing)).toEqual(['/ws/paper/more.bib']);
  });

  it('follows % !TEX root to the root file and reads its declarations relative to it', async () => {
    const ws = new MemoryWorkspace({
      '/ws/main.tex': '\\documentclass{book}\n\\addbibresource{bib/refs.bib}\n\\begin{document}\\end{document}\n',
      '/ws/bib/refs.bib': '@misc{b, title={B}}\n',
    });
    const bib = await resolveBibliography(ws, doc('/ws/chapters/one.tex', '% !TEX root = ../main.tex\n\\chapter{One}\n'));
    expect(bib!.root.path).toBe('/ws/main.tex');
    expect(bib!.files.map((s) => s.uri.path)).toEqual(['/ws/bib/refs.bib']);
  });

  it('uses latexRoot for documents without a magic comment, but not one from the workspace settings that leaves the workspace', async () => {
    const ws = new MemoryWorkspace({ '/ws/main.tex': '\\bibliography{refs}\n', '/ws/refs.bib': '', '/elsewhere/main.tex': '\\bibliography{x}\n' });
    const chapter = doc('/ws/ch.tex', '\\chapter{A}\n');
    const base = URI.file('/ws');
    expect((await resolveBibliography(ws, chapter, { latexRoot: 'main.tex', latexRootBase: base }))!.root.path).toBe('/ws/main.tex');
    const escaping = { latexRoot: '../elsewhere/main.tex', latexRootBase: base };
    expect((await resolveBibliography(ws, chapter, { ...escaping, latexRootFromWorkspace: true }))!.root.path).toBe('/ws/ch.tex');
    expect((await resolveBibliography(ws, chapter, escaping))!.root.path).toBe('/elsewhere/main.tex');
  });

  it('gives a Markdown document without its own bibliography that of its Quarto project', async () => {
    const ws = new MemoryWorkspace({
      '/ws/site/_quarto.yml': 'project:\n  type: book\nbibliography: references.bib\n',
      '/ws/site/references.bib': '@misc{q, title={Q}}\n',
      '/ws/site/chapters/own.bib': '@misc{o, title={O}}\n',
    });
    const project = await resolveBibliography(ws, doc('/ws/site/chapters/intro.qmd', '# Intro\n', 'quarto'));
    expect(project!.root.path).toBe('/ws/site/_quarto.yml');
    expect(project!.files.map((s) => s.entries[0]!.key)).toEqual(['q']);
    const own = await resolveBibliography(ws, doc('/ws/site/chapters/own.qmd', '---\nbibliography: own.bib\n---\n', 'quarto'));
    expect(own!.files.map((s) => s.entries[0]!.key)).toEqual(['o']);
    const outside = await resolveBibliography(ws, doc('/ws/other/note.md', '# Note\n'));
    expect(outside!.files).toEqual([]);
  });

  it("gives a bookdown chapter the bibliography of its book's index.Rmd (beside _bookdown.yml)", async () => {
    const ws = new MemoryWorkspace({
      '/ws/book/_bookdown.yml': 'book_filename: "book"\n',
      '/ws/book/index.Rmd': '---\ntitle: "A Book"\nbibliography: [book.bib, packages.bib]\n---\n# Preface\n',
      '/ws/book/book.bib': '@book{xie2015, title={Dynamic Documents with R and knitr}}\n',
      '/ws/book/packages.bib': '@manual{R-base, title={R}}\n',
      '/ws/notes/index.Rmd': '---\nbibliography: other.bib\n---\n',
    });
    const chapter = await resolveBibliography(ws, doc('/ws/book/04-citations.Rmd', 'See [@xie2015].\n', 'rmd'));
    expect(chapter!.root.path).toBe('/ws/book/index.Rmd');
    expect(chapter!.files.map((s) => s.entries[0]!.key)).toEqual(['xie2015', 'R-base']);
    // No _bookdown.yml: a folder's index.Rmd is no book's.
    const note = await resolveBibliography(ws, doc('/ws/notes/other.Rmd', 'Text.\n', 'rmd'));
    expect(note!.root.path).toBe('/ws/notes/other.Rmd');
  });

  it('reads a file once per change when given a cache, and the cache is bounded', async () => {
    const ws = new MemoryWorkspace({ '/ws/refs.bib': '@misc{a, title={A}}\n' });
    const cache = new BibCache(1);
    const d = doc('/ws/p.tex', '\\bibliography{refs}\n');
    await resolveBibliography(ws, d, { cache });
    await resolveBibliography(ws, d, { cache });
    expect(ws.reads).toHaveLength(1);
    ws.write('/ws/refs.bib', `${ws.text('/ws/refs.bib')}@misc{b, title={B}}\n`);
    expect((await resolveBibliography(ws, d, { cache }))!.files[0]!.entries).toHaveLength(2);
    expect(ws.reads).toHaveLength(2);
    ws.write('/ws/other.bib', '');
    await resolveBibliography(ws, doc('/ws/q.tex', '\\bibliography{other}\n'), { cache });
    await resolveBibliography(ws, d, { cache });
    expect(ws.reads).toHaveLength(4);
  });

  it('caches the LaTeX root\'s declarations, not only its text, for requests from its children', async () => {
    const ws = new MemoryWorkspace({ '/ws/main.tex': '\\bibliography{refs}\n', '/ws/refs.bib': '' });
    const cache = new BibCache();
    const child = doc('/ws/ch.tex', '% !TEX root = main.tex\n\\chapter{A}\n');
    expect(paths((await resolveBibliography(ws, child, { cache }))!.files.map((f) => f.uri))).toEqual(['/ws/refs.bib']);
    // A named root's facts (its links and declarations: its chain is read on demand, issue 28) are cached by stamp.
    const cached = await cache.get(ws, URI.file('/ws/main.tex'), 'latexFacts', () => { throw new Error('scanned again'); });
    expect(cached).toMatchObject({ bibs: [{ path: 'refs.bib', via: 'bibtex' }], links: [] });
    expect(paths((await resolveBibliography(ws, child, { cache }))!.files.map((f) => f.uri))).toEqual(['/ws/refs.bib']);
    expect(ws.reads).toHaveLength(2);
  });

  it('says nothing for other languages', async () => {
    expect(await resolveBibliography(new MemoryWorkspace({}), doc('/ws/a.py', 'x', 'python'))).toBeUndefined();
  });
});

describe('planBibliographyUpdate', () => {
  const plan = async (files: Record<string, string>, d: ReturnType<typeof doc>) => {
    const ws = new MemoryWorkspace(files);
    const bib = await resolveBibliography(ws, d);
    return planBibliographyUpdate(ws, bib, planCitationSync(bib, [smith]));
  };

  it('appends to the first declared file that exists', async () => {
    const u = await plan({ '/ws/refs.bib': '@misc{a, title={A}}\n' }, doc('/ws/p.tex', '\\bibliography{missing,refs}\n'));
    expect(u).toEqual({ kind: 'append', uri: expect.objectContaining({ path: '/ws/refs.bib' }), entries: [smith] });
  });

  it('creates a declared file that does not exist, in a folder that does', async () => {
    const u = await plan({ '/ws/p.md': '' }, doc('/ws/p.md', '---\nbibliography: refs.json\n---\n'));
    expect(u.kind).toBe('create');
    expect(u.kind === 'create' && JSON.parse(u.text)).toEqual([expect.objectContaining({ id: 'smith2020thing' })]);
  });

  it('refuses a file outside the workspace, a folder that does not exist, and a file that cannot be read', async () => {
    expect(await plan({ '/elsewhere/refs.bib': '' }, doc('/ws/p.tex', '\\bibliography{/elsewhere/refs}\n')))
      .toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
    expect(await plan({}, doc('/ws/p.tex', '\\bibliography{../../x}\n'))).toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
    expect(await plan({ '/ws/p.tex': '' }, doc('/ws/p.tex', '\\bibliography{nodir/refs}\n'))).toMatchObject({ kind: 'refuse', reason: 'no-folder' });
    expect(await plan({ '/ws/refs.bib': '@misc{a,\n title={A}\n' }, doc('/ws/p.tex', '\\bibliography{refs}\n')))
      .toMatchObject({ kind: 'refuse', reason: 'unreadable', line: 1 });
    expect(await plan({ '/ws/refs.yaml': 'authors: [a, b]\n' }, doc('/ws/p.md', '---\nbibliography: refs.yaml\n---\n')))
      .toMatchObject({ kind: 'refuse', reason: 'unreadable' });
  });

  it('refuses a file whose folder is a symlink out of the workspace, and appends through one that stays inside', async () => {
    const d = doc('/ws/p.tex', '\\bibliography{bib/refs}\n');
    const planned = async (target: string) => {
      // The file as the document reaches it, through the link; realPath says where it lies.
      const ws = new MemoryWorkspace({ '/ws/bib/refs.bib': '@misc{a, title={A}}\n' });
      ws.link('/ws/bib', target);
      const bib = await resolveBibliography(ws, d);
      return planBibliographyUpdate(ws, bib, planCitationSync(bib, [smith]));
    };
    expect(await planned('/elsewhere')).toMatchObject({ kind: 'refuse', reason: 'outside-workspace' });
    expect(await planned('/ws/shared')).toMatchObject({ kind: 'append', uri: { path: '/ws/bib/refs.bib' } });
  });

  it('asks the host to offer a bibliography when the document declares none, and does nothing when nothing is missing', async () => {
    expect(await plan({}, doc('/ws/p.tex', 'No bibliography.\n'))).toEqual({ kind: 'declare', entries: [smith] });
    expect(await plan({ '/ws/refs.bib': '@misc{smith2020thing, title={A Thing}}\n' }, doc('/ws/p.tex', '\\bibliography{refs}\n'))).toEqual({ kind: 'none' });
  });
});

describe('isInside', () => {
  it('compares whole path segments and resolves ..', () => {
    const ws = URI.file('/ws');
    expect(isInside(ws, URI.file('/ws/a/b.bib'))).toBe(true);
    expect(isInside(ws, URI.file('/ws'))).toBe(true);
    expect(isInside(ws, URI.file('/wsx/a.bib'))).toBe(false);
    expect(isInside(ws, Utils.joinPath(ws, '..', 'x.bib'))).toBe(false);
    expect(isInside(ws, URI.file('/ws/a/../../x.bib'))).toBe(false);
    expect(isInside(ws, URI.from({ scheme: 'vscode-vfs', path: '/ws/a.bib' }))).toBe(false);
  });
});
