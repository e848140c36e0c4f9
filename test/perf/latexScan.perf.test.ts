/**
 * The LaTeX scanner's readers (citations, bibliography commands, the declaration planner, the
 * root magic comment, the cite context) on inputs that made regular expressions backtrack or that
 * would make a careless scanner read the same text again and again: 10× the input takes at most
 * 15× the time (timed as linear.ts says). Moved from test/unit/latexScan.test.ts, whose own
 * median-of-15 timing this replaces.
 */
import { describe, expect, it } from 'vitest';
import { latexBibliographies, planLatexBibDeclaration, texRootOf } from '../../src/core/latex/bibDeclarations.js';
import { latexCitations } from '../../src/core/cite/citations.js';
import { latexCiteContext } from '../../src/core/cite/citationContext.js';
import { expectLinear } from './linear.js';

/** A paper-like document of about `size` characters: everything the scanner looks at, repeated. */
function paperOf(size: number): string {
  const section = [
    '\\section{Serving}\\label{sec:s}',
    'Batching~\\cite{orca,vllm} cuts latency by 50\\% \\citep[p.~3]{sarathi}. % TODO numbers \\cite{old}',
    '% \\cite{commented}',
    '\\begin{tabular}{lr} A & 1 \\\\% note \\cite{x}\nB & 2 \\\\ \\end{tabular}',
    '\\begin{lstlisting}[caption={From \\citet{gpipe}}]\nx = f(y)  # \\cite{no}\n\\end{lstlisting}',
    'Use \\verb|\\cite{v}| and \\lstinline{g({})} or \\mintinline{py}{h()}; see \\url{https://x.org/a%20b}.',
    '\\iffalse old \\ifx a b \\fi \\cite{dropped} \\fi \\cites{a}[x]{b}',
    '',
  ].join('\n');
  return section.repeat(Math.ceil(size / section.length)).slice(0, size);
}

describe('linear time', () => {
  // Inputs that made regular expressions backtrack, or that would make a careless scanner read
  // the same text again and again: one of each kind, at 4,000 and 40,000 characters. Both sizes
  // stay below the step where the scan's many small objects outgrow the young generation (between
  // 100,000 and 400,000 characters the time per character of even latexRegions rises several
  // times, flat on either side): 20,000 vs 200,000 measured that step (×18 to ×24 in CI), not
  // the growth. A quadratic reader is ×100 at any size.
  const makers: Record<string, (size: number) => string> = {
    'a paper': paperOf,
    'comment lines': (s) => '% \\cite{x} 100\\% \\\\%\n'.repeat(s / 20),
    'backslash runs': (s) => '\\'.repeat(s - 1) + '%',
    'unclosed optional arguments': (s) => '\\cite['.repeat(s / 6),
    'unclosed key lists': (s) => '\\cite{a,'.repeat(s / 8),
    'unclosed multicite notes': (s) => '\\cites(a'.repeat(s / 8),
    'optional arguments and long blanks': (s) => `${'\\cite[x]'.repeat(s / 16)}${' '.repeat(s / 2)}`,
    'unclosed \\verb on one line': (s) => '\\verb|a'.repeat(s / 7),
    'unclosed inline arguments on one line': (s) => '\\mintinline{a\\lstinline[b\\Verb[c\\url{d'.repeat(s / 40),
    'unclosed environments': (s) => '\\begin{lstlisting}[a'.repeat(s / 20),
    'environments without content': (s) => '\\begin{verbatim}\\end{verbatim}\\begin{itemize}'.repeat(s / 45),
    'nested \\iffalse never closed': (s) => '\\iffalse\\ifx'.repeat(s / 12),
    'bibliography commands, unclosed': (s) => '\\bibliography{a\\addbibresource['.repeat(s / 30),
  };
  const work = (text: string) => {
    latexCitations(text);
    latexBibliographies(text);
    planLatexBibDeclaration(text, 'r.bib');
    texRootOf(text);
    latexCiteContext(text, text.length - 1);
  };

  it.each(Object.keys(makers))('%s: 10× the input takes at most 15× the time', (kind) => {
    const small = makers[kind]!(4_000);
    const large = makers[kind]!(40_000);
    expect(large.length).toBeGreaterThanOrEqual(9 * small.length);
    // A quadratic reader takes ~100× as long; a linear one ~10×.
    expectLinear(`LaTeX scanning (${kind})`, () => work(small), () => work(large));
  });
});
