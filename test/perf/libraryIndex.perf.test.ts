/**
 * The library index's keystroke at scale, timed (see linear.ts): a one-word query over 20,000
 * entries takes about as long as over 2,000. test/unit/libraryIndex.test.ts bounds the same
 * query's work by counting it (`lastSearchWork`), which no machine's load can move; this is the
 * clock's view of it.
 */
import { expect, it } from 'vitest';
import type { LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';
import { wordsLibrary as library } from '../unit/generatedLibraries.js';
import { expectLinear } from './linear.js';

const small = library(2_000);
const large = library(20_000);
const keys = (lib: LoadedLibrary, q: string, limit = 50) => lib.index.search(parseQuery(q), limit).map((h) => h.entry.key);

it('a one-word query over 20,000 entries takes at most 5× as long as over 2,000', () => {
  expect(keys(large, 'paged')).toHaveLength(50);
  expectLinear('library search "paged" (2,000 vs 20,000 entries)', () => keys(small, 'paged'), () => keys(large, 'paged'), 5);
});
