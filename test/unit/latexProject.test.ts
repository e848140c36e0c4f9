/**
 * The LaTeX project model (`src/core/latex/project.ts`, over `fileFacts.ts`, `inputPaths.ts` and
 * `indexing.ts`) on in-memory workspaces: links read as TeX reads them, roots found by following
 * them, each root's bibliography across its files, and the work of indexing and walking counted
 * (no timing).
 */
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { resolveBibliography } from '../../src/core/bibliography/resolve.js';
import { latexFileFacts } from '../../src/core/latex/fileFacts.js';
import { indexLatexFiles } from '../../src/core/latex/indexing.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { MemoryWorkspace } from './memoryWorkspace.js';

const u = (path: string) => URI.file(path);
const paths = (us: readonly URI[]) => us.map((x) => x.path);

/** A project of in-memory files (absolute path → text), indexed as the server does, reads counted. */
async function projectOf(files: Record<string, string>): Promise<{ project: LatexProject; reads: number }> {
  const project = new LatexProject();
  let reads = 0;
  const tex = Object.keys(files).filter((p) => p.endsWith('.tex')).map(u);
  await indexLatexFiles(project, tex, { read: async (uri) => { reads++; return files[uri.path]; } });
  return { project, reads };
}

const MAIN = '\\documentclass{article}\n\\begin{document}\n';
const END = '\\bibliography{refs}\n\\end{document}\n';

describe('latexFileFacts', () => {
  it('reads \\input with and without braces, \\include, \\subfile, \\import and \\subimport, outside comments', () => {
    const f = latexFileFacts([
      '\\documentclass[11pt]{article}',
      '\\input{intro}\\input sections/method.tex \\include{chapters/one}',
      '\\subfile{parts/a}\\import{appendix/}{proofs}\\subimport*{b}{c.tex}',
      '\\inputfrom{x}{y}\\InputIfFileExists{opt}{}{}',
      '% \\input{commented}',
      '\\input{\\macro/x}\\newcommand{\\inc}[1]{\\input{#1}}\\inputencoding{utf8}\\\\input',
      '\\addbibresource{lib.bib}',
    ].join('\n'));
    expect(f.links).toEqual([
      { kind: 'input', path: 'intro' },
      { kind: 'include', path: 'chapters/one' },
      { kind: 'subfile', path: 'parts/a' },
      { kind: 'import', path: 'proofs', dir: 'appendix/' },
      { kind: 'subimport', path: 'c.tex', dir: 'b' },
      { kind: 'import', path: 'y', dir: 'x' },
      { kind: 'input', path: 'opt' },
      { kind: 'input', path: 'sections/method.tex' },
    ]);
    expect(f.documentClass).toBe(true);
    expect(f.subfilesMain).toBeUndefined();
    expect(f.bibs).toEqual([{ path: 'lib.bib', via: 'biblatex' }]);
  });

  it('reads a subfiles document\'s main file', () => {
    expect(latexFileFacts('\\documentclass[../main.tex]{subfiles}\n').subfilesMain).toBe('../main.tex');
    expect(latexFileFacts('\\documentclass{subfiles}\n').subfilesMain).toBe('');
  });
});

