/**
 * Cross-references written as citations (issue 21, cause 6) through the citation service: in a
 * `.qmd` file, in any Markdown document of a Quarto project (`_quarto.yml` above it, with its
 * custom cross-reference types), and with pandoc-crossref, `@fig-plot` / `@fig:plot` raise no
 * "Unknown citation key", have no hover, and complete no citation key; LaTeX's `\nocite{*}` and a
 * macro's `#1` raise nothing either (cause 3).
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { CitationService } from '../../src/core/service/service.js';
import { serviceOver } from './memoryWorkspace.js';

const service = (files: Record<string, string>) => serviceOver(files);

const doc = (path: string, languageId: string, text: string) => TextDocument.create(URI.file(path).toString(), languageId, 1, text);
const REFS = '@article{doe99,\n  title = {Frogs},\n  year = {1999}\n}\n';
const unknownKeys = async (s: CitationService, d: TextDocument) =>
  (await s.diagnostics(d)).map((x) => d.getText().slice(d.offsetAt(x.range.start), d.offsetAt(x.range.end)));

describe('cross-references are not citation keys', () => {
  it('a .qmd file: @fig-plot, @tbl-data, @sec-intro raise nothing; a real unknown key still does', async () => {
    const s = service({ '/ws/refs.bib': REFS });
    const d = doc('/ws/paper.qmd', 'quarto', '---\nbibliography: refs.bib\n---\nSee @fig-plot, @tbl-data and @sec-intro; [@doe99] and @nosuch1999.\n');
    expect(await unknownKeys(s, d)).toEqual(['nosuch1999']);
    expect(await s.hover(d, d.positionAt(d.getText().indexOf('fig-plot') + 2))).toBeUndefined();
  });

  it('a .md file of a Quarto project, with the project\'s custom cross-reference type', async () => {
    const s = service({
      '/ws/book/_quarto.yml': 'project:\n  type: book\nbibliography: refs.bib\ncrossref:\n  custom:\n    - kind: float\n      key: vid\n      reference-prefix: Video\n',
      '/ws/book/refs.bib': REFS,
    });
    const d = doc('/ws/book/chapters/intro.md', 'markdown', 'See @fig-plot and @vid-demo; [@doe99] and @nosuch1999.\n');
    expect(await unknownKeys(s, d)).toEqual(['nosuch1999']);
    // Outside the project the same text cites them.
    const outside = service({ '/ws/refs.bib': REFS });
    const o = doc('/ws/intro.md', 'markdown', '---\nbibliography: refs.bib\n---\nSee @fig-plot and @vid-demo.\n');
    expect(await unknownKeys(outside, o)).toEqual(['fig-plot', 'vid-demo']);
  });

  it('pandoc-crossref named in the front matter: @fig:plot raises nothing', async () => {
    const s = service({ '/ws/refs.bib': REFS });
    const d = doc('/ws/a.md', 'markdown', '---\nbibliography: refs.bib\nfilters: [pandoc-crossref]\n---\nSee @fig:plot and @eq:one, [@doe99].\n');
    expect(await unknownKeys(s, d)).toEqual([]);
  });

  it('completion offers no citation key after @fig- in Quarto, and does after @fi', async () => {
    const s = service({ '/ws/refs.bib': REFS });
    const text = '---\nbibliography: refs.bib\n---\nSee @fig-';
    const d = doc('/ws/paper.qmd', 'quarto', text);
    expect(await s.complete(d, d.positionAt(text.length))).toBeUndefined();
    const d2 = doc('/ws/paper.qmd', 'quarto', `${text.slice(0, -2)}`);
    expect((await s.complete(d2, d2.positionAt(d2.getText().length)))?.items.length).toBeGreaterThan(0);
  });

  it('LaTeX: \\nocite{*} and a macro parameter raise nothing', async () => {
    const s = service({ '/ws/refs.bib': REFS });
    const d = doc('/ws/main.tex', 'latex', '\\newcommand{\\inlinecite}[1]{\\cite{#1}}\n\\bibliography{refs}\n\\nocite{*}\\cite{doe99}\n');
    expect(await unknownKeys(s, d)).toEqual([]);
    expect([...(await s.citedKeys(d))]).toEqual(['doe99']);
  });
});
