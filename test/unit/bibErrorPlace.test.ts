/**
 * Issue 27, loose end: a `.bib` syntax error is reported at the bibliography command (or the
 * front matter's `bibliography:` line) of the citing document, or at its start when nothing in it
 * declares the file; never on a good citation. In the `.bib` itself the problem stays on the entry.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { serviceOver } from './memoryWorkspace.js';

const BIB = '@misc{good,\n  title = {Good},\n}\n\n@misc{broken,\n  title = {Never closed,\n  year = 2020\n\n@misc{other,\n  title = {Other},\n}\n';
const isBroken = (d: Diagnostic) => /refs\.bib, line \d+/.test(d.message);
/** The broken file's diagnostics in a citing document beside refs.bib, each as [line, column, the text it covers]. */
async function brokenAt(path: string, languageId: string, text: string, files: Record<string, string> = { '/ws/refs.bib': BIB }): Promise<[number, number, string][]> {
  const doc = TextDocument.create(URI.file(path).toString(), languageId, 1, text);
  const diags = (await serviceOver({ [path]: text, ...files }).diagnostics(doc)).filter(isBroken);
  return diags.map((d) => [d.range.start.line, d.range.start.character, doc.getText(d.range)]);
}

describe('a .bib syntax error in the citing document', () => {
  it('LaTeX: on \\bibliography{refs}, not on the good citation', async () => {
    const tex = '\\documentclass{article}\n\\begin{document}\nSee \\cite{good}.\n\\bibliography{refs}\n\\end{document}\n';
    expect(await brokenAt('/ws/main.tex', 'latex', tex)).toEqual([[3, 0, '\\bibliography{refs}']]);
  });

  it('LaTeX: on \\addbibresource{refs.bib}', async () => {
    const tex = '\\documentclass{article}\n\\usepackage{biblatex}\n\\addbibresource{refs.bib}\n\\begin{document}\nSee \\cite{good}.\n\\end{document}\n';
    expect(await brokenAt('/ws/main.tex', 'latex', tex)).toEqual([[2, 0, '\\addbibresource{refs.bib}']]);
  });

  it('LaTeX: on the command that names the broken file, not on one that names another file of the same name', async () => {
    const tex = '\\documentclass{article}\n\\addbibresource{a/refs.bib}\n\\addbibresource{b/refs.bib}\n\\begin{document}\nSee \\cite{good}.\n\\end{document}\n';
    const good = '@misc{fine,\n  title = {Fine},\n}\n';
    expect(await brokenAt('/ws/main.tex', 'latex', tex, { '/ws/a/refs.bib': good, '/ws/b/refs.bib': BIB })).toEqual([[2, 0, '\\addbibresource{b/refs.bib}']]);
  });

  it('Markdown: on the front matter\'s bibliography: line', async () => {
    const md = '---\ntitle: T\nbibliography: refs.bib\n---\n\nSee [@good].\n';
    expect(await brokenAt('/ws/doc.md', 'markdown', md)).toEqual([[2, 0, 'bibliography: refs.bib']]);
  });

  it('a bibliography the document does not declare (beside it): at the start of the document', async () => {
    const md = 'Some text first.\n\nSee [@good].\n';
    // An empty range at the start: it covers no text.
    expect(await brokenAt('/ws/doc.md', 'markdown', md)).toEqual([[0, 0, '']]);
  });

  it('in the .bib itself, the problem stays on the broken entry', async () => {
    const doc = TextDocument.create(URI.file('/ws/refs.bib').toString(), 'bibtex', 1, BIB);
    const diags = await serviceOver({ '/ws/refs.bib': BIB }).diagnostics(doc);
    expect(diags.length).toBeGreaterThan(0);
    for (const d of diags) expect(d.range.start.line, d.message).toBeGreaterThanOrEqual(4);
    expect(diags.every((d) => d.range.start.line <= 8)).toBe(true);
  });
});
