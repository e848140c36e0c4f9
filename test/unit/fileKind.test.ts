/**
 * `fileKind` (`src/core/workspace/fileKind.ts`): the one place that decides what a file is, from
 * the editor's language id when there is one, else from the file's name.
 */
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { fileKind, isBibliography, isCiting, isMarkdown } from '../../src/core/workspace/fileKind.js';

describe('fileKind', () => {
  it('takes the language id of an open document first', () => {
    expect(fileKind('/ws/a.txt', 'latex')).toBe('latex');
    expect(fileKind('/ws/a.txt', 'latex-expl3')).toBe('latex');
    expect(fileKind('/ws/a.md', 'markdown')).toBe('markdown');
    expect(fileKind('/ws/a.Rmd', 'rmd')).toBe('markdown');
    expect(fileKind('/ws/a.md', 'quarto')).toBe('quarto');
    // A .qmd opened as Markdown is Quarto (its cross-references are Quarto's).
    expect(fileKind(URI.file('/ws/a.qmd'), 'markdown')).toBe('quarto');
    expect(fileKind('/ws/a.txt', 'bibtex')).toBe('bibtex');
  });

  it('knows a bibliography by its name whatever the language id, and nothing else', () => {
    expect(fileKind('/ws/refs.bib', 'plaintext')).toBe('bibtex');
    expect(fileKind('/ws/refs.json', 'json')).toBe('csl-json');
    expect(fileKind('/ws/refs.yml', 'yaml')).toBe('csl-yaml');
    // A LaTeX or Markdown name under another language id is what the editor says it is: nothing we read.
    expect(fileKind('/ws/main.tex', 'plaintext')).toBeUndefined();
    expect(fileKind('/ws/notes.md', 'plaintext')).toBeUndefined();
  });

  it('reads a file on disk by its name', () => {
    expect(['a.tex', 'a.LTX', 'a.latex', 'a.qmd', 'a.md', 'a.markdown', 'a.Rmd', 'main.bbl', 'r.bib', 'r.bibtex', 'r.json', 'r.yaml', 'r.YML', 'a.txt', 'bib']
      .map((n) => fileKind(`/ws/${n}`))).toEqual(['latex', 'latex', 'latex', 'quarto', 'markdown', 'markdown', 'markdown', 'bbl', 'bibtex', 'bibtex', 'csl-json', 'csl-yaml', 'csl-yaml', undefined, undefined]);
  });

  it('groups the kinds', () => {
    expect((['latex', 'markdown', 'quarto', 'bibtex', 'bbl', undefined] as const).map(isCiting)).toEqual([true, true, true, false, false, false]);
    expect((['latex', 'markdown', 'quarto'] as const).map(isMarkdown)).toEqual([false, true, true]);
    expect((['bibtex', 'csl-json', 'csl-yaml', 'bbl', 'latex'] as const).map(isBibliography)).toEqual([true, true, true, false, false]);
  });
});
