/**
 * Full-text search over the corpus: a MiniSearch index (BM25+) over the entries' documents
 * (`corpusDocuments.ts`), with the search's text analysis (`../analysis.ts`), prefix and fuzzy
 * matching, the query language's filters (`../queryLanguage.ts`) and our ranking on top
 * (`../scoring.ts`, which the library index shares). MiniSearch is used through its public API only.
 */
import MiniSearch, { type SearchResult as MsResult } from 'minisearch';
import type { Corpus } from '../../corpus/model.js';
import { foldAscii } from '../../cite/key.js';
import { displayName } from '../../cite/names.js';
import { onReadingList, type CorpusEntry } from '../../corpus/schema.js';
import { indexTerms, queryTerm, tokenize } from '../analysis.js';
import type { SearchHit } from '../hits.js';
import { parseQuery, topicsMatching, type QueryFilters } from '../queryLanguage.js';
import { BM25, EXACT_NAME_BOOST, FIELD_BOOSTS, FUZZY_RATIO, LEVEL_BOOST, MATCH_WEIGHTS, MAX_FUZZY } from '../scoring.js';
import { SEARCH_FIELDS, searchDocuments, type SearchDocument } from './corpusDocuments.js';

const fold = foldAscii;

/**
 * What the search lists when nothing is typed (and completion offers for an empty key): the
 * reading list in corpus order, then the field's works, at most `limit`.
 *
 * @param corpus - the corpus model
 * @param limit - entries at most
 */
export function firstEntries(corpus: Pick<Corpus, 'entries'>, limit: number): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  for (const e of corpus.entries) { if (out.length >= limit) return out; if (onReadingList(e)) out.push(e); }
  for (const e of corpus.entries) { if (out.length >= limit) return out; if (!onReadingList(e)) out.push(e); }
  return out;
}

/** The search index and its query methods. Build once per corpus with {@link createSearchIndex}. */
export interface SearchIndex {
  /**
   * Runs a query. Free text is matched with prefix search on every term and fuzzy matching on
   * terms of four letters or more; entries matching all terms come first, then entries matching
   * some. An empty free text with filters lists the filtered entries in corpus (reading) order.
   *
   * @param query - free text with optional filters (see {@link parseQuery})
   * @param limit - maximum number of hits (default 50)
   */
  search(query: string, limit?: number): SearchHit[];
}

/**
 * Builds the search index over a corpus.
 *
 * @param corpus - the corpus model; topic labels (English and Chinese) and paths are indexed
 * @returns an index whose `search` runs in well under a millisecond for corpora of a few hundred entries
 */
export function createSearchIndex(corpus: Corpus): SearchIndex {
  const entries = corpus.entries;
  const docs = searchDocuments(corpus);
  // Every indexed word is stored as typed (folded) and as its Porter stem, so a query's stem finds
  // `cache`, `caches`, `caching` alike and a half-typed word still prefix-matches the whole one.
  const vocabulary = new Set<string>();
  const termsOf = new Map<string, string[]>();
  const ms = new MiniSearch<SearchDocument>({
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize,
    // A word is folded and stemmed once per build, not at each of its occurrences.
    processTerm: (t) => {
      let terms = termsOf.get(t);
      if (!terms) {
        termsOf.set(t, terms = indexTerms(t));
        for (const term of terms) vocabulary.add(term);
      }
      return terms;
    },
    searchOptions: {
      boost: { ...FIELD_BOOSTS },
      processTerm: queryTerm,
      prefix: (term) => term.length >= 2,
      // Typos only: a word the corpus has (`caching`) is not also matched as a near word (`catching`).
      fuzzy: (term) => (term.length >= 5 && /^[a-z]+$/.test(term) && !vocabulary.has(term) ? FUZZY_RATIO : false),
      boostDocument: (id) => LEVEL_BOOST[entries[id as number]?.level ?? ''] ?? 1,
      // The one scoring definition, shared with the library index (`search/scoring.ts`).
      bm25: { ...BM25 },
      weights: { ...MATCH_WEIGHTS },
      maxFuzzy: MAX_FUZZY,
    },
  });
  ms.addAll(docs);
  termsOf.clear();

  // Names an entry is known by: an exact hit on one of these outranks a hit inside a longer name.
  const names = entries.map((e) => new Set([e.key, ...e.aliases, e.title.split(':')[0]!, e.title_en?.split(':')[0] ?? ''].map((n) => fold(n).trim()).filter(Boolean)));

  let topicSets: Set<string>[] | undefined;
  const passes = (i: number, f: QueryFilters): boolean => {
    const e = entries[i]!;
    if (f.yearFrom !== undefined && (e.year === undefined || e.year < f.yearFrom)) return false;
    if (f.yearTo !== undefined && (e.year === undefined || e.year > f.yearTo)) return false;
    if (f.author && !f.author.some((a) => e.authors.some((p) => fold(displayName(p)).includes(a)))) return false;
    if (f.venue && !f.venue.some((v) => fold(`${e.venue ?? ''} ${e.venue_full ?? ''}`).includes(v))) return false;
    if (topicSets && !topicSets.some((set) => e.topics.some((t) => set.has(t)))) return false;
    return true;
  };

  return {
    search(query, limit = 50) {
      const { text, filters } = parseQuery(query);
      topicSets = filters.topic?.map((needle) => topicsMatching(corpus, needle));
      const filter = (r: MsResult) => passes(r.id as number, filters);
      if (!text) {
        const anyFilter = Object.keys(filters).length > 0;
        return anyFilter ? entries.filter((_e, i) => passes(i, filters)).slice(0, limit).map((entry) => ({ entry, score: 0 })) : [];
      }
      const all = ms.search(text, { combineWith: 'AND', filter });
      const seen = new Set(all.map((r) => r.id));
      const some = ms.search(text, { combineWith: 'OR', filter }).filter((r) => !seen.has(r.id));
      const exact = fold(text).trim();
      const rescore = (rs: MsResult[], partial: boolean): SearchHit[] => rs
        .map((r) => ({ entry: entries[r.id as number]!, score: names[r.id as number]!.has(exact) ? r.score * EXACT_NAME_BOOST : r.score, ...(partial ? { partial } : {}) }))
        .sort((a, b) => b.score - a.score);
      return [...rescore(all, false), ...rescore(some, true)].slice(0, limit);
    },
  };
}
