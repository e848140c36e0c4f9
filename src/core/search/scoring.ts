/**
 * The one definition of how a match scores, shared by the corpus search (MiniSearch, given these
 * as its `searchOptions.bm25`, `weights` and `maxFuzzy`) and the library index (`library/`),
 * so that a query ranks the same whichever index holds an entry.
 *
 * The values are MiniSearch 7's defaults (`defaultSearchOptions` and `defaultBM25params` in its
 * `src/MiniSearch.ts`). MiniSearch exports neither (`MiniSearch.getDefault` knows only the
 * top-level options, and its `searchOptions` default is undefined), so they are written here once
 * and handed to MiniSearch explicitly; `test/unit/ranking.test.ts` checks that they still are
 * MiniSearch's defaults.
 */
import type { BM25Params } from 'minisearch';

/** Field weights: a title or system-name hit outranks an author or summary hit. */
export const FIELD_BOOSTS = {
  title: 4, aliases: 4, key: 3, authors: 2, venue: 1.5, year: 1, topics: 1, summary: 0.6,
} as const;

/** Score factor when the whole query is an entry's name: its key, an alias, or its title's name before ':'. */
export const EXACT_NAME_BOOST = 1.5;

/** Document boosts by level: among equally good matches, foundations first. */
export const LEVEL_BOOST: Record<string, number> = { 'must-read': 1.1, optional: 1.05, advanced: 1 };

/** BM25+'s parameters: term-frequency saturation `k`, length normalisation `b`, and the floor `d` of a match. */
export const BM25: Readonly<BM25Params> = Object.freeze({ k: 1.2, b: 0.7, d: 0.5 });

/** The weight of a prefix match and of a typo match relative to an exact one (MiniSearch's `weights`). */
export const MATCH_WEIGHTS: Readonly<{ prefix: number; fuzzy: number }> = Object.freeze({ prefix: 0.375, fuzzy: 0.45 });

/** Edits a typo match allows at most (MiniSearch's `maxFuzzy`). */
export const MAX_FUZZY = 6;

/** Edits a typo match allows per letter of the query word (MiniSearch's `fuzzy: 0.2`). */
export const FUZZY_RATIO = 0.2;

/**
 * BM25+'s inverse document frequency (MiniSearch's `calcBM25Score`). Its term part,
 * `d + tf (k + 1) / (tf + k (1 − b + b · length / average length))`, is computed in the library
 * index's inner loops from {@link BM25} (`IndexData.tfPart`, the query's `scan`).
 *
 * @param df - documents in which the field has the term
 * @param docCount - documents indexed
 */
export function idf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * The weight of a prefix match of a query word of `typed` letters on an index word of `length`
 * (MiniSearch's `executeQuerySpec`; its 0.3 is not an option there).
 */
export function prefixWeight(length: number, typed: number): number {
  return (MATCH_WEIGHTS.prefix * length) / (length + 0.3 * (length - typed));
}

/** The weight of a typo match on an index word of `length` letters at edit distance `distance` (MiniSearch's `executeQuerySpec`). */
export function fuzzyWeight(length: number, distance: number): number {
  return (MATCH_WEIGHTS.fuzzy * length) / (length + distance);
}
