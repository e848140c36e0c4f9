import { describe, expect, it } from 'vitest';
import { latexCitations } from '../../src/core/cite/citations.js';
import { citeContextAt, latexCiteContext, pandocCiteContext } from '../../src/core/cite/citationContext.js';
import { CURSOR, cursor } from './helpers.js';

const latex = (marked: string) => { const { text, offset } = cursor(marked); return latexCiteContext(text, offset); };
const pandoc = (marked: string) => { const { text, offset } = cursor(marked); return pandocCiteContext(text, offset); };

describe('LaTeX citation context', () => {
  it.each([
    [`\\cite{${CURSOR}}`, 'cite', '', []],
    [`\\cite{kw${CURSOR}}`, 'cite', 'kw', []],
    [`\\cite{a,${CURSOR}}`, 'cite', '', ['a']],
    [`\\cite{a, b${CURSOR}}`, 'cite', 'b', ['a']],
    [`\\citep[see][p.~3]{a,${CURSOR}b}`, 'citep', '', ['a', 'b']],
    [`\\citet*{${CURSOR}}`, 'citet', '', []],
    [`\\parencite{${CURSOR}}`, 'parencite', '', []],
    [`\\textcite{${CURSOR}}`, 'textcite', '', []],
    [`\\autocite[p.~3]{${CURSOR}}`, 'autocite', '', []],
    [`\\footcite{${CURSOR}}`, 'footcite', '', []],
    [`\\nocite{${CURSOR}}`, 'nocite', '', []],
    [`\\Citep{${CURSOR}}`, 'Citep', '', []],
    [`\\cites{a}{${CURSOR}}`, 'cites', '', []],
    [`\\cite{a,\n  b,\n  ${CURSOR}}`, 'cite', '', ['a', 'b']],
  ])('%j → \\%s, prefix %j, existing %j', (marked, command, prefix, existing) => {
    const ctx = latex(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.command).toBe(command);
    expect(ctx.prefix).toBe(prefix);
    expect(ctx.existing).toEqual(existing);
  });

  it.each([
    [`\\section{${CURSOR}}`], [`\\cite{a} ${CURSOR}`], [`no command {${CURSOR}}`], [`\\cite{a}{b} text {${CURSOR}}`], [`\\textbf{\\cite{a} ${CURSOR}}`], [`${CURSOR}`],
  ])('%j is not a citation', (marked) => {
    expect(latex(marked)).toBeUndefined();
  });

  it('reports the partial key range for replacement', () => {
    const ctx = latex(`\\cite{a,kw${CURSOR}on}`)!;
    expect([ctx.keyStart, ctx.keyEnd]).toEqual([8, 12]);
  });

  it.each([
    [`% \\cite{${CURSOR}}`],
    [`50% of \\cite{${CURSOR}}`],
    [`row \\\\% \\cite{${CURSOR}}`],
    [`\\verb+\\cite{${CURSOR}}+`],
    [`\\lstinline!\\cite{${CURSOR}}!`],
    [`\\mintinline{tex}{\\cite{${CURSOR}}}`],
    [`\\begin{verbatim}\n\\cite{${CURSOR}}\n\\end{verbatim}`],
    [`\\begin{lstlisting}[language=TeX]\n\\cite{${CURSOR}}\n\\end{lstlisting}`],
    [`\\begin{minted}{latex}\n\\cite{${CURSOR}}\n\\end{minted}`],
    [`\\begin{comment}\n\\cite{${CURSOR}}\n\\end{comment}`],
    [`\\iffalse \\ifx a b \\fi \\cite{${CURSOR}} \\fi`],
    [`\\cite{a, % old: b${CURSOR}\n c}`],
    [`\\\\cite{${CURSOR}}`],
  ])('%j: in a comment, verbatim text or dead code, no completion', (marked) => {
    expect(latex(marked)).toBeUndefined();
  });

  it.each([
    [`50\\% of \\cite{${CURSOR}}`, []],
    [`row \\\\\\% \\cite{${CURSOR}}`, []],
    [`\\verb+x+ \\cite{${CURSOR}}`, []],
    [`\\begin{lstlisting}[caption={From \\citet{${CURSOR}}}]\nx\n\\end{lstlisting}`, []],
    [`\\begin{verbatim}\n\\cite{x}\n\\end{verbatim} \\cite{${CURSOR}}`, []],
    [`\\iffalse \\cite{x} \\else \\cite{${CURSOR}} \\fi`, []],
    [`\\cite{a, % old: b\n ${CURSOR}}`, ['a']],
    [`\\cite{a, % } no\n b, ${CURSOR}}`, ['a', 'b']],
    [`\\cite{a,${CURSOR}} % }`, ['a']],
  ])('%j: in LaTeX code, existing %j', (marked, existing) => {
    const ctx = latex(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.existing).toEqual(existing);
  });

  it('a comment inside the key list does not end it', () => {
    const { text, offset } = cursor(`\\cite{a,${CURSOR}% note }\n b}`);
    const ctx = latexCiteContext(text, offset)!;
    expect(ctx.listEnd).toBe(text.lastIndexOf('}'));
    expect(ctx.existing).toEqual(['a', 'b']);
  });

  describe('a long listing', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, k) => `line ${k} of code  # \\cite{k${k}}`).join('\n');
    const doc = (middle: string) =>
      `Intro \\cite{intro}.\n\\begin{lstlisting}\n${lines(120)}\n${middle}\n${lines(120)}\n\\end{lstlisting}\nAfter \\cite{${CURSOR}}.`;

    it('a cursor deep inside the listing gets no completion', () => {
      const text = doc('\\cite{x}').replace(`\\cite{${CURSOR}}`, '\\cite{}');
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
    [`[@${CURSOR}]`, '', true, []],
    [`[@kw${CURSOR}]`, 'kw', true, []],
    [`see @kw${CURSOR}`, 'kw', false, []],
    [`@${CURSOR}`, '', false, []],
    [`[-@${CURSOR}]`, '', true, []],
    [`[see @a, p. 3; @${CURSOR}]`, '', true, ['a']],
    [`[@a; @b${CURSOR}]`, 'b', true, ['a']],
    [`[@a; ${CURSOR}]`, '', true, ['a']],
  ])('%j → prefix %j, bracketed %s, existing %j', (marked, prefix, bracketed, existing) => {
    const ctx = pandoc(marked)!;
    expect(ctx).toBeDefined();
    expect(ctx.prefix).toBe(prefix);
    expect(ctx.bracketed).toBe(bracketed);
    expect(ctx.existing).toEqual(existing);
  });

  it.each([
    [`mail me@exa${CURSOR}`], [`word${CURSOR}`], [`[link text${CURSOR}](http://x)`], [`[no at sign ${CURSOR}]`], [`x@${CURSOR}`],
  ])('%j is not a citation', (marked) => {
    expect(pandoc(marked)).toBeUndefined();
  });

  it('dispatches by language id', () => {
    const { text, offset } = cursor(`\\cite{${CURSOR}}`);
    expect(citeContextAt(text, offset, 'latex')?.syntax).toBe('latex');
    expect(citeContextAt(text, offset, 'plaintext')).toBeUndefined();
    const md = cursor(`[@${CURSOR}]`);
    expect(citeContextAt(md.text, md.offset, 'markdown')?.syntax).toBe('pandoc');
  });
});
