/**
 * Which saved files make the Markdown preview's citations stale (`affectsMarkdownCitations` in
 * `src/core/markdown/buildFiles.ts`): what the server reads for a document's citations, nothing else.
 */
import { describe, expect, it } from 'vitest';
import { affectsMarkdownCitations } from '../../src/core/markdown/buildFiles.js';

describe('a saved file makes the preview\'s citations stale', () => {
  it.each([
    ['/ws/refs.bib', undefined], ['/ws/refs.json', 'json'], ['/ws/refs.yaml', 'yaml'], ['/ws/_quarto.yml', 'yaml'],
    ['/ws/styles/ieee.csl', 'xml'], ['/ws/Makefile', 'makefile'], ['/ws/build.sh', 'shellscript'], ['/ws/rules.mk', 'makefile'],
    ['/ws/library.txt', 'bibtex'],
  ])('%s (%s): yes', (path, lang) => {
    expect(affectsMarkdownCitations(path, lang)).toBe(true);
  });

  it.each([
    ['/ws/paper.tex', 'latex'], ['/ws/notes.md', 'markdown'], ['/ws/script.py', 'python'], ['/ws/src/app.ts', 'typescript'], ['/ws/README', 'plaintext'],
  ])('%s (%s): no', (path, lang) => {
    expect(affectsMarkdownCitations(path, lang)).toBe(false);
  });
});
