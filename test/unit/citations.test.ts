import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationAt, citedKeys, latexCitations, latexDocumentCitations, pandocCitations } from '../../src/core/cite/citations.js';

/** `fixtures/citations/*.tex`: LaTeX whose citations are not what the commands' text says (issue 21, cause 3). */
const CITATION_FIXTURES = join(__dirname, 'fixtures/citations');
const citationFixtures = readdirSync(CITATION_FIXTURES).filter((f) => f.endsWith('.tex')).sort();

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
    expect(keysOf(latexCitations('\\cite{x{y}} \\nocite{*}'))).toEqual([]);
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

describe('LaTeX citations TeX does not make (issue 21, cause 3)', () => {
  it.each(citationFixtures)('%s', (name) => {
    const text = readFileSync(join(CITATION_FIXTURES, name), 'utf8');
    const expected = /^% expect-cited:(.*)$/m.exec(text)![1]!.trim().split(/\s+/).filter(Boolean);
    const { cited, all } = latexDocumentCitations(text);
    expect(keysOf(cited)).toEqual(expected);
    expect(all).toBe(/^% expect-all: true$/m.test(text));
    for (const c of cited) expect(text.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it('Markdown: nocite in a YAML metadata block after the front matter (pandoc reads every one)', () => {
    const text = 'Text [@a].\n\n---\nnocite: |\n  @b, @c\n...\n\nMore.\n';
    expect(keysOf(pandocCitations(text))).toEqual(['a', 'b', 'c']);
    // Dashes under a paragraph line make a heading, not a metadata block: `nocite: @z` is text,
    // whose @z pandoc reads as a citation (checked with pandoc -t json).
    expect(keysOf(pandocCitations('Text.\n---\nnocite: @z\n'))).toEqual(['z']);
  });

  it('\\nocite{*} is no key `*`: the document cites every entry', () => {
    expect(keysOf(latexCitations('\\nocite{*}\\cite{a}'))).toEqual(['a']);
    const keys = citedKeys('\\nocite{*}\\cite{a}', 'latex');
    expect(keys).toEqual(['a']);
    expect(keys.all).toBe(true);
    expect(citedKeys('\\cite{a}', 'latex').all).toBe(false);
    // Only \\nocite cites all; elsewhere `*` is simply not a key.
    expect(citedKeys('\\cite{*}', 'latex').all).toBe(false);
  });

  it('a macro parameter (`#1`, `##1`) is no key', () => {
    expect(keysOf(latexCitations('\\newcommand{\\inlinecite}[1]{\\cite{#1}} \\def\\x##1{\\cite{##1}} \\cite{a,#2}'))).toEqual(['a']);
  });

  it('\\if0 … \\fi is skipped like \\iffalse; \\if00 and \\if@x are not', () => {
    expect(keysOf(latexCitations('\\if0\n\\cite{no}\n\\fi \\if 0 \\cite{no2}\\fi \\if00 \\cite{a}\\fi \\if@x \\cite{b}\\fi'))).toEqual(['a', 'b']);
  });

  it('`% mlsys-papers: ignore` silences the keys on its line only', () => {
    const tex = '\\todo{\\cite{x}} % mlsys-papers: ignore\n\\cite{y}\r\n\\cite{z}%mlsys-papers:ignore\n\\cite{w} % \\verb|mlsys-papers: ignore|';
    expect(keysOf(latexCitations(tex))).toEqual(['y', 'w']);
  });
});

