/**
 * A ranked hit, and one ranking of the corpus's hits and the libraries' (`mergeHits`).
 */
import type { Entry } from '../corpus/schema.js';

/** A ranked search hit. */
export interface SearchHit {
  entry: Entry;
  /** MiniSearch's BM25+ score times our document boost; only comparable within one query. */
  score: number;
  /** The entry matches some of the query's words, not all (it ranks after every entry that matches all). */
  partial?: boolean;
}

/**
 * One ranking of corpus hits and library hits: the entries that match every word first, then the
 * corpus entries that match some. BM25+ scores of two indexes are not comparable (a word's weight
 * depends on how many entries of that index have it: a word rare in the corpus outweighs the same
 * word in a library of thousands), so each side's scores are taken relative to its best hit, and
 * the two lists are merged on that; the corpus comes first among equals.
 *
 * @param fromCorpus - a corpus search's hits (see {@link SearchIndex.search})
 * @param fromLibraries - library hits, all matching every word (`search/library/libraryIndex.ts`)
 * @param limit - hits at most
 */
export function mergeHits(fromCorpus: readonly SearchHit[], fromLibraries: readonly SearchHit[], limit: number): SearchHit[] {
  if (!fromLibraries.length) return fromCorpus.slice(0, limit);
  const full = fromCorpus.filter((h) => !h.partial);
  const relative = (hits: readonly SearchHit[], corpus: boolean) => {
    const best = Math.max(...hits.map((h) => h.score), Number.MIN_VALUE);
    return hits.map((h) => ({ h, r: h.score / best, corpus }));
  };
  const merged = [...relative(full, true), ...relative(fromLibraries, false)]
    .sort((a, b) => b.r - a.r || Number(b.corpus) - Number(a.corpus))
    .map((x) => x.h);
  return [...merged, ...fromCorpus.filter((h) => h.partial)].slice(0, limit);
}
