/**
 * The library index's keystroke at scale, timed (see linear.ts): a one-word query over 20,000
 * entries takes about as long as over 2,000. test/unit/libraryIndex.test.ts bounds the same
 * query's work by counting it (`lastSearchWork`), which no machine's load can move; this is the
 * clock's view of it.
 */
import { expect, it } from 'vitest';
import { loadLibrary, type LoadedLibrary } from '../../src/core/library/load.js';
import { parseQuery } from '../../src/core/search.js';
import { expectLinear } from './linear.js';

const REF = { uri: 'file:///lib/refs.bib', name: 'refs.bib' };
const WORDS = ['paged', 'attention', 'pipeline', 'parallel', 'training', 'serving', 'memory', 'scheduling', 'sparse', 'kernels',
  'distributed', 'inference', 'compression', 'quantization', 'elastic', 'tensor', 'graph', 'cache', 'offload', 'fusion'];

/** `n` entries whose titles draw on the same twenty words whatever `n` (a seeded generator; as in libraryIndex.test.ts). */
function library(n: number): LoadedLibrary {
  let seed = 42;
  const pick = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return WORDS[((t ^ (t >>> 14)) >>> 0) % WORDS.length]!;
  };
  const lines = Array.from({ length: n }, (_, i) => `@inproceedings{k${i}, title = {${pick()} ${pick()} ${pick()} for ${pick()}}, `
    + `author = {Author${i % 97}, A. and Kwon${i % 89}, W.}, booktitle = {Conf ${i % 7}}, year = ${2000 + (i % 25)}}`);
  return loadLibrary(lines.join('\n'), 'bibtex', REF);
}

const small = library(2_000);
const large = library(20_000);
const keys = (lib: LoadedLibrary, q: string, limit = 50) => lib.index.search(parseQuery(q), limit).map((h) => h.entry.key);

it('a one-word query over 20,000 entries takes at most 5× as long as over 2,000', () => {
  expect(keys(large, 'paged')).toHaveLength(50);
  expectLinear('library search "paged" (2,000 vs 20,000 entries)', () => keys(small, 'paged'), () => keys(large, 'paged'), 5);
});
