import { describe, expect, it } from 'vitest';
import { citationAt, citedKeys, latexCitations, pandocCitations } from '../../src/core/citations.js';

const keysOf = (cs: { key: string }[]) => cs.map((c) => c.key);

describe('citations in a document', () => {
  it('citedKeys: each key once, in order of first citation', () => {
    expect(citedKeys('\\cite{b,a} then \\cite{a} and \\citep{c,b}', 'latex')).toEqual(['b', 'a', 'c']);
    expect(citedKeys('[@x; @y] and @x', 'markdown')).toEqual(['x', 'y']);
    expect(citedKeys('\\cite{a}', 'plaintext')).toEqual([]);
  });

  it('LaTeX: every citation command, key lists across lines, multicite, and not in comments', () => {
    const tex = [
      'See \\cite{a, b} and \\citep[p.~3]{c}.',
      '\\textcite{d}\\parencite*{e}\\nocite{f}',
      '% \\cite{commented}',
      '\\cites{g}[p.~1]{h,',
      '  i}',
      '50\\% done \\autocite{j}',
    ].join('\n');
    const cs = latexCitations(tex);
    expect(keysOf(cs)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    for (const c of cs) expect(tex.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it('LaTeX: not in comments, verbatim text or \\iffalse blocks; `\\\\%` starts a comment, `\\%` does not', () => {
    const tex = [
      '\\% \\cite{a}',
      'x \\\\% \\cite{no1}',
      '% \\cite{no2}',
      '\\verb|\\cite{no3}| \\verb*+\\cite{no4}+ \\lstinline{\\cite{no5}} \\mintinline{tex}|\\cite{no6}|',
      '\\begin{verbatim}\n\\cite{no7}\n\\end{verbatim}',
      '\\begin{Verbatim}[frame=single]\n\\cite{no8}\n\\end{Verbatim}',
      '\\begin{lstlisting}[caption={\\cite{b}}]\n\\cite{no9}\n\\end{lstlisting}',
      '\\begin{minted}{tex}\n\\cite{no10}\n\\end{minted}',
      '\\begin{comment}\n\\cite{no11}\n\\end{comment}',
      '\\iffalse \\ifx a b \\fi \\cite{no12} \\fi \\cite{c}',
      '\\iffalse \\cite{no13} \\else \\cite{d} \\fi',
      '\\cite{e, % f,',
      '  g}',
    ].join('\n');
    const cs = latexCitations(tex);
    expect(keysOf(cs)).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
    for (const c of cs) expect(tex.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it('LaTeX: only biblatex multicite commands take several key lists; unclosed lists cite nothing', () => {
    expect(keysOf(latexCitations('\\cite{a}{b} \\textcites(x)[p.~1]{c}[p.~2]{d} \\cite{open'))).toEqual(['a', 'c', 'd']);
    expect(keysOf(latexCitations('\\cite{x{y}} \\nocite{*}'))).toEqual(['*']);
  });

  it('Markdown: Pandoc citations, nocite in the front matter, not e-mail addresses or code', () => {
    const md = [
      '---',
      'author: me@example.org',
      'nocite: |',
      '  @z1, @z2',
      '---',
      'As [@a; @b, p. 3] and @c say, [-@d].',
      'Mail me@example.org. `@notcode` and',
      '```',
      '@incode',
      '```',
      'End @e.',
    ].join('\n');
    const cs = pandocCitations(md);
    expect(keysOf(cs)).toEqual(['z1', 'z2', 'a', 'b', 'c', 'd', 'e']);
    for (const c of cs) expect(md.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it('finds the key under the cursor', () => {
    expect(citationAt('x \\cite{alpha,beta}', 15, 'latex')?.key).toBe('beta');
    expect(citationAt('x \\cite{alpha,beta}', 1, 'latex')).toBeUndefined();
  });
});
