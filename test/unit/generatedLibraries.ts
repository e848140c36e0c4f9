/**
 * Generated libraries that both the unit run (counted work, correctness) and the serial performance
 * run (test/perf: the same inputs, timed) read, so that the two speak of the same input.
 */
import { expect } from 'vitest';
import { loadLibrary, type LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { worded } from './problemWords.js';

/** The library reference the generated libraries are loaded under. */
export const GENERATED_REF = { uri: 'file:///lib/refs.bib', name: 'refs.bib' };

const WORDS = ['paged', 'attention', 'pipeline', 'parallel', 'training', 'serving', 'memory', 'scheduling', 'sparse', 'kernels',
  'distributed', 'inference', 'compression', 'quantization', 'elastic', 'tensor', 'graph', 'cache', 'offload', 'fusion'];

/** `n` BibTeX entries whose titles draw on the same twenty words whatever `n` (a seeded generator, mulberry32). */
export function wordsLibrary(n: number): LoadedLibrary {
  let seed = 42;
  const pick = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return WORDS[((t ^ (t >>> 14)) >>> 0) % WORDS.length]!;
  };
  const lines = Array.from({ length: n }, (_, i) => `@inproceedings{k${i}, title = {${pick()} ${pick()} ${pick()} for ${pick()}}, `
    + `author = {Author${i % 97}, A. and Kwon${i % 89}, W.}, booktitle = {Conf ${i % 7}}, year = ${2000 + (i % 25)}}`);
  return loadLibrary(lines.join('\n'), 'bibtex', GENERATED_REF);
}

const junk = (n: number) => 'Lorem ipsum {dolor} sit amet, "consectetur" = adipiscing # elit; '.repeat(Math.ceil(n / 66)).slice(0, n);

/** One line of about `n` characters: junk outside entries, and an entry whose title is half of it. */
export function oneLongLine(n: number): string {
  return `@misc{a, title = {A}} ${junk(n / 2)} @misc{b, title = {${'y'.repeat(n / 2)}}, year = 2020} ${junk(1000)}@misc{c, title = {C}}`;
}

/** Asserts that {@link oneLongLine}'s three entries are read, and the huge title left out with a warning naming it. */
export function expectOneLongLineRead(text: string): void {
  const lib = loadLibrary(text, 'bibtex', GENERATED_REF);
  expect(lib.entries.map((e) => [e.key, e.title, e.year, e.library!.line])).toEqual([['a', 'A', undefined, 1], ['b', 'b', 2020, 1], ['c', 'C', undefined, 1]]);
  expect(worded(lib.file.problems!)).toEqual([{ line: 1, column: text.indexOf('title', text.indexOf('@misc{b')) + 1, severity: 'warning', message: 'field title of entry b is longer than 100,000 characters; the field is left out' }]);
}

/** A BibTeX library's entries' `[start, end)` offsets, two numbers an entry (undefined for a CSL library). */
export function spansOf(lib: LoadedLibrary): number[] | undefined {
  return lib.file.format === 'bibtex' ? lib.file.entries.flatMap((e) => [e.start!, e.end!]) : undefined;
}