describe('LatexProject', () => {
  it('finds the root of a file two \\input levels down, relative to the root\'s folder, with and without .tex', async () => {
    const { project } = await projectOf({
      '/ws/main.tex': `${MAIN}\\input{sections/intro}\n${END}`,
      '/ws/sections/intro.tex': '\\input{sections/deeper.tex}\n',
      '/ws/sections/deeper.tex': '\\cite{a}\n',
      '/ws/other.tex': 'not included\n',
    });
    expect(paths(project.rootsOf(u('/ws/sections/deeper.tex')))).toEqual(['/ws/main.tex']);
    expect(paths(project.rootsOf(u('/ws/main.tex')))).toEqual(['/ws/main.tex']);
    expect(project.rootsOf(u('/ws/other.tex'))).toEqual([]);
  });

  it('also tries the including file\'s own folder, and \\input name without braces', async () => {
    const { project } = await projectOf({
      '/ws/main.tex': `${MAIN}\\input sections/intro\n${END}`,
      '/ws/sections/intro.tex': '\\input{local}\n',
      '/ws/sections/local.tex': '\\cite{a}\n',
    });
    expect(paths(project.rootsOf(u('/ws/sections/local.tex')))).toEqual(['/ws/main.tex']);
  });

  it('follows \\include (always .tex) and gives the root\'s \\bibliography from any included file', async () => {
    const { project } = await projectOf({
      '/ws/thesis.tex': `${MAIN}\\include{ch/one}\\input{back}\n\\end{document}\n`,
      '/ws/ch/one.tex': '\\chapter{One}\n',
      '/ws/back.tex': '\\bibliography{refs,more}\n',
    });
    expect(paths(project.rootsOf(u('/ws/ch/one.tex')))).toEqual(['/ws/thesis.tex']);
    expect(project.declarationsOf(u('/ws/thesis.tex'))).toEqual([{ path: 'refs.bib', via: 'bibtex' }, { path: 'more.bib', via: 'bibtex' }]);
  });

  it('gives a subfiles document its main file\'s roots, and follows \\subfile', async () => {
    const { project } = await projectOf({
      '/ws/main.tex': `\\documentclass{book}\n\\usepackage{subfiles}\n\\addbibresource{refs.bib}\n\\begin{document}\\subfile{parts/one}\\end{document}\n`,
      '/ws/parts/one.tex': '\\documentclass[../main.tex]{subfiles}\n\\begin{document}\\input{parts/inner}\\end{document}\n',
      '/ws/parts/inner.tex': 'x\n',
      '/ws/parts/alone.tex': '\\documentclass[../main.tex]{subfiles}\n\\begin{document}x\\end{document}\n',
    });
    expect(paths(project.rootsOf(u('/ws/parts/one.tex')))).toEqual(['/ws/main.tex']);
    expect(paths(project.rootsOf(u('/ws/parts/inner.tex')))).toEqual(['/ws/main.tex']);
    // Not \subfile'd by its main file: still its main file's.
    expect(paths(project.rootsOf(u('/ws/parts/alone.tex')))).toEqual(['/ws/main.tex']);
  });

  it('follows \\import from the root\'s folder and \\subimport from the importing file\'s import folder', async () => {
    const { project } = await projectOf({
      '/ws/main.tex': `${MAIN}\\import{chapters/one/}{text}\n${END}`,
      '/ws/chapters/one/text.tex': '\\input{figure}\\subimport{parts}{detail}\n',
      '/ws/chapters/one/figure.tex': 'x\n',
      '/ws/chapters/one/parts/detail.tex': 'x\n',
    });
    expect(paths(project.rootsOf(u('/ws/chapters/one/figure.tex')))).toEqual(['/ws/main.tex']);
    expect(paths(project.rootsOf(u('/ws/chapters/one/parts/detail.tex')))).toEqual(['/ws/main.tex']);
    expect(paths(project.filesOf(u('/ws/main.tex')))).toEqual(['/ws/main.tex', '/ws/chapters/one/text.tex', '/ws/chapters/one/figure.tex', '/ws/chapters/one/parts/detail.tex']);
  });

  it('gives a file included by two roots both, and walks cycles and a file including itself once', async () => {
    const { project } = await projectOf({
      '/ws/paper.tex': `${MAIN}\\input{shared}\n\\bibliography{paper}\\end{document}\n`,
      '/ws/slides.tex': `${MAIN}\\input{shared}\n\\bibliography{slides}\\end{document}\n`,
      '/ws/shared.tex': '\\input{shared}\\input{loop}\n',
      '/ws/loop.tex': '\\input{shared}\\input{paper}\n',
    });
    expect(paths(project.rootsOf(u('/ws/shared.tex')))).toEqual(['/ws/paper.tex', '/ws/slides.tex']);
    expect(paths(project.rootsOf(u('/ws/loop.tex')))).toEqual(['/ws/paper.tex', '/ws/slides.tex']);
    // A root another root includes has both.
    expect(paths(project.rootsOf(u('/ws/paper.tex')))).toEqual(['/ws/paper.tex', '/ws/slides.tex']);
    expect(paths(project.filesOf(u('/ws/paper.tex')))).toEqual(['/ws/paper.tex', '/ws/shared.tex', '/ws/loop.tex']);
  });

  it('updates the graph on an edit, a new file and a deletion, scanning only the file that changed', async () => {
    const { project } = await projectOf({ '/ws/main.tex': `${MAIN}${END}`, '/ws/intro.tex': 'x\n' });
    expect(project.rootsOf(u('/ws/intro.tex'))).toEqual([]);
    const scans = project.scans;
    // An open document's text: scanned when asked about, once.
    project.set(u('/ws/main.tex'), `${MAIN}\\input{intro}\n${END}`, false);
    expect(paths(project.rootsOf(u('/ws/intro.tex')))).toEqual(['/ws/main.tex']);
    expect(paths(project.rootsOf(u('/ws/intro.tex')))).toEqual(['/ws/main.tex']);
    expect(project.scans).toBe(scans + 1);
    expect(project.set(u('/ws/new.tex'), `${MAIN}\\input{intro}\n\\end{document}\n`)).toBe(true);
    expect(paths(project.rootsOf(u('/ws/intro.tex')))).toEqual(['/ws/main.tex', '/ws/new.tex']);
    expect(project.delete(u('/ws/main.tex'))).toBe(true);
    expect(paths(project.rootsOf(u('/ws/intro.tex')))).toEqual(['/ws/new.tex']);
    // Text that changes no link leaves the graph as it was: not walked again.
    project.rootsOf(u('/ws/intro.tex'));
    const work = project.lastGraphWork;
    expect(project.set(u('/ws/intro.tex'), 'y\n')).toBe(false);
    project.rootsOf(u('/ws/intro.tex'));
    expect(project.lastGraphWork).toBe(work);
  });

  it('indexes 2,000 files with one read each and a graph walk linear in files and links', async () => {
    const files: Record<string, string> = {};
    // 100 papers of 19 sections each, every section one \input from its paper.
    for (let p = 0; p < 100; p++) {
      const sections = Array.from({ length: 19 }, (_, s) => `\\input{sec${s}}`).join('\n');
      files[`/ws/p${p}/main.tex`] = `${MAIN}${sections}\n${END}`;
      for (let s = 0; s < 19; s++) files[`/ws/p${p}/sec${s}.tex`] = `\\section{S}\\cite{k${s}}\n`;
    }
    const { project, reads } = await projectOf(files);
    expect(reads).toBe(2000);
    expect(project.size).toBe(2000);
    expect(paths(project.rootsOf(u('/ws/p42/sec7.tex')))).toEqual(['/ws/p42/main.tex']);
    // Each link resolves in at most 2 lookups (name.tex in the root's folder); each file is visited once.
    expect(project.lastGraphWork).toBeLessThanOrEqual(2000 + 2 * 1900);
    expect(project.scans).toBe(2000);
    for (let i = 0; i < 50; i++) project.rootsOf(u(`/ws/p${i}/sec1.tex`));
    expect(project.scans).toBe(2000);
  });

  it('reports progress in slices and stops when cancelled', async () => {
    const project = new LatexProject();
    const seen: number[] = [];
    let yields = 0;
    const uris = Array.from({ length: 10 }, (_, i) => u(`/ws/f${i}.tex`));
    let n = 0;
    const done = await indexLatexFiles(project, uris, {
      read: async () => 'x',
      shouldYield: () => ++n % 3 === 0,
      yield: async () => { yields++; },
      progress: (d) => seen.push(d),
    });
    expect(done).toBe(10);
    expect(yields).toBe(3);
    expect(seen).toEqual([3, 6, 9, 10]);
    expect(await indexLatexFiles(project, uris, { read: async () => 'x', cancelled: () => true })).toBe(-1);
  });
});

