/**
 * The user's libraries at sizes the unit run leaves out, timed (see linear.ts): a field of 10
 * million characters, one line of 5 MB and of 50 MB, a line of stray @, 260 doubling @string
 * macros. test/unit/library.test.ts checks what the smaller inputs read as.
 */
import { describe, expect, it } from 'vitest';
import { BibtexLibraryReader } from '../../src/core/bibliography/readBibtex.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { texToText } from '../../src/core/bibliography/texToText.js';
import { expectLinear } from './linear.js';
import { expectOneLongLineRead, oneLongLine } from '../unit/generatedLibraries.js';

const REF = { uri: 'file:///home/me/refs.bib', name: 'refs.bib' };

/** Reads a whole `.bib` text at once. */
function readBib(text: string): BibtexLibraryReader {
  const r = new BibtexLibraryReader(text);
  expect(r.read()).toBe(true);
  return r;
}

it('texToText costs only the characters it reads: a 1,000,000- and a 10,000,000-character field take about as long', () => {
  const unit = '{\\"o}\\emph{x}--{{y}} \\c{c}\\unknown plain words here ';
  const a = unit.repeat(Math.ceil(1_000_000 / unit.length));
  const b = unit.repeat(Math.ceil(10_000_000 / unit.length));
  expect(texToText(b)).toBe(texToText(a));
  // the same work for both: at most 3× (a linear scan of the whole field would be about 10×)
  expectLinear('texToText (1,000,000 vs 10,000,000 characters, the default max)', () => texToText(a), () => texToText(b), 3);
});

describe('hostile libraries', () => {
  describe('one long line: junk outside entries, one huge field', () => {
    const line = oneLongLine;
    const expectRead = expectOneLongLineRead;
    it('0.5 MB vs 5 MB: the entries are read, the huge field left out, and the time grows linearly', () => {
      const small = line(500_000);
      const large = line(5_000_000);
      expectRead(large);
      expectLinear('loadLibrary (one line: 0.5 MB vs 5 MB)', () => loadLibrary(small, 'bibtex', REF), () => loadLibrary(large, 'bibtex', REF));
    });
    it('50 MB (a 25-million-character field): every entry is read, that field alone is left out with a problem naming it', () => {
      // Issue 20, finding 14: Citation.js's lexer overflowed the regular expression engine's
      // stack on such a field and the whole entry was lost; the reader scans braces by hand.
      expectRead(line(50_000_000));
    });
  });

  it('a single line of junk with a stray @ every few characters: 0.1 MB vs 1 MB, no hang', () => {
    const line = (n: number) => `@misc{a, title = {A}} ${'z@ '.repeat(n / 3)}`;
    const small = line(100_000);
    const large = line(1_000_000);
    expect(readBib(large).problems.length).toBeGreaterThan(0);
    expectLinear('BibtexLibraryReader (one line of stray @: 0.1 MB vs 1 MB)', () => readBib(small), () => readBib(large));
  });

  it('@string macros that double: 26 vs 260 lines grows linearly (each line is refused at once)', () => {
    /** `@string{a0 = "xx"}`, then `levels` lines each doubling the one before, then entries using the last. */
    const doubling = (levels: number) => {
      const lines = ['@string{a0 = "xx"}'];
      for (let i = 1; i <= levels; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
      return [...lines, `@article{k, title = a${levels}}`, '@misc{after, title = {After}}'].join('\n');
    };
    const a = doubling(26);
    const b = doubling(260);
    expectLinear('BibtexLibraryReader (@string doubling, 26 vs 260 levels)', () => readBib(a), () => readBib(b));
  });
});
