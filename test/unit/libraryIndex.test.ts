/**
 * The library index (`core/search/library/libraryIndex.ts`) at scale: the bounds on a keystroke's work (counted
 * by `lastSearchWork`; the time ratio is the serial run's, test/perf/libraryIndex.perf.test.ts), the full
 * reading when the bound would lose hits, updates, typos, and filters tested on candidates only.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/core/corpus/schema.js';
import { loadLibrary, type LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { MAX_EXPANSIONS, TOP_LIST } from '../../src/core/search/library/libraryIndex.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';
import { GENERATED_REF as REF, wordsLibrary as library } from './generatedLibraries.js';

const small = library(2_000);
const large = library(20_000);
const keys = (lib: LoadedLibrary, q: string, limit = 50) => lib.index.search(parseQuery(q), limit).map((h) => h.entry.key);

describe('a keystroke\'s work', () => {
  it('a one-word query reads at most the top lists of its words: as much at 20,000 entries as at 2,000', () => {
    for (const q of ['pag', 'paged', 'train', 'distributed', 'kwo']) {
      keys(small, q);
      const few = small.index.lastSearchWork;
      expect(keys(large, q), q).toHaveLength(50);
      const many = large.index.lastSearchWork;
      // At most the top lists of MAX_EXPANSIONS words, and each entry read once more to rank it.
      expect(many, q).toBeLessThanOrEqual(2 * MAX_EXPANSIONS * TOP_LIST);
      // "kwo" expands to 89 names, each in fewer than TOP_LIST entries at 2,000: its work grows up to the bound above.
      if (q !== 'kwo') expect(many, `${q}: ${few} vs ${many}`).toBeLessThanOrEqual(1.5 * few + 100);
    }
  });

  it('the top lists give the best hits: the same as reading every entry of the word', () => {
    // "paged paged" is one word typed and one done: two words, read in full, scored alike.
    expect(keys(large, 'paged')).toEqual(keys(large, 'paged paged'));
    expect(keys(large, 'training', 20)).toEqual(keys(large, 'training training', 20));
  });

  it('a filter the top list\'s entries miss: the word is read in full, and the hits are all there', () => {
    const hits = large.index.search(parseQuery('paged year:2000'), 50);
    expect(hits).toHaveLength(50);
    expect(hits.every((h) => h.entry.year === 2000 && /paged/i.test(h.entry.title))).toBe(true);
    expect(large.index.search(parseQuery('paged'), 50, (e) => e.year !== 2001).every((h) => h.entry.year === 2001)).toBe(true);
    expect(large.index.search(parseQuery('paged'), 50, (e) => e.year !== 2001)).toHaveLength(50);
  });

  it('a one- or two-letter word is the prefix table\'s: the same work at any size', () => {
    keys(small, 'pa');
    const few = small.index.lastSearchWork;
    keys(large, 'pa');
    expect(large.index.lastSearchWork).toBe(few);
  });
});

describe('filters on candidates', () => {
  const brute = (lib: LoadedLibrary, test: (e: Entry) => boolean) => lib.entries.filter(test).slice(0, 50).map((e) => e.key);
  const authors = (e: Entry) => e.authors.map((p) => ('family' in p ? `${p.given} ${p.family}` : p.literal).toLowerCase()).join('; ');
  it('author: and venue: alone list the entries in file order', () => {
    expect(keys(large, 'author:kwon1')).toEqual(brute(large, (e) => authors(e).includes('kwon1')));
    expect(keys(large, 'author:"w. kwon88"')).toEqual(brute(large, (e) => authors(e).includes('w. kwon88')));
    expect(keys(large, 'venue:"conf 3" year:2010..2011')).toEqual(brute(large, (e) => e.venue === 'Conf 3' && (e.year === 2010 || e.year === 2011)));
  });
  it('with words, the filters test the words\' hits', () => {
    const hits = large.index.search(parseQuery('sparse kernels author:kwon7 venue:"conf 2"'), 50);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(authors(h.entry)).toContain('kwon7');
      expect(h.entry.venue).toBe('Conf 2');
      expect(h.entry.title).toMatch(/sparse/);
      expect(h.entry.title).toMatch(/kernels/);
    }
  });
});

describe('updates and typos', () => {
  it('an update takes entries out and puts others in; an updated index is not saved', () => {
    const lib = library(500);
    const gone = lib.entries.slice(10, 12);
    const added = loadLibrary('@misc{fresh2030, title = {Zygote Paged Scheduling}, author = {Newcomer, Ann}, booktitle = {Conf 3}, year = 2030}', 'bibtex', REF).entries;
    lib.index.update(gone, added);
    expect(keys(lib, 'zygote')).toEqual(['fresh2030']);
    expect(keys(lib, 'zyg')).toEqual(['fresh2030']);
    expect(keys(lib, 'z')[0]).toBe('fresh2030');
    expect(keys(lib, 'paged scheduling author:newcomer')).toEqual(['fresh2030']);
    expect(keys(lib, 'venue:"conf 3" year:2030')).toEqual(['fresh2030']);
    expect(lib.index.entry('FRESH2030')).toBe(added[0]);
    for (const e of gone) {
      expect(lib.index.entry(e.key)).toBeUndefined();
      expect(keys(lib, e.key)).not.toContain(e.key);
    }
    expect(() => lib.index.toJSON()).toThrow(/updated/);
  });

  it('a finished word that is no word of the library is matched with typos', () => {
    expect(keys(large, 'distribtued inference', 5).length).toBeGreaterThan(0);
    for (const h of large.index.search(parseQuery('distribtued inference'), 20)) expect(h.entry.title).toMatch(/distributed/);
    const hits = large.index.search(parseQuery('schedulnig memory'), 50);
    expect(hits).toHaveLength(50);
    for (const h of hits) expect(h.entry.title).toMatch(/scheduling.*memory|memory.*scheduling/);
    // The word being typed is a prefix, not a typo.
    expect(keys(large, 'schedulnig')).toEqual([]);
  });
});
