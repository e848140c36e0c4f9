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
const textAt = (doc: TextDocument, d: Diagnostic) => doc.getText(d.range);

describe('a .bib syntax error in the citing document', () => {
  it('LaTeX: on \\bibliography{refs}, not on the good citation', async () => {
    const tex = '\\documentclass{article}\n\\begin{document}\nSee \\cite{good}.\n\\bibliography{refs}\n\\end{document}\n';
    const doc = TextDocument.create(URI.file('/ws/main.tex').toString(), 'latex', 1, tex);
    const diags = (await serviceOver({ '/ws/main.tex': tex, '/ws/refs.bib': BIB }).diagnostics(doc)).filter(isBroken);
    expect(diags.map((d) => [d.range.start.line, textAt(doc, d)])).toEqual([[3, '\\bibliography{refs}']]);
  });

  it('LaTeX: on \\addbibresource{refs.bib}', async () => {
    const tex = '\\documentclass{article}\n\\usepackage{biblatex}\n\\addbibresource{refs.bib}\n\\begin{document}\nSee \\cite{good}.\n\\end{document}\n';
    const doc = TextDocument.create(URI.file('/ws/main.tex').toString(), 'latex', 1, tex);
    const diags = (await serviceOver({ '/ws/main.tex': tex, '/ws/refs.bib': BIB }).diagnostics(doc)).filter(isBroken);
    expect(diags.map((d) => [d.range.start.line, textAt(doc, d)])).toEqual([[2, '\\addbibresource{refs.bib}']]);
  });

  it('Markdown: on the front matter\'s bibliography: line', async () => {
    const md = '---\ntitle: T\nbibliography: refs.bib\n---\n\nSee [@good].\n';
    const doc = TextDocument.create(URI.file('/ws/doc.md').toString(), 'markdown', 1, md);
    const diags = (await serviceOver({ '/ws/doc.md': md, '/ws/refs.bib': BIB }).diagnostics(doc)).filter(isBroken);
    expect(diags.map((d) => [d.range.start.line, textAt(doc, d)])).toEqual([[2, 'bibliography: refs.bib']]);
  });

  it('a bibliography the document does not declare (beside it): at the start of the document', async () => {
    const md = 'Some text first.\n\nSee [@good].\n';
    const doc = TextDocument.create(URI.file('/ws/doc.md').toString(), 'markdown', 1, md);
    const diags = (await serviceOver({ '/ws/doc.md': md, '/ws/refs.bib': BIB }).diagnostics(doc)).filter(isBroken);
    expect(diags.map((d) => d.range)).toEqual([{ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }]);
  });

  it('in the .bib itself, the problem stays on the broken entry', async () => {
    const doc = TextDocument.create(URI.file('/ws/refs.bib').toString(), 'bibtex', 1, BIB);
    const diags = await serviceOver({ '/ws/refs.bib': BIB }).diagnostics(doc);
    expect(diags.length).toBeGreaterThan(0);
    for (const d of diags) expect(d.range.start.line, d.message).toBeGreaterThanOrEqual(4);
    expect(diags.every((d) => d.range.start.line <= 8)).toBe(true);
  });
});
