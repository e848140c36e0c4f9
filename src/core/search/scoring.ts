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
import { onReadingList, type CorpusEntry, type Level } from '../corpus/schema.js';

/**
 * Field weights: a title hit outranks an author or summary hit, and a hit on an entry's own system
 * name (`aliases`) outranks a title that mentions the name: at 3,000 entries the field's later works
 * name vLLM, PagedAttention or ZeRO in their titles ("When vLLM Meets …"), and "vllm sosp" is
 * still after the vLLM paper (`test/unit/querySets.ts`, `searchScale.test.ts`; at 4, as the title,
 * the system-name set's MRR was 0.994 and one in ten of the other reading-list queries lost its first place).
 */
export const FIELD_BOOSTS = {
  title: 4, aliases: 8, key: 3, authors: 2, venue: 1.5, year: 1, topics: 1, summary: 0.6,
} as const;

/** Document boosts by level: among equally good matches, foundations first. */
export const LEVEL_BOOST: Readonly<Record<Level, number>> = { 'must-read': 1.1, optional: 1.05, advanced: 1 };

/**
 * Document boost of the reading list (the seed lists' and our curated entries) over the field's
 * other works (`sources: [field]`), on top of the level's: the guide's works first among matches
 * of about the same quality, so that `llm serving` lists vLLM and DistServe, `megatron` the
 * Megatron-LM papers, before the dozens of later works whose titles say the same words (at 1.1,
 * the vLLM paper was 15th for `llm serving` among 1,134 entries; at 1.5, 8th). A field work that
 * matches half again as well still wins, and a work named by the whole query comes first whatever
 * its boost (`corpusIndex.ts`). `test/unit/search.test.ts` and `searchScale.test.ts` hold both.
 */
export const READING_LIST_BOOST = 1.5;

/**
 * An entry's document boost in the corpus search: {@link LEVEL_BOOST} times {@link READING_LIST_BOOST}
 * for a reading-list entry; 1 for the field's other works and for library entries.
 */
export function documentBoost(e: Pick<CorpusEntry, 'level' | 'sources'> | { level?: undefined; sources?: undefined }): number {
  return (e.level ? LEVEL_BOOST[e.level] : 1) * (onReadingList(e) ? READING_LIST_BOOST : 1);
}

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