describe('resolveBibliography with a project', () => {
  const files = {
    '/ws/main.tex': `${MAIN}\\input{sections/intro}\n${END}`,
    '/ws/sections/intro.tex': 'See \\cite{a}.\n',
    '/ws/refs.bib': '@misc{a, title={A}}\n',
    '/ws/other/main.tex': `${MAIN}\\bibliography{theirs}\\end{document}\n`,
    '/ws/other/theirs.bib': '@misc{b, title={B}}\n',
  };
  const doc = (path: string) => ({ uri: u(path), languageId: 'latex', text: files[path as keyof typeof files] ?? '' });

  it('gives a section file without a magic comment its root\'s bibliography', async () => {
    const { project } = await projectOf(files);
    const bib = await resolveBibliography(new MemoryWorkspace(files), doc('/ws/sections/intro.tex'), { project });
    expect(bib!.root.path).toBe('/ws/main.tex');
    expect(bib!.files.map((f) => f.uri.path)).toEqual(['/ws/refs.bib']);
  });

  it('falls back to the detected root when the magic comment names a missing file, and says where the comment is', async () => {
    const { project } = await projectOf(files);
    const text = '\n% !TEX root = /Users/someone/paper/main.tex\nSee \\cite{a}.\n';
    const bib = await resolveBibliography(new MemoryWorkspace(files), { uri: u('/ws/sections/intro.tex'), languageId: 'latex', text }, { project });
    expect(bib!.root.path).toBe('/ws/main.tex');
    expect(bib!.missingRoot).toMatchObject({ path: '/Users/someone/paper/main.tex', line: 1, start: 1 });
    // A magic comment that exists wins over detection; the setting wins over both.
    const magic = await resolveBibliography(new MemoryWorkspace(files), { uri: u('/ws/sections/intro.tex'), languageId: 'latex', text: '% !TEX root = ../other/main.tex\n' }, { project });
    expect(magic!.files.map((f) => f.uri.path)).toEqual(['/ws/other/theirs.bib']);
    expect(magic!.missingRoot).toBeUndefined();
    const setting = await resolveBibliography(new MemoryWorkspace(files), { uri: u('/ws/sections/intro.tex'), languageId: 'latex', text: '% !TEX root = ../other/main.tex\n' },
      { project, latexRoot: 'main.tex', latexRootBase: u('/ws') });
    expect(setting!.root.path).toBe('/ws/main.tex');
  });

  it('gives a file included by two roots both bibliographies', async () => {
    const two = {
      '/ws/a.tex': `${MAIN}\\input{shared}\\bibliography{a}\\end{document}\n`,
      '/ws/b.tex': `${MAIN}\\input{shared}\\bibliography{b}\\end{document}\n`,
      '/ws/shared.tex': '\\cite{x,y}\n',
      '/ws/a.bib': '@misc{x, title={X}}\n',
      '/ws/b.bib': '@misc{y, title={Y}}\n',
    };
    const { project } = await projectOf(two);
    const bib = await resolveBibliography(new MemoryWorkspace(two), { uri: u('/ws/shared.tex'), languageId: 'latex', text: two['/ws/shared.tex'] }, { project });
    expect(paths(bib!.roots!)).toEqual(['/ws/a.tex', '/ws/b.tex']);
    expect(bib!.files.map((f) => f.entries[0]!.key)).toEqual(['x', 'y']);
  });
});
