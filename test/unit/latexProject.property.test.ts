/**
 * Property tests of the LaTeX project model (`src/core/latex/project.ts`) on generated workspaces:
 * up to 12 files in two folders, each a root (`\documentclass`) or not, linking to others with
 * `\input{…}` (braced or bare, with or without `.tex`), `\include`, `\import` and `\subimport`,
 * cycles and self-links included, with links inside comments and `\iffalse` blocks, and links to
 * files that do not exist. For each workspace:
 *
 * - the roots of every file are exactly the roots a plain breadth-first search over the links
 *   (the reference model) reaches it from: the file itself first when it is a root, then the
 *   others by URI; commented-out links count for nothing;
 * - each root's walk visits a file once, whatever the cycles;
 * - indexing reads each file once, and updating one file's text to what it was changes nothing.
 *
 * `FUZZ_RUNS` cases (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { URI } from 'vscode-uri';
import { LatexProject } from '../../src/core/latex/project.js';
import { call, check, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

/** Files `a/f0.tex` … in folders `/ws/a` and `/ws/b`. */
const folderOf = (i: number) => (i % 2 === 0 ? 'a' : 'b');
const pathOf = (i: number) => `/ws/${folderOf(i)}/f${i}.tex`;

interface GenLink { to: number; form: 'input' | 'bare' | 'include' | 'import' | 'subimport' | 'commented' | 'iffalse' | 'missing'; ext: boolean }
interface GenFile { root: boolean; links: GenLink[] }

const workspaceArb = fc.integer({ min: 1, max: 12 }).chain((n) => fc.array(fc.record({
  root: fc.boolean(),
  links: fc.array(fc.record({
    to: fc.integer({ min: 0, max: n - 1 }),
    form: fc.constantFrom('input', 'bare', 'include', 'import', 'subimport', 'commented', 'iffalse', 'missing'),
    ext: fc.boolean(),
  }), { maxLength: 4 }),
}), { minLength: n, maxLength: n }));

/**
 * The text of file `i`. Every root lives in `/ws/a` or `/ws/b`; a link names its target so that it
 * resolves whatever the root's folder: `\input`/`\include` by a path from `/ws` (an absolute one),
 * `\import` with the target's folder as an absolute folder, `\subimport` likewise.
 */
function textOf(files: readonly GenFile[], i: number): string {
  const f = files[i]!;
  const out = [f.root ? '\\documentclass{article}' : '% a section'];
  for (const l of f.links) {
    const name = `f${l.to}${l.ext ? '.tex' : ''}`;
    const abs = `/ws/${folderOf(l.to)}/${name}`;
    switch (l.form) {
      case 'input': out.push(`\\input{${abs}}`); break;
      case 'bare': out.push(`\\input ${abs} more text`); break;
      case 'include': out.push(`\\include{/ws/${folderOf(l.to)}/f${l.to}}`); break;
      case 'import': out.push(`\\import{/ws/${folderOf(l.to)}/}{${name}}`); break;
      case 'subimport': out.push(`\\subimport*{/ws/${folderOf(l.to)}}{${name}}`); break;
      case 'commented': out.push(`% \\input{${abs}}`); break;
      case 'iffalse': out.push(`\\iffalse \\input{${abs}} \\fi`); break;
      case 'missing': out.push(`\\input{/ws/${folderOf(l.to)}/nosuch${l.to}}`); break;
    }
  }
  return `${out.join('\n')}\n`;
}

/** The reference: which files each root reaches, by breadth-first search over the live links. */
function reference(files: readonly GenFile[]): Map<number, Set<number>> {
  const live = (l: GenLink) => l.form !== 'commented' && l.form !== 'iffalse' && l.form !== 'missing';
  const reach = new Map<number, Set<number>>();
  files.forEach((f, r) => {
    if (!f.root) return;
    const seen = new Set([r]);
    const queue = [r];
    while (queue.length) {
      const k = queue.shift()!;
      for (const l of files[k]!.links) if (live(l) && !seen.has(l.to)) { seen.add(l.to); queue.push(l.to); }
    }
    reach.set(r, seen);
  });
  return reach;
}

describe('the LaTeX project model on generated workspaces', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });

  it('finds exactly the roots that reach each file, once each, reading each file once', () => {
    runFuzz('latex project: roots', workspaceArb, (files) => {
      const project = new LatexProject();
      for (let i = 0; i < files.length; i++) call('set', () => project.set(URI.file(pathOf(i)), textOf(files, i)));
      check('each file scanned once', project.scans === files.length, () => `${project.scans} scans of ${files.length} files`);
      const reach = reference(files);
      for (let i = 0; i < files.length; i++) {
        const got = call('rootsOf', () => project.rootsOf(URI.file(pathOf(i)))).map((u) => u.path);
        const others = [...reach.keys()].filter((r) => r !== i && reach.get(r)!.has(i)).map(pathOf).sort();
        const want = [...(files[i]!.root ? [pathOf(i)] : []), ...others];
        check('roots as the reference finds them', JSON.stringify(got) === JSON.stringify(want), () => `file ${i}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}\n${files.map((_, k) => `--- f${k}\n${textOf(files, k)}`).join('')}`);
      }
      for (const [r, seen] of reach) {
        const walked = project.filesOf(URI.file(pathOf(r))).map((u) => u.path);
        check('a root\'s walk visits each reachable file once', walked.length === seen.size && new Set(walked).size === walked.length,
          () => `root ${r}: walked ${JSON.stringify(walked)}, reachable ${JSON.stringify([...seen])}`);
      }
      const revision = project.revision;
      if (files.length) project.set(URI.file(pathOf(0)), textOf(files, 0));
      check('setting the same text changes nothing', project.revision === revision);
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);
});
