import { describe, expect, it } from 'vitest';
import { latexCitations } from '../../src/core/citations.js';
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

  it.each([
    ['% \\cite{|}'],
    ['50% of \\cite{|}'],
    ['row \\\\% \\cite{|}'],
    ['\\verb+\\cite{|}+'],
    ['\\lstinline!\\cite{|}!'],
    ['\\mintinline{tex}{\\cite{|}}'],
    ['\\begin{verbatim}\n\\cite{|}\n\\end{verbatim}'],
    ['\\begin{lstlisting}[language=TeX]\n\\cite{|}\n\\end{lstlisting}'],
    ['\\begin{minted}{latex}\n\\cite{|}\n\\end{minted}'],
    ['\\begin{comment}\n\\cite{|}\n\\end{comment}'],
    ['\\iffalse \\ifx a b \\fi \\cite{|} \\fi'],
    ['\\cite{a, % old: b|\n c}'],
    ['\\\\cite{|}'],
  ])('%j: in a comment, verbatim text or dead code, no completion', (marked) => {
    expect(latex(marked)).toBeUndefined();
  });

  it.each([
    ['50\\% of \\cite{|}', []],
    ['row \\\\\\% \\cite{|}', []],
    ['\\verb+x+ \\cite{|}', []],
    ['\\begin{lstlisting}[caption={From \\citet{|}}]\nx\n\\end{lstlisting}', []],
    ['\\begin{verbatim}\n\\cite{x}\n\\end{verbatim} \\cite{|}', []],
    ['\\iffalse \\cite{x} \\else \\cite{|} \\fi', []],
    ['\\cite{a, % old: b\n |}', ['a']],
    ['\\cite{a, % } no\n b, |}', ['a', 'b']],
    ['\\cite{a,|} % }', ['a']],
  ])('%j: in LaTeX code, existing %j', (marked, existing) => {
    const ctx = latex(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.existing).toEqual(existing);
  });

  it('a comment inside the key list does not end it', () => {
    const { text, offset } = cursor('\\cite{a,|% note }\n b}');
    const ctx = latexCiteContext(text, offset)!;
    expect(ctx.listEnd).toBe(text.lastIndexOf('}'));
    expect(ctx.existing).toEqual(['a', 'b']);
  });

  describe('a long listing', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, k) => `line ${k} of code  # \\cite{k${k}}`).join('\n');
    const doc = (middle: string) =>
      `Intro \\cite{intro}.\n\\begin{lstlisting}\n${lines(120)}\n${middle}\n${lines(120)}\n\\end{lstlisting}\nAfter \\cite{|}.`;

    it('a cursor deep inside the listing gets no completion', () => {
      const text = doc('\\cite{x}').replace('\\cite{|}', '\\cite{}');
      const offset = text.indexOf('\\cite{x}') + 6;
      expect(offset - text.indexOf('\\begin{lstlisting}')).toBeGreaterThan(2000);
      expect(latexCiteContext(text, offset)).toBeUndefined();
    });

    it('a cursor after the listing does', () => {
      const { text, offset } = cursor(doc('code'));
      expect(latexCiteContext(text, offset)?.keyStart).toBe(offset);
    });
  });

  it('a stray \\end{verbatim} after the cursor does not hide the citation', () => {
    const text = 'See \\cite{a,} here.\n\\end{verbatim}\n';
    expect(latexCitations(text).map((c) => c.key)).toEqual(['a']);
    const ctx = latexCiteContext(text, text.indexOf(',') + 1)!;
    expect(ctx).toBeDefined();
    expect(ctx.existing).toEqual(['a']);
    expect(ctx.prefix).toBe('');
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
    expect(citeContextAt(text, offset, 'latex')?.syntax).toBe('latex');
    expect(citeContextAt(text, offset, 'plaintext')).toBeUndefined();
    const md = cursor('[@|]');
    expect(citeContextAt(md.text, md.offset, 'markdown')?.syntax).toBe('pandoc');
  });
});
