import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latexBibliographies, planLatexBibDeclaration, texRootOf } from '../../src/core/latex/bibDeclarations.js';
import { latexCitations } from '../../src/core/cite/citations.js';
import { latexCiteContext } from '../../src/core/cite/citationContext.js';
import { latexCiteCommands, latexCommands } from '../../src/core/latex/commands.js';
import { latexRegionAt, latexRegions, maskLatex, type LatexRegion } from '../../src/core/latex/scan.js';

const FIXTURES = join(__dirname, 'fixtures/latex');
const fixtureNames = readdirSync(FIXTURES).filter((f) => f.endsWith('.tex')).sort();
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** A fixture's `% expect-NAME: value` header lines (comments, so not LaTeX code themselves). */
function expectations(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^% expect-([a-z]+):(.*)$/gm)) out[m[1]!] = m[2]!.trim();
  return out;
}
const words = (s: string | undefined) => (s ? s.split(/\s+/) : []);

/** The regions as [kind, hidden text] pairs, for readable expectations. */
const shown = (text: string, regions = latexRegions(text)) => regions.map((r: LatexRegion) => [r.kind, text.slice(r.start, r.end)]);

describe('LaTeX fixtures', () => {
  it('there is a fixture for each case and at least two papers', () => {
    for (const prefix of ['comment-', 'verb', 'lstinline', 'mintinline', 'env-verbatim', 'env-Verbatim', 'env-lstlisting',
      'env-minted', 'env-comment', 'iffalse', 'paper-']) {
      expect(fixtureNames.some((f) => f.startsWith(prefix)), prefix).toBe(true);
    }
    expect(fixtureNames.filter((f) => f.startsWith('paper-')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(fixtureNames)('%s', (name) => {
    const text = fixture(name);
    const exp = expectations(text);
    expect(exp.cited, 'the fixture says what it cites').toBeDefined();
    const cited = latexCitations(text);
    expect(cited.map((c) => c.key)).toEqual(words(exp.cited));
    for (const c of cited) expect(text.slice(c.offset, c.offset + c.length)).toBe(c.key);
    if (exp.bib !== undefined) expect(latexBibliographies(text).map((d) => d.path)).toEqual(words(exp.bib));
    if (exp.root !== undefined) expect(texRootOf(text)).toBe(exp.root || undefined);

    // Masking keeps every offset and line break.
    const masked = maskLatex(text);
    expect(masked.length).toBe(text.length);
    expect([...masked.matchAll(/\r?\n/g)].map((m) => m.index)).toEqual([...text.matchAll(/\r?\n/g)].map((m) => m.index));

    // Completion agrees with the citation list: right after the `{` of each citation-looking
    // command, there is a context exactly when that list's keys are cited.
    for (const m of text.matchAll(/\\[a-zA-Z]*[cC]ite[a-zA-Z]*\*?(?:\[[^\]\n]*\]){0,2}\{/g)) {
      const open = m.index! + m[0].length;
      const close = text.indexOf('}', open);
      const isCited = cited.some((c) => c.offset >= open && c.offset < close);
      expect(latexCiteContext(text, open) !== undefined, `${name} @${open}: ${m[0]}`).toBe(isCited);
    }
  });
});

describe('latexRegions', () => {
  it('comments: an unescaped % to the end of its line', () => {
    expect(shown('a % b\nc')).toEqual([['comment', '% b']]);
    expect(shown('%x\r\ny%')).toEqual([['comment', '%x'], ['comment', '%']]);
  });

  it.each([
    [0, true], [1, false], [2, true], [3, false], [4, true], [5, false],
  ])('%i backslashes before %: a comment is %s (backslashes pair up into control symbols)', (count, comment) => {
    const text = `${'\\'.repeat(count)}% \\cite{a}`;
    expect(latexRegions(text).some((r) => r.kind === 'comment')).toBe(comment);
    expect(latexCitations(text).map((c) => c.key)).toEqual(comment ? [] : ['a']);
  });

  it('\\verb and \\verb*: from the delimiter to its match, on one line', () => {
    expect(shown('\\verb|a%b| c')).toEqual([['inline', '|a%b|']]);
    expect(shown('\\verb*+a b+')).toEqual([['inline', '*+a b+']]);
    expect(shown('\\verb|open\n\\cite{x}')).toEqual([['inline', '|open']]);
    expect(shown('\\verb{a{ b')).toEqual([['inline', '{a{']]);
    // Not \verb: a blank or a line end after it, or a longer command name.
    expect(shown('\\verb |x|')).toEqual([]);
    expect(shown('\\verb\n|x|')).toEqual([]);
    expect(shown('\\verbatiminput{f}')).toEqual([]);
  });

  it('\\lstinline, \\mintinline, \\mint, \\Verb and \\url', () => {
    expect(shown('\\lstinline|a|, \\lstinline[language=C]!b!, \\lstinline{c{d}e}.')).toEqual([
      ['inline', '|a|'], ['inline', '[language=C]!b!'], ['inline', '{c{d}e}'],
    ]);
    expect(shown('\\mintinline{py}{f({})} \\mintinline[o]{py}|g| \\mint{tex}/h/')).toEqual([
      ['inline', '{py}{f({})}'], ['inline', '[o]{py}|g|'], ['inline', '{tex}/h/'],
    ]);
    expect(shown('\\Verb|a| \\Verb*[x]!b!')).toEqual([['inline', '|a|'], ['inline', '*[x]!b!']]);
    expect(shown('\\url{a%b} \\url|c%d|')).toEqual([['inline', '{a%b}'], ['inline', '|c%d|']]);
    // Malformed arguments stop at the line end.
    expect(shown('\\lstinline[open\nx')).toEqual([['inline', '[open']]);
    expect(shown('\\mintinline{py\nx')).toEqual([['inline', '{py']]);
  });

  it.each([
    'verbatim', 'verbatim*', 'Verbatim', 'Verbatim*', 'BVerbatim', 'LVerbatim', 'lstlisting', 'minted', 'comment', 'filecontents',
  ])('environment %s: its content, not the \\begin/\\end lines', (env) => {
    const arg = env === 'minted' || env === 'filecontents' ? '{x}' : '';
    const text = `a\\begin{${env}}${arg}\n%\\cite{x}\n\\end{${env}}\\cite{y}`;
    expect(shown(text)).toEqual([['environment', '\n%\\cite{x}\n']]);
    expect(latexCitations(text).map((c) => c.key)).toEqual(['y']);
  });

  it('environments: options stay code, only the literal \\end closes, no \\end hides the rest', () => {
    expect(shown('\\begin{lstlisting}[caption={a]b}]\nx\n\\end{lstlisting}')).toEqual([['environment', '\nx\n']]);
    expect(shown('\\begin{minted}[linenos]{python}\nx\n\\end{minted}')).toEqual([['environment', '\nx\n']]);
    expect(shown('\\begin{verbatim}\n\\end {verbatim}\n\\end{verbatim}')).toEqual([['environment', '\n\\end {verbatim}\n']]);
    expect(shown('\\begin {comment}x\\end{comment}')).toEqual([['environment', 'x']]);
    expect(shown('\\begin{verbatim}\nrest')).toEqual([['environment', '\nrest']]);
    expect(shown('\\begin{itemize}%\n\\end{itemize}')).toEqual([['comment', '%']]);
  });

  it('\\iffalse … \\fi: nested conditionals counted, \\else ends the skipped text, comments hide \\fi', () => {
    expect(shown('\\iffalse \\ifx a b \\fi \\cite{x} \\fi \\cite{y}')).toEqual([['iffalse', ' \\ifx a b \\fi \\cite{x} ']]);
    expect(shown('\\iffalse a\\else b\\fi')).toEqual([['iffalse', ' a']]);
    expect(shown('\\iffalse a\\ifnum1=1 b\\else c\\fi d\\fi e')).toEqual([['iffalse', ' a\\ifnum1=1 b\\else c\\fi d']]);
    expect(shown('\\iffalse %\\fi\n x\\fi')).toEqual([['iffalse', ' %\\fi\n x']]);
    expect(shown('\\iffalse \\iff \\ifthenelse{a}{b}{c} x\\fi')).toEqual([['iffalse', ' \\iff \\ifthenelse{a}{b}{c} x']]);
    expect(shown('\\iffalse \\ifdraft x\\fi y\\fi')).toEqual([['iffalse', ' \\ifdraft x']]);
    expect(shown('\\newif\\ifdraft \\iffalse \\ifdraft x\\fi y\\fi')).toEqual([['iffalse', ' \\ifdraft x\\fi y']]);
    expect(shown('\\iffalse never closed')).toEqual([['iffalse', ' never closed']]);
    // TeX does not run \verb while skipping: its text is read as tokens.
    expect(shown('\\iffalse \\verb|\\fi| x')).toEqual([['iffalse', ' \\verb|']]);
    // Inside verbatim text, \iffalse is only text.
    expect(shown('\\verb|\\iffalse| \\cite{a}')).toEqual([['inline', '|\\iffalse|']]);
  });

  it('`end` cuts the scan', () => {
    const text = '% one\n% two\n\\begin{verbatim}\nxyz\n\\end{verbatim}';
    expect(shown(text, latexRegions(text, { end: 8 }))).toEqual([['comment', '% one'], ['comment', '% ']]);
    expect(shown(text, latexRegions(text, { end: 30 }))).toEqual([['comment', '% one'], ['comment', '% two'], ['environment', '\nx']]);
  });

  it('an \\end{env} without its \\begin hides nothing', () => {
    const text = 'x = 1 \\cite{in}\n\\end{lstlisting}\n\\cite{out} %c';
    expect(shown(text)).toEqual([['comment', '%c']]);
  });

  it('regions are sorted, disjoint and not empty', () => {
    for (const name of fixtureNames) {
      const regions = latexRegions(fixture(name));
      for (let k = 0; k < regions.length; k++) {
        expect(regions[k]!.end).toBeGreaterThan(regions[k]!.start);
        if (k) expect(regions[k]!.start).toBeGreaterThanOrEqual(regions[k - 1]!.end);
      }
    }
  });
});

describe('maskLatex', () => {
  it('blanks non-code text, keeping length and line breaks', () => {
    expect(maskLatex('a % b\r\n\\verb|c|d')).toBe('a    \r\n\\verb   d');
    expect(maskLatex('\\begin{verbatim}\nx\r\ny\n\\end{verbatim}')).toBe('\\begin{verbatim}\n \r\n \n\\end{verbatim}');
    expect(maskLatex('no regions')).toBe('no regions');
    const emoji = '% 🙂\nx';
    expect(maskLatex(emoji)).toBe('    \nx');
  });
});

describe('latexRegionAt', () => {
  const text = 'ab % c\n\\verb|d| e';
  const regions = latexRegions(text);
  it('a comment holds the cursor up to its line end; other regions only strictly inside', () => {
    expect(latexRegionAt(regions, 3)).toBeUndefined();
    expect(latexRegionAt(regions, 4)?.kind).toBe('comment');
    expect(latexRegionAt(regions, 6)?.kind).toBe('comment');
    expect(latexRegionAt(regions, 7)).toBeUndefined();
    const verb = text.indexOf('|');
    expect(latexRegionAt(regions, verb)).toBeUndefined();
    expect(latexRegionAt(regions, verb + 1)?.kind).toBe('inline');
    expect(latexRegionAt(regions, verb + 3)).toBeUndefined();
    expect(latexRegionAt([], 0)).toBeUndefined();
  });
});

describe('latexCommands', () => {
  it('reads citation commands with optional arguments and multicite lists', () => {
    const code = '\\citep[see][p.~3]{a,b} \\cites{c}[x]{d} \\cite{e}{f} \\\\cite{g} \\cite{open';
    expect(latexCiteCommands(code).map((c) => [c.command, c.groups.map((g) => code.slice(g.open + 1, g.close < 0 ? g.end : g.close))])).toEqual([
      ['citep', ['a,b']], ['cites', ['c', 'd']], ['cite', ['e']], ['cite', ['open']],
    ]);
    expect(latexCiteCommands(code).at(-1)!.groups[0]!.close).toBe(-1);
    expect(latexCiteCommands('\\cite[a][b][c]{x}')).toEqual([]);
  });

  it('starts correctly in the middle of the text', () => {
    const code = 'x \\\\cite{a} \\cite{b}';
    // From right after the first backslash of `\\`, the second one is escaped.
    expect(latexCiteCommands(code, 3).map((c) => c.start)).toEqual([12]);
    expect(latexCommands(code, (n) => n === 'cite', undefined, 0, 10).map((c) => c.groups[0]!.close)).toEqual([]);
  });
});

describe('bibliography declarations and the root magic comment', () => {
  it("reads bibtopic's databases from \\begin{btSect}[style]{…}, as BibTeX does", () => {
    expect(latexBibliographies('\\begin{btSect}[plain]{books, articles}\n\\btPrintCited\n\\end{btSect}\n\\begin{itemize}{x}')).toEqual([
      { path: 'books.bib', via: 'bibtex' }, { path: 'articles.bib', via: 'bibtex' },
    ]);
  });
  it('ignore commented, verbatim and \\iffalse declarations', () => {
    const tex = [
      '% \\usepackage{biblatex}',
      '\\begin{verbatim}\n\\bibliography{shown}\n\\end{document}\n\\end{verbatim}',
      '\\iffalse\\bibliography{old}\\fi',
      '\\bibliography{refs}',
      '\\end{document}',
      '% \\end{document}',
    ].join('\n');
    expect(latexBibliographies(tex)).toEqual([{ path: 'refs.bib', via: 'bibtex' }]);
    const plan = planLatexBibDeclaration(tex, 'new.bib')!;
    expect(plan).toEqual([{ offset: tex.indexOf('\\end{document}\n%'), text: '\\bibliographystyle{plain}\n\\bibliography{new}\n' }]);
  });

  it('the magic comment is a comment starting its line, in the first 20 lines', () => {
    expect(texRootOf('  %  !TeX root = main.tex  \n')).toBe('main.tex');
    expect(texRootOf('x % !TEX root = main.tex')).toBeUndefined();
    expect(texRootOf('\\% !TEX root = main.tex')).toBeUndefined();
    expect(texRootOf('\r\n% !TEX root = a b.tex\r\n')).toBe('a b.tex');
    expect(texRootOf(`${'\n'.repeat(19)}% !TEX root = late.tex`)).toBe('late.tex');
    expect(texRootOf(`${'\n'.repeat(20)}% !TEX root = late.tex`)).toBeUndefined();
    expect(texRootOf('% !TEX root =   ')).toBeUndefined();
  });
});
