import { describe, expect, it } from 'vitest';
import { citeContextAt, latexCiteContext, pandocCiteContext } from '../../src/core/context.js';
import { cursor } from './helpers.js';

const latex = (marked: string) => { const { text, offset } = cursor(marked); return latexCiteContext(text, offset); };
const pandoc = (marked: string) => { const { text, offset } = cursor(marked); return pandocCiteContext(text, offset); };

describe('LaTeX citation context', () => {
  it.each([
    ['\\cite{|}', 'cite', '', []],
    ['\\cite{kw|}', 'cite', 'kw', []],
    ['\\cite{a,|}', 'cite', '', ['a']],
    ['\\cite{a, b|}', 'cite', 'b', ['a']],
    ['\\citep[see][p.~3]{a,|b}', 'citep', '', ['a', 'b']],
    ['\\citet*{|}', 'citet', '', []],
    ['\\parencite{|}', 'parencite', '', []],
    ['\\textcite{|}', 'textcite', '', []],
    ['\\autocite[p.~3]{|}', 'autocite', '', []],
    ['\\footcite{|}', 'footcite', '', []],
    ['\\nocite{|}', 'nocite', '', []],
    ['\\Citep{|}', 'Citep', '', []],
    ['\\cites{a}{|}', 'cites', '', []],
    ['\\cite{a,\n  b,\n  |}', 'cite', '', ['a', 'b']],
  ])('%j → \\%s, prefix %j, existing %j', (marked, command, prefix, existing) => {
    const ctx = latex(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.command).toBe(command);
    expect(ctx.prefix).toBe(prefix);
    expect(ctx.existing).toEqual(existing);
  });

  it.each([
    ['\\section{|}'], ['\\cite{a} |'], ['no command {|}'], ['\\cite{a}{b} text {|}'], ['\\textbf{\\cite{a} |}'], ['|'],
  ])('%j is not a citation', (marked) => {
    expect(latex(marked)).toBeUndefined();
  });

  it('reports the partial key range for replacement', () => {
    const ctx = latex('\\cite{a,kw|on}')!;
    expect([ctx.keyStart, ctx.keyEnd]).toEqual([8, 12]);
  });
});

describe('Pandoc citation context', () => {
  it.each([
    ['[@|]', '', true, []],
    ['[@kw|]', 'kw', true, []],
    ['see @kw|', 'kw', false, []],
    ['@|', '', false, []],
    ['[-@|]', '', true, []],
    ['[see @a, p. 3; @|]', '', true, ['a']],
    ['[@a; @b|]', 'b', true, ['a']],
    ['[@a; |]', '', true, ['a']],
  ])('%j → prefix %j, bracketed %s, existing %j', (marked, prefix, bracketed, existing) => {
    const ctx = pandoc(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.prefix).toBe(prefix);
    expect(ctx.bracketed).toBe(bracketed);
    expect(ctx.existing).toEqual(existing);
  });

  it.each([
    ['mail me@exa|'], ['word|'], ['[link text|](http://x)'], ['[no at sign |]'], ['x@|'],
  ])('%j is not a citation', (marked) => {
    expect(pandoc(marked)).toBeUndefined();
  });

  it('dispatches by language id', () => {
    const { text, offset } = cursor('\\cite{|}');
    expect(citeContextAt(text, offset, 'latex')?.kind).toBe('latex');
    expect(citeContextAt(text, offset, 'plaintext')).toBeUndefined();
    const md = cursor('[@|]');
    expect(citeContextAt(md.text, md.offset, 'markdown')?.kind).toBe('pandoc');
  });
});
