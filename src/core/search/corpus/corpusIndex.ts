/**
 * Full-text search over the corpus: a MiniSearch index (BM25+) over the entries' documents
 * (`corpusDocuments.ts`), with the search's text analysis (`../analysis.ts`), prefix and fuzzy
 * matching, the query language's filters (`../queryLanguage.ts`) and our ranking on top
 * (`../scoring.ts`, which the library index shares). MiniSearch is used through its public API only.
 */
import MiniSearch from 'minisearch';
import type { Corpus } from '../../corpus/model.js';
import { foldAscii } from '../../cite/key.js';
import { displayName } from '../../cite/names.js';
import { onReadingList, type CorpusEntry } from '../../corpus/schema.js';
import { indexTerms, nameForms, queryTerm, queryWords, tokenize } from '../analysis.js';
import type { SearchHit } from '../hits.js';
import { parseQuery, topicsMatching, type QueryFilters } from '../queryLanguage.js';
import { BM25, documentBoost, FIELD_BOOSTS, FUZZY_RATIO, MATCH_WEIGHTS, MAX_FUZZY } from '../scoring.js';
import { SEARCH_FIELDS, searchDocuments, topicTokens, type SearchDocument } from './corpusDocuments.js';

const fold = foldAscii;

/** Query terms whose hits a corpus index keeps (the words of the last few queries). */
const TERM_CACHE = 64;

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
   * terms of four letters or more. First come the entries the whole query names (their key, an
   * alias, their title's name before ':', or an abbreviation's other form of one: `nameForms`),
   * then the other entries matching all terms, then entries matching some, each by score. An
   * empty free text with filters lists the filtered entries in corpus (reading) order.
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
  const termsOf = new Map<string, string | string[]>();
  // Fields whose texts repeat across entries (a venue, a year) are split once per text; the topics
  // are tokens already.
  const repeated = new Map<string, string[]>();
  const boosts = entries.map(documentBoost);
  const ms = new MiniSearch<SearchDocument>({
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize: (text, field) => {
      if (field === 'topics') return topicTokens(text);
      if (field !== 'venue' && field !== 'year') return tokenize(text);
      let tokens = repeated.get(text);
      if (!tokens) repeated.set(text, tokens = tokenize(text));
      return tokens;
    },
    // A word is folded and stemmed once per build, not at each of its occurrences.
    processTerm: (t) => {
      let terms = termsOf.get(t);
      if (terms === undefined) {
        const all = indexTerms(t);
        for (const term of all) vocabulary.add(term);
        termsOf.set(t, terms = all.length === 1 ? all[0]! : all);
      }
      return terms;
    },
    searchOptions: {
      boost: { ...FIELD_BOOSTS },
      processTerm: queryTerm,
      prefix: (term) => term.length >= 2,
      // Typos only: a word the corpus has (`caching`) is not also matched as a near word (`catching`).
      fuzzy: (term) => (term.length >= 5 && /^[a-z]+$/.test(term) && !vocabulary.has(term) ? FUZZY_RATIO : false),
      boostDocument: (id) => boosts[id as number] ?? 1,
      // The one scoring definition, shared with the library index (`search/scoring.ts`).
      bm25: { ...BM25 },
      weights: { ...MATCH_WEIGHTS },
      maxFuzzy: MAX_FUZZY,
    },
  });
  ms.addAll(docs);
  termsOf.clear();
  repeated.clear();

  // Names an entry is known by (folded as `nameForms` folds a query): a query that is one of these comes first.
  const names = entries.map((e) => new Set([e.key, ...e.aliases, e.title.split(':')[0]!, e.title_en?.split(':')[0] ?? ''].map((n) => fold(n).trim().replace(/\s+/g, ' ')).filter(Boolean)));

  // What the filters read of an entry, folded once, the first time a filter asks.
  let authorNames: string[][] | undefined;
  let venueTexts: string[] | undefined;
  let topicSets: Set<string>[] | undefined;
  const passes = (i: number, f: QueryFilters): boolean => {
    const e = entries[i]!;
    if (f.yearFrom !== undefined && (e.year === undefined || e.year < f.yearFrom)) return false;
    if (f.yearTo !== undefined && (e.year === undefined || e.year > f.yearTo)) return false;
    if (f.author) {
      authorNames ??= entries.map((x) => x.authors.map((p) => fold(displayName(p))));
      const names = authorNames[i]!;
      if (!f.author.some((a) => names.some((n) => n.includes(a)))) return false;
    }
    if (f.venue) {
      venueTexts ??= entries.map((x) => fold(`${x.venue ?? ''} ${x.venue_full ?? ''}`));
      if (!f.venue.some((v) => venueTexts![i]!.includes(v))) return false;
    }
    if (topicSets && !topicSets.some((set) => e.topics.some((t) => set.has(t)))) return false;
    return true;
  };
  // The order of a listing with filters only: the reading list first, as for an empty query.
  let listingOrder: number[] | undefined;

  // Each query term's hits (entry ids and scores, unfiltered), for the terms of the last queries:
  // typing "mixture of experts tr" searches only the word being typed, the others' hits are kept.
  const termHits = new Map<string, { ids: Int32Array; scores: Float64Array }>();
  const hitsOf = (term: string) => {
    let hits = termHits.get(term);
    if (hits) {
      termHits.delete(term);
    } else {
      // One term, as MiniSearch reads it within a query (already split and stemmed), with the
      // same prefix and typo options: its score here is its part of a query's sum.
      const rs = ms.search(term, { tokenize: (t) => [t], processTerm: (t) => t });
      hits = { ids: Int32Array.from(rs, (r) => r.id as number), scores: Float64Array.from(rs, (r) => r.score) };
      if (termHits.size >= TERM_CACHE) termHits.delete(termHits.keys().next().value!);
    }
    termHits.set(term, hits);
    return hits;
  };
  // One query's sums, per entry; `stamp` tells the entries this query touched from earlier ones'.
  const sum = new Float64Array(entries.length);
  const matched = new Uint16Array(entries.length);
  const stamp = new Uint32Array(entries.length);
  let queries = 0;

  return {
    search(query, limit = 50) {
      const { text, filters } = parseQuery(query);
      topicSets = filters.topic?.map((needle) => topicsMatching(corpus, needle));
      if (!text) {
        if (!Object.keys(filters).length) return [];
        listingOrder ??= [...entries.keys()].sort((x, y) => Number(onReadingList(entries[y]!)) - Number(onReadingList(entries[x]!)) || x - y);
        const out: SearchHit[] = [];
        for (const i of listingOrder) { if (out.length >= limit) break; if (passes(i, filters)) out.push({ entry: entries[i]!, score: 0 }); }
        return out;
      }
      // MiniSearch's OR query, term by term: an entry's score is the sum of its terms' scores (in
      // query order) times the number of distinct terms it matches (MiniSearch's \`combinators\`
      // and \`search\`), so an entry that matches every term has the score an AND query gives it.
      const terms = queryWords(text).map(queryTerm).filter(Boolean);
      const distinct = [...new Set(terms)];
      const stampNow = ++queries;
      const touched: number[] = [];
      for (const term of terms) {
        const { ids, scores } = hitsOf(term);
        for (let k = 0; k < ids.length; k++) {
          const id = ids[k]!;
          if (stamp[id] !== stampNow) { stamp[id] = stampNow; sum[id] = scores[k]!; matched[id] = 0; touched.push(id); } else sum[id] += scores[k]!;
        }
      }
      for (const term of distinct) for (const id of hitsOf(term).ids) matched[id]++;
      const exact = nameForms(text);
      const named: SearchHit[] = [];
      const all: SearchHit[] = [];
      const some: SearchHit[] = [];
      let bestOther = 0;
      for (const id of touched) {
        if (!passes(id, filters)) continue;
        const score = sum[id]! * matched[id]!;
        if (matched[id] !== distinct.length) some.push({ entry: entries[id]!, score, partial: true });
        else if (exact.some((n) => names[id]!.has(n))) named.push({ entry: entries[id]!, score });
        else { all.push({ entry: entries[id]!, score }); if (score > bestOther) bestOther = score; }
      }
      // A work named by the whole query comes first, whatever else mentions the name (at 3,000
      // entries many titles do: "When vLLM Meets …"): its score is lifted above every other hit's,
      // as the library index puts the entry whose key is the query first, so that merged hits
      // (`mergeHits`, relative to each side's best) keep it first too.
      for (const h of named) h.score += bestOther;
      const byScore = (x: SearchHit, y: SearchHit) => y.score - x.score;
      return [...named.sort(byScore), ...all.sort(byScore), ...some.sort(byScore)].slice(0, limit);
    },
  };
}
