/**
 * Property tests of the LaTeX project model (`src/core/latex/project.ts`, over `fileFacts.ts` and
 * `inputPaths.ts`) on generated workspaces:
 * up to 12 files in two folders, each a root (`\documentclass`) or not, linking to others with
 * `\input{…}` (braced or bare, with or without `.tex`), `\include`, `\import` and `\subimport`,
 * cycles and self-links included, with links inside comments and `\iffalse` blocks, and links to
 * files that do not exist. For each workspace:
 *
 * - the roots of every file are exactly the roots a plain breadth-first search over the links
 *   (the reference model) reaches it from: the file itself first when it is a root, then the
 *   others by URI; commented-out links count for nothing;
 * - each root's walk visits a file once, whatever the cycles;
 * - indexing reads each file once, and updating one file's text to what it was changes nothing;
 * - on hostile workspaces (issue 28) — paths with doubled leading separators (`\input{//server/x}`,
 *   `\import{//d/}{x}`, `\subimport{//}{x}`, `\input{//x.bbl}`), drive letters, `..` runs, names
 *   with blanks, quotes and non-ASCII letters, subfiles mains that are such paths, and chains of up
 *   to 400 files with links back up them — no query throws, a chain's last file has the chain's
 *   root, and the walk's counted work stays within roots × (files + 6 × links).
 *
 * `FUZZ_RUNS` cases (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { URI } from 'vscode-uri';
import { latexFileFacts } from '../../src/core/latex/fileFacts.js';
import { bblCandidates } from '../../src/core/latex/inputPaths.js';
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

  it('hostile paths and deep, cyclic graphs: no query throws, and the walk\'s work is counted and bounded', () => {
    runFuzz('latex project: hostile paths, deep graphs', hostileArb, ({ texts, chain }) => {
      const project = new LatexProject();
      const uris = texts.map((_, i) => URI.file(hostilePath(i)));
      texts.forEach((t, i) => call('set', () => project.set(uris[i]!, t)));
      const roots = texts.filter((t) => /^\\documentclass\{/m.test(t)).length;
      const links = texts.reduce((n, t) => n + call('latexFileFacts', () => latexFileFacts(t)).links.length, 0);
      for (const [i, uri] of uris.entries()) {
        const found = call('rootsOf', () => project.rootsOf(uri));
        call('declarationsOf', () => project.declarationsOf(uri));
        call('thebibliographyOf', () => project.thebibliographyOf(uri));
        call('filesOf', () => project.filesOf(uri));
        call('bblCandidates', () => bblCandidates(uri, latexFileFacts(texts[i]!)));
        if (chain && i === uris.length - 1) check('the chain\'s last file has the chain\'s root', found.some((r) => r.toString() === uris[0]!.toString()), () => JSON.stringify(found));
      }
      project.set(uris[0]!, `${texts[0]!}\n% changed\n\\input{//again}\n`);
      call('filesOf', () => project.filesOf(uris[0]!));
      const bound = Math.max(roots, 1) * (texts.length + 6 * (links + 1)) + 2;
      check('the walk\'s work within roots × (files + 6 × links)', project.lastGraphWork <= bound, () => `${project.lastGraphWork} > ${bound}`);
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);
});

/** Paths that a repository may write in a link, each a hostile case of its own. */
const HOSTILE_PATHS = [
  '//fileserver/share/x', '//', '///x', '//x.bbl', '//x/../../y', 'C:\\x', 'C:/x', 'c:x', '../../../../../../etc/passwd', '/abs/x', '/', '.', '..', './', 'a//b',
  'x y', '"quoted name"', '"//q"', 'é/ü', '%2F%2Fx', 'x.bbl', '../x.bbl', '/x.bbl', ' //pad ', 'x?y#z', 'a:b', 'file://host/x', '\u0000', 'x\u2028y',
];
/** A file's path in the hostile workspace: folders of any depth, some with blanks. */
const hostilePath = (i: number) => `/ws/${['', 'a/', 'a b/', 'a/b/c/'][i % 4]}f${i}.tex`;

const hostileLink = fc.oneof(
  fc.record({ to: fc.nat(), form: fc.constantFrom('input', 'include', 'subfile') }).map(({ to, form }) => ({ kind: 'file' as const, to, form })),
  fc.record({ path: fc.constantFrom(...HOSTILE_PATHS), form: fc.constantFrom('input', 'include', 'subfile', 'bare', 'import-dir', 'import-file', 'subimport-dir', 'subimport-file', 'subfiles-main') })
    .map(({ path, form }) => ({ kind: 'path' as const, path, form })),
);

const hostileArb = fc.oneof(
  // Small workspaces with hostile links among the real ones.
  fc.integer({ min: 1, max: 10 }).chain((n) => fc.array(fc.record({ root: fc.boolean(), links: fc.array(hostileLink, { maxLength: 6 }) }), { minLength: n, maxLength: n }))
    .map((files) => ({ chain: false, texts: files.map((f) => hostileText(f.root, f.links, files.length)) })),
  // A chain f0 → f1 → … → fD (f0 a root), with links back up it and hostile links on the way.
  fc.record({ depth: fc.integer({ min: 2, max: 400 }), back: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 40 }), noise: fc.array(fc.tuple(fc.nat(), hostileLink), { maxLength: 20 }) })
    .map(({ depth, back, noise }) => {
      const links: HostileLink[][] = Array.from({ length: depth }, (_, i) => (i + 1 < depth ? [{ kind: 'file', to: i + 1, form: 'input' }] : []));
      for (const [from, to] of back) links[from % depth]!.push({ kind: 'file', to: to % depth, form: 'input' });
      // (The chain's root stays one: no subfiles main on it.)
      for (const [at, link] of noise) if (at % depth || link.form !== 'subfiles-main') links[at % depth]!.push(link);
      return { chain: true, texts: links.map((l, i) => hostileText(i === 0, l, depth)) };
    }),
);

type HostileLink = { kind: 'file'; to: number; form: string } | { kind: 'path'; path: string; form: string };

/** A file's text: a root or not, its links written by form (a link to a file by its absolute path). */
function hostileText(root: boolean, links: readonly HostileLink[], n: number): string {
  const out = [root ? '\\documentclass{article}' : '% a section'];
  for (const l of links) {
    if (l.kind === 'file') {
      const to = hostilePath(l.to % n).replace(/\.tex$/, '');
      out.push(l.form === 'subfile' ? `\\subfile{${to}}` : l.form === 'include' ? `\\include{${to}}` : `\\input{${to}}`);
      continue;
    }
    const p = l.path;
    switch (l.form) {
      case 'bare': out.push(`\\input ${p} more`); break;
      case 'import-dir': out.push(`\\import{${p}}{x}`); break;
      case 'import-file': out.push(`\\import{/ws/}{${p}}`); break;
      case 'subimport-dir': out.push(`\\subimport{${p}}{x}`); break;
      case 'subimport-file': out.push(`\\subimport{a/}{${p}}`); break;
      case 'subfiles-main': out.push(`\\documentclass[${p}]{subfiles}`); break;
      default: out.push(`\\${l.form}{${p}}`);
    }
  }
  out.push('\\bibliography{//refs,../refs}', '\\input{//x.bbl}');
  return `${out.join('\n')}\n`;
}
