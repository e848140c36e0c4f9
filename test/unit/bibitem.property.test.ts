/**
 * Property tests of the `\bibitem` reader (`src/core/latex/bibitems.ts`) and the project's facts
 * over it, on generated LaTeX:
 *
 * - any text made of the characters and commands the reader reacts to (`\bibitem`, `[`, `]`, `{`,
 *   `}`, `\\`, `%`, line ends, `\verb`, verbatim environments, `\iffalse … \fi`) never makes it
 *   throw, and every key it reads is at its offset, on its line and character;
 * - a generated `thebibliography` (items with and without labels, labels with braces and `]`
 *   inside braces, text with commands, blank lines between items, comment lines that hold a
 *   `\bibitem`, trailing comments, any of `\n`, `\r\n`, `\r`) is read exactly: every `\bibitem{k}`
 *   written outside a comment, in order, with its label, and none of those in comments.
 *
 * `FUZZ_RUNS` cases (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { latexBibitems } from '../../src/core/latex/bibitems.js';
import { latexFileFacts } from '../../src/core/latex/fileFacts.js';
import { call, check, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

const TOKENS = ['\\bibitem', '\\bibitem[', '[', ']', '{', '}', '\\\\', '\\', '%', '\n', '\r\n', '\r', ' ', 'k', 'key1', '\\verb|', '|',
  '\\begin{verbatim}', '\\end{verbatim}', '\\iffalse', '\\fi', '\\else', '\\begin{thebibliography}{9}', '\\end{thebibliography}', '\\input{a.bbl}', '#', 'é', '\uD83D'];
const noiseArb = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(''));

const keyArb = fc.stringMatching(/^[A-Za-z][A-Za-z0-9:_.-]{0,11}$/);
const wordArb = fc.stringMatching(/^[A-Za-z0-9.,()~-]{1,8}$/);
/** A label's text: words and braced groups, which may hold `]` and `[` (natbib writes `{…}` around its labels). */
const labelArb = fc.array(fc.oneof(wordArb, wordArb.map((w) => `{${w}]}`), wordArb.map((w) => `{[${w}{\\natexlab{a}}]}`), fc.constant(' ')), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''))
  .filter((l) => l.trim() !== '');
const textArb = fc.array(fc.oneof(wordArb, fc.constant('\\newblock'), wordArb.map((w) => `\\emph{${w}}`), fc.constant(' ')), { maxLength: 8 }).map((t) => t.join(' '));

interface GenItem { key: string; label: string | null; text: string; blankBefore: boolean; trailingComment: boolean; hiddenBefore: string | null }
const itemArb: fc.Arbitrary<GenItem> = fc.record({
  key: keyArb,
  label: fc.option(labelArb, { nil: null }),
  text: textArb,
  blankBefore: fc.boolean(),
  trailingComment: fc.boolean(),
  hiddenBefore: fc.option(keyArb, { nil: null }),
});
const docArb = fc.record({ items: fc.array(itemArb, { maxLength: 12 }), eol: fc.constantFrom('\n', '\r\n', '\r') });

/** The document: a thebibliography with the items, comment lines holding `\bibitem`s of other keys. */
function textOf(d: { items: GenItem[]; eol: string }): string {
  const lines = ['\\begin{thebibliography}{99}'];
  for (const it of d.items) {
    if (it.blankBefore) lines.push('');
    if (it.hiddenBefore) lines.push(`% \\bibitem{hidden-${it.hiddenBefore}}`);
    lines.push(`\\bibitem${it.label === null ? '' : `[${it.label}]`}{${it.key}}${it.trailingComment ? ' % \\bibitem{hidden-trailing}' : ''}`);
    if (it.text) lines.push(it.text);
  }
  lines.push('\\end{thebibliography}', '');
  return lines.join(d.eol);
}

/** The 0-based line and character of an offset, counting `\n`, `\r\n` and `\r` as line ends. */
function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('the \\bibitem reader on generated LaTeX', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });

  it('never throws on noise, and every key read is where it says', () => {
    runFuzz('bibitems: noise', noiseArb, (text) => {
      const read = call('latexBibitems', () => latexBibitems(text));
      call('latexFileFacts', () => latexFileFacts(text));
      for (const item of read.items) {
        check('the key is at its offset', text.slice(item.offset, item.offset + item.key.length) === item.key, () => JSON.stringify({ text, item }));
        const p = positionOf(text, item.offset);
        check('line and character', p.line === item.line && p.character === item.character, () => JSON.stringify({ text, item, p }));
      }
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);

  it('reads every \\bibitem written outside a comment, in order, with its label; none of those in comments', () => {
    runFuzz('bibitems: thebibliography', docArb, (d) => {
      const text = textOf(d);
      const read = call('latexBibitems', () => latexBibitems(text));
      const got = read.items.map((i) => [i.key, i.label ?? null]);
      const want = d.items.map((i) => [i.key, i.label === null ? null : i.label.trim()]);
      check('the items written, in order', JSON.stringify(got) === JSON.stringify(want), () => `got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)}\n${text}`);
      check('one environment', read.environments === 1);
      for (const item of read.items) {
        const p = positionOf(text, item.offset);
        check('line and character', p.line === item.line && p.character === item.character, () => JSON.stringify({ text, item, p }));
      }
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);
});
