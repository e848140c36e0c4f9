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

  describe('a long listing: the whole document, or a window of it as completion reads it', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, k) => `line ${k} of code  # \\cite{k${k}}`).join('\n');
    const doc = (middle: string, after = lines(120)) =>
      `Intro \\cite{intro}.\n\\begin{lstlisting}\n${lines(120)}\n${middle}\n${after}\n\\end{lstlisting}\nAfter \\cite{|}.`;
    /** What completion passes today: 2,000 characters before the cursor and 1,000 after. */
    const windowed = (text: string, offset: number) => {
      const base = Math.max(0, offset - 2000);
      const ctx = latexCiteContext(text.slice(base, offset + 1000), offset - base);
      return ctx && { ...ctx, keyStart: ctx.keyStart + base };
    };

    it('a cursor deep inside the listing gets no completion', () => {
      const text = doc('\\cite{x}').replace('\\cite{|}', '\\cite{}');
      const offset = text.indexOf('\\cite{x}') + 6;
      expect(offset - text.indexOf('\\begin{lstlisting}')).toBeGreaterThan(2000);
      expect(latexCiteContext(text, offset)).toBeUndefined();
      // A window that starts inside the listing knows it from the listing's \end ahead of the cursor.
      const near = doc('\\cite{x}', lines(5)).replace('\\cite{|}', '\\cite{}');
      expect(windowed(near, near.indexOf('\\cite{x}') + 6)).toBeUndefined();
    });

    it('a cursor after the listing does', () => {
      const { text, offset } = cursor(doc('code'));
      expect(latexCiteContext(text, offset)?.keyStart).toBe(offset);
      expect(windowed(text, offset)?.keyStart).toBe(offset);
    });
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
