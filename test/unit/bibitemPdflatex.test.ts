/**
 * The `\bibitem` reader against LaTeX itself: generated documents (a `thebibliography` in the root,
 * or in a `.bbl` file the root inputs with `\input{refs.bbl}`; labels with braces and `]` inside
 * braces; `\bibitem`s hidden in comments, a verbatim environment, `\verb` and an `\iffalse` block)
 * are compiled with pdflatex, and the keys of the `.aux` file's `\bibcite{key}{label}` lines (one
 * per `\bibitem` LaTeX read: `ltbibl.dtx`) must be exactly the keys the resolver reads for the
 * document, in order.
 *
 * Runs wherever pdflatex is installed; with CI=true a missing pdflatex fails the test instead of
 * skipping it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { resolveBibliography } from '../../src/core/bibliography/resolve.js';
import { nodeLatexProject } from '../../src/host/node/nodeLatexProject.js';
import { NodeBibWorkspace } from '../../src/host/node/nodeBibWorkspace.js';

const CI = !!process.env.CI;
const HAVE_PDFLATEX = spawnSync('pdflatex', ['--version'], { encoding: 'utf8' }).status === 0;

const wordArb = fc.stringMatching(/^[A-Za-z0-9.,()~-]{1,8}$/);
const labelArb = fc.array(fc.oneof(wordArb, wordArb.map((w) => `{${w}]}`), wordArb.map((w) => `{[${w}{\\natexlab{a}}]}`)), { minLength: 1, maxLength: 4 }).map((p) => p.join(' '));
interface GenItem { stem: string; label: string | null; text: string; hide: 'none' | 'comment' | 'verbatim' | 'verb' | 'iffalse'; eolComment: boolean }
const itemArb: fc.Arbitrary<GenItem> = fc.record({
  stem: fc.stringMatching(/^[A-Za-z][A-Za-z0-9:.-]{0,7}$/),
  label: fc.option(labelArb, { nil: null }),
  text: fc.array(fc.oneof(wordArb, fc.constant('\\newblock'), wordArb.map((w) => `\\emph{${w}}`)), { minLength: 1, maxLength: 6 }).map((t) => t.join(' ')),
  hide: fc.constantFrom<GenItem['hide']>('none', 'none', 'comment', 'verbatim', 'verb', 'iffalse'),
  eolComment: fc.boolean(),
});
const itemsArb = fc.array(itemArb, { minLength: 1, maxLength: 15 });

/** The thebibliography of a generated document; keys made unique by their index. */
function thebibliography(items: readonly GenItem[]): string {
  const lines = ['\\begin{thebibliography}{99}'];
  items.forEach((it, i) => {
    const key = `${it.stem}${i}`;
    // Hidden \\bibitems inside an item's text (before the first item, text is LaTeX's "missing \\item" error).
    lines.push(`\\bibitem${it.label === null ? '' : `[${it.label}]`}{${key}}${it.eolComment ? '% a comment' : ''}`, it.text);
    switch (it.hide) {
      case 'comment': lines.push(`% \\bibitem{hidden${i}} commented out`); break;
      case 'verbatim': lines.push('\\begin{verbatim}', `\\bibitem{hidden${i}}`, '\\end{verbatim}'); break;
      case 'verb': lines.push(`\\verb|\\bibitem{hidden${i}}|`); break;
      case 'iffalse': lines.push('\\iffalse', `\\bibitem{hidden${i}}`, '\\fi'); break;
      default: break;
    }
    lines.push('');
  });
  lines.push('\\end{thebibliography}', '');
  return lines.join('\n');
}

describe('the \\bibitem reader against pdflatex', () => {
  it.skipIf(!HAVE_PDFLATEX && !CI)('reads exactly the keys LaTeX writes to the .aux file as \\bibcite, in order', async () => {
    expect(HAVE_PDFLATEX, 'pdflatex is not installed').toBe(true);
    // Four documents: two with the thebibliography in the root, two with it in refs.bbl.
    const docs = fc.sample(itemsArb, { seed: 42, numRuns: 4 }).map((items, i) => ({ items, bbl: i % 2 === 1 }));
    for (const d of docs) {
      const dir = mkdtempSync(join(tmpdir(), 'mlsys-bibitem-tex-'));
      try {
        const bib = thebibliography(d.items);
        const main = ['\\documentclass{article}', '\\providecommand{\\natexlab}[1]{#1}', '\\begin{document}', 'Text.', d.bbl ? '\\input{refs.bbl}' : bib, '\\end{document}', ''].join('\n');
        writeFileSync(join(dir, 'main.tex'), main);
        if (d.bbl) writeFileSync(join(dir, 'refs.bbl'), bib);
        const run = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'main.tex'], { cwd: dir, encoding: 'utf8' });
        expect(run.status, `pdflatex failed:\n${run.stdout.slice(-2000)}\n--- main.tex\n${main}\n--- bibliography\n${bib}`).toBe(0);
        const aux = readFileSync(join(dir, 'main.aux'), 'utf8');
        const latex = [...aux.matchAll(/^\\bibcite\{([^}]*)\}/gm)].map((m) => m[1]);

        const ws = new NodeBibWorkspace(dir);
        const project = await nodeLatexProject(ws, dir);
        const resolved = await resolveBibliography(ws, { uri: URI.file(join(dir, 'main.tex')), languageId: 'latex', text: main }, { project });
        const ours = resolved?.thebibliography?.flatMap((s) => s.items.map((i) => i.key)) ?? [];
        expect(ours, `--- bibliography\n${bib}`).toEqual(latex);
        expect(latex.length).toBe(d.items.length);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
