/**
 * Unused entries and rename against the reference tools, on a small multi-file LaTeX project
 * written to a temporary folder (skipped when the tools are not installed;
 * scripts/setup-test-tools.sh installs them):
 *
 * - `checkcites --unused` (TeX Live) on the `.aux` that `pdflatex` writes lists the same unused
 *   entries as our hints (the LaTeX project alone), but for two documented differences:
 *   checkcites does not follow `crossref`, so it lists a parent that only a cited entry's
 *   `crossref` names, which BibTeX needs to resolve that entry (removing it would break the
 *   child); and it compares keys with their case, where BibTeX finds `\cite{Shared}` in the entry
 *   `shared` (with a case-mismatch warning). We hint neither;
 * - after a rename planned by the service, `pdflatex` + `bibtex` read the project with no
 *   undefined citation and print the renamed entry under its new key, and `pandoc --citeproc`
 *   finds every citation of the Markdown document that reads the same `.bib`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { projectServiceOver } from './memoryWorkspace.js';

const has = (tool: string) => spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0 || spawnSync('which', [tool]).status === 0;
const TOOLS = ['pdflatex', 'bibtex', 'checkcites', 'pandoc'].every(has);
if (!TOOLS && !process.env.CI) console.log('pdflatex, bibtex, checkcites or pandoc is not installed: the comparisons with them are skipped');

const MAIN = '\\documentclass{article}\n\\begin{document}\nSee \\cite{used,Shared}.\n\\input{intro}\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n';
const INTRO = 'As \\cite{child} shows.\n% \\cite{spare} in a comment is no citation\n';
const NOTE = '---\nbibliography: refs.bib\n---\n\nAs [@shared; @used, p. 3] say, @shared agrees.\n';
const REFS = [
  '@misc{used,', '  title = {Used},', '  year = {2020},', '}', '',
  '@misc{spare,', '  title = {Spare},', '}', '',
  '@misc{shared,', '  title = {Shared},', '  author = {Doe, Jane},', '  year = {2021},', '}', '',
  '@inproceedings{child,', '  title = {Child},', '  crossref = {parent},', '}', '',
  '@proceedings{parent,', '  title = {Parent},', '  year = {2019},', '}', '',
  '@misc{alsospare,', '  title = {Also spare},', '}', '',
].join('\n');
const FILES = { 'main.tex': MAIN, 'intro.tex': INTRO, 'note.md': NOTE, 'refs.bib': REFS };

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** Writes `files` (name → text) to a new temporary folder. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mlsys-rename-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function run(dir: string, cmd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const service = (files: Record<string, string>) => projectServiceOver(Object.fromEntries(Object.entries(files).map(([n, t]) => [`/ws/${n}`, t])));

describe.skipIf(!TOOLS)('the reference tools agree', () => {
  it('checkcites --unused lists our unused entries, and the crossref parent and the key cited in another case it does not match', async () => {
    const { 'note.md': _, ...latex } = FILES;
    const dir = folder(latex);
    run(dir, 'pdflatex', ['-interaction=nonstopmode', 'main.tex']);
    const cc = run(dir, 'checkcites', ['--unused', 'main.aux']);
    const theirs = [...cc.out.matchAll(/^=> (\S+)$/gm)].map((m) => m[1]!).sort();
    const p = await service(latex);
    const doc = TextDocument.create(URI.file('/ws/refs.bib').toString(), 'bibtex', 1, REFS);
    const ours = (await p.service.diagnostics(doc)).filter((d) => d.code === 'unused-entry').map((d) => (d.data as { key: string }).key).sort();
    expect(ours).toEqual(['alsospare', 'spare']);
    expect(theirs).toEqual([...ours, 'parent', 'shared'].sort());
  });

  it('after a rename, bibtex resolves every citation under the new key and pandoc finds every citation', async () => {
    const p = await service(FILES);
    const doc = TextDocument.create(URI.file('/ws/main.tex').toString(), 'latex', 0, MAIN);
    const r = await p.service.rename(doc, doc.positionAt(MAIN.indexOf('Shared') + 2), 'doe2021shared', { documentChanges: true, changeAnnotations: true });
    const edit = (r as { edit: WorkspaceEdit }).edit;
    const after: Record<string, string> = { ...FILES };
    for (const c of edit.documentChanges as TextDocumentEdit[]) {
      const name = URI.parse(c.textDocument.uri).path.slice('/ws/'.length);
      after[name] = TextDocument.applyEdits(TextDocument.create(c.textDocument.uri, 'x', 0, FILES[name as keyof typeof FILES]), c.edits);
    }
    expect(edit.documentChanges).toHaveLength(3);
    expect(after['refs.bib']).toBe(REFS.replace('@misc{shared,', '@misc{doe2021shared,'));
    const dir = folder(after);
    run(dir, 'pdflatex', ['-interaction=nonstopmode', 'main.tex']);
    const bib = run(dir, 'bibtex', ['main']);
    expect(bib.out).not.toMatch(/didn't find a database entry/);
    expect(readFileSync(join(dir, 'main.bbl'), 'utf8')).toMatch(/\\bibitem\{doe2021shared\}/);
    const pandoc = run(dir, 'pandoc', ['--citeproc', '-t', 'plain', 'note.md']);
    expect(pandoc.status).toBe(0);
    expect(pandoc.out).not.toMatch(/not found/);
    expect(pandoc.out).toMatch(/Doe/);
  });
});
