/**
 * Full-text search over the corpus: a MiniSearch index (BM25+) with field boosts, English stemming
 * (Porter, via `stemmer`), prefix and fuzzy matching, query filters (`author:`, `year:`, `venue:`,
 * `topic:`) and our ranking on top. MiniSearch is used through its public API only; its scoring
 * parameters come from `search/scoring.ts`, which the library index shares.
 */
import MiniSearch, { type SearchResult as MsResult } from 'minisearch';
import { stemmer } from 'stemmer';
import type { Corpus } from '../corpus/model.js';
import { foldAscii } from '../cite/key.js';
import { displayName } from '../cite/names.js';
import { onReadingList, type CorpusEntry, type Entry } from '../corpus/schema.js';
import { BM25, FUZZY_RATIO, MATCH_WEIGHTS, MAX_FUZZY } from './scoring.js';

/** A ranked search hit. */
export interface SearchHit {
  entry: Entry;
  /** MiniSearch's BM25+ score times our document boost; only comparable within one query. */
  score: number;
  /** The entry matches some of the query's words, not all (it ranks after every entry that matches all). */
  partial?: boolean;
}

/** Filters parsed out of a query string. */
export interface QueryFilters {
  author?: string[];
  venue?: string[];
  topic?: string[];
  /** Inclusive year range. */
  yearFrom?: number;
  yearTo?: number;
}

/** A query split into free text and filters. */
export interface ParsedQuery {
  text: string;
  filters: QueryFilters;
  /** Filter tokens that could not be understood (e.g. `year:abc`), to show the user. */
  invalid: string[];
}

const FILTER = /(^|\s)(author|year|venue|topic):(?:"([^"]*)"|(\S*))/gi;

/**
 * Splits a query into free text and filters.
 *
 * Syntax: `author:kwon`, `author:"Woosuk Kwon"`, `year:2023`, `year:2022..2024` (also `2022..` and
 * `..2024`), `venue:osdi`, `topic:serving` (a topic id or label, matching its subtopics too).
 * Filters of the same name are OR-ed; different names are AND-ed.
 *
 * @example parseQuery('paged attention year:2023') // { text: 'paged attention', filters: { yearFrom: 2023, yearTo: 2023 } }
 */
export function parseQuery(query: string): ParsedQuery {
  const filters: QueryFilters = {};
  const invalid: string[] = [];
  const text = query.replace(FILTER, (_m, lead: string, name: string, quoted?: string, bare?: string) => {
    const value = (quoted ?? bare ?? '').trim();
    const key = name.toLowerCase() as 'author' | 'year' | 'venue' | 'topic';
    if (!value) return lead; // still typing: `author:` alone filters nothing
    if (key === 'year') {
      const m = /^(\d{4})?(?:(\.\.)(\d{4})?)?$/.exec(value);
      if (!m || (!m[1] && !m[3])) { invalid.push(`${name}:${value}`); return lead; }
      filters.yearFrom = m[1] ? Number(m[1]) : undefined;
      filters.yearTo = m[2] ? (m[3] ? Number(m[3]) : undefined) : Number(m[1]);
      return lead;
    }
    (filters[key] ??= []).push(fold(value));
    return lead;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), filters, invalid };
}

const fold = foldAscii;

/** Kana, CJK ideographs (and extension A) and Hangul syllables: the scripts indexed by character bigrams. */
const CJK_CHARS = '\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af';
/** A character of {@link CJK_CHARS}. */
export const CJK = new RegExp(`[${CJK_CHARS}]`);
/** Runs of CJK characters and runs of others, alternating. */
const CJK_RUNS = new RegExp(`[${CJK_CHARS}]+|[^${CJK_CHARS}]+`, 'g');
const SEPARATORS = /[\s,;:!?()[\]{}"'“”‘’/|·、，。：；！？（）《》]+/u;
const EDGE_JOINERS = /^[-.+_]+|[-.+_]+$/g;
const JOINERS = /[-_.+]+/;
/** Where a compound name splits: `Paged|Attention`, `NVL|Link`, `Flash|Attention|2`, `1|F|1|B`. */
const COMPOUND = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/;
/** A word {@link COMPOUND} may split: each of its splits is at an upper-case letter after the first character, or beside a digit. */
const MAY_SPLIT = /\d|.[A-Z]/;

/**
 * Splits text into search terms. Besides whole words it emits the parts of compound names
 * (`PagedAttention` → `pagedattention`, `paged`, `attention`; `FlashAttention-2` → `flashattention`,
 * `flash`, `attention`, `2`; `1F1B` → `1f1b`, `1`, `f`, `1`, `b`) and, for Chinese and Japanese text, every character bigram of a run
 * (a whitespace tokenizer would leave a whole Chinese phrase as one term).
 *
 * It runs on every field of every entry when an index is built (a 100,000-entry library is some
 * 10 million words), so each costly step is skipped where it cannot apply: the CJK split on text
 * without CJK, the trimming and splitting at `-._+` on words without them, the compound split on
 * words with neither a digit nor a capital after their first letter.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  pushTokens(text, CJK.test(text), out);
  return out;
}

function pushTokens(text: string, cjk: boolean, out: string[]): void {
  for (const raw of text.split(SEPARATORS)) {
    if (!raw) continue;
    if (cjk && CJK.test(raw)) {
      for (const run of raw.match(CJK_RUNS) ?? []) {
        if (CJK.test(run)) {
          out.push(run);
          const chars = [...run];
          for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
          if (chars.length === 1) out.push(run);
        } else pushTokens(run, false, out);
      }
      continue;
    }
    const word = isJoiner(raw.charCodeAt(0)) || isJoiner(raw.charCodeAt(raw.length - 1)) ? raw.replace(EDGE_JOINERS, '') : raw;
    if (!word) continue;
    // Hyphenated and dotted names index by their pieces; compound names also by their parts.
    for (const piece of JOINERS.test(word) ? word.split(JOINERS) : [word]) {
      if (!piece) continue;
      out.push(piece);
      if (!MAY_SPLIT.test(piece)) continue;
      const parts = piece.split(COMPOUND);
      if (parts.length > 1) for (const p of parts) if (p.length > 1 || /\d/.test(p)) out.push(p);
    }
  }
}

/** `-`, `.`, `+` or `_`. */
function isJoiner(code: number): boolean {
  return code === 45 || code === 46 || code === 43 || code === 95;
}

/** A word as it is stored in the index: folded to ASCII lower case, and its Porter stem if that differs. */
export function indexTerms(word: string): string[] {
  const term = fold(word);
  const stem = stemOf(term);
  return stem === term ? [term] : [term, stem];
}

/** A query word as it is looked up: its Porter stem (see {@link indexTerms}). */
export function queryTerm(word: string): string {
  return stemOf(fold(word));
}

/** Porter stem of a lower-case ASCII word; other terms (numbers, Chinese bigrams) are kept as they are. */
function stemOf(term: string): string {
  if (!/^[a-z]{3,}$/.test(term)) return term;
  let stem = stems.get(term);
  if (stem === undefined) {
    stem = stemmer(term);
    // Bounded: a library's vocabulary is a few hundred thousand words; past that, stems are recomputed.
    if (stems.size < 500_000) stems.set(term, stem);
  }
  return stem;
}
const stems = new Map<string, string>();

/**
 * Abbreviations of the field and what they stand for: a text with one also gets the other, so
 * `llm serving` finds "Large Language Model Serving" and `mixture of experts` finds "MoE".
 */
const ABBREVIATIONS: [abbreviation: RegExp, expansion: RegExp, abbr: string, full: string][] = [
  [/\bLLMs?\b/, /\blarge[- ]language[- ]models?\b/i, 'LLM', 'large language model'],
  [/\bMoEs?\b/, /\bmixture[- ]of[- ]experts?\b/i, 'MoE', 'mixture of experts'],
  [/\bDNNs?\b/, /\bdeep neural networks?\b/i, 'DNN', 'deep neural network'],
];

/** Appends, for each abbreviation in {@link ABBREVIATIONS} that a text has in one form only, the other form. */
export function withAbbreviations(text: string): string {
  const extra: string[] = [];
  for (const [abbreviation, expansion, abbr, full] of ABBREVIATIONS) {
    const short = abbreviation.test(text);
    const long = expansion.test(text);
    if (short && !long) extra.push(full);
    else if (long && !short) extra.push(abbr);
  }
  return extra.length ? `${text} ${extra.join(' ')}` : text;
}

/** Field weights: a title or system-name hit outranks an author or summary hit. */
export const FIELD_BOOSTS = {
  title: 4, aliases: 4, key: 3, authors: 2, venue: 1.5, year: 1, topics: 1, summary: 0.6,
} as const;

/** Score factor when the whole query is an entry's name: its key, an alias, or its title's name before ':'. */
const EXACT_NAME_BOOST = 1.5;

/** Document boosts by level: among equally good matches, foundations first. */
const LEVEL_BOOST: Record<string, number> = { 'must-read': 1.1, optional: 1.05, advanced: 1 };

/** The fields of an entry the corpus search indexes (see {@link searchDocuments}), in MiniSearch's field order. */
export const SEARCH_FIELDS = ['title', 'aliases', 'key', 'authors', 'venue', 'year', 'topics', 'summary'] as const;

/** An entry as the corpus search indexes it: one text per field of {@link SEARCH_FIELDS}. */
export interface SearchDocument {
  /** The entry's position in `corpus.entries`. */
  id: number;
  title: string;
  aliases: string;
  key: string;
  authors: string;
  venue: string;
  year: string;
  topics: string;
  summary: string;
}

/**
 * One ranking of corpus hits and library hits: the entries that match every word first, then the
 * corpus entries that match some. BM25+ scores of two indexes are not comparable (a word's weight
 * depends on how many entries of that index have it: a word rare in the corpus outweighs the same
 * word in a library of thousands), so each side's scores are taken relative to its best hit, and
 * the two lists are merged on that; the corpus comes first among equals.
 *
 * @param fromCorpus - a corpus search's hits (see {@link SearchIndex.search})
 * @param fromLibraries - library hits, all matching every word (`library/index/libraryIndex.ts`)
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
 * The topics a `topic:` filter selects: the topic ids it names (with their subtopics: `serving` →
 * `serving.*`) and, when no id matches, the topics whose label in English or Chinese contains it
 * (again with their subtopics).
 *
 * @param corpus - the corpus whose topics are matched
 * @param needle - the filter's value, folded as {@link parseQuery} gives it
 * @returns the matching topic ids; empty when the filter names no topic
 */
export function topicsMatching(corpus: Corpus, needle: string): Set<string> {
  const byId = corpus.topics.filter((t) => t.id === needle || t.id.startsWith(`${needle}.`));
  const hits = byId.length ? byId : corpus.topics.filter((t) => fold(t.label).includes(needle) || fold(t.zh).includes(needle));
  const out = new Set<string>();
  const add = (id: string) => { out.add(id); corpus.topic(id)?.children.forEach(add); };
  hits.forEach((t) => add(t.id));
  return out;
}

/**
 * The texts the corpus search indexes, one document per entry: the title (and English title) and
 * summary with their abbreviations' other forms ({@link withAbbreviations}), aliases, key, authors
 * (with Chinese names), venue (short and full), year, and the topics as the words of their ids,
 * Chinese labels and paths.
 *
 * @param corpus - the corpus model
 * @returns one document per entry, in `corpus.entries` order
 */
export function searchDocuments(corpus: Corpus): SearchDocument[] {
  // An entry's topics as the words of their ids, Chinese labels and paths (the label ends the
  // path), each word once: many entries share topics, and the index build is mostly term insertions.
  const topicWords = new Map<string, string[]>();
  const wordsOfTopic = (id: string): string[] => {
    let words = topicWords.get(id);
    if (!words) {
      const t = corpus.topic(id);
      topicWords.set(id, words = tokenize(t ? [id, t.zh, ...t.path].join(' ') : id));
    }
    return words;
  };
  const topicText = (e: CorpusEntry) => [...new Set(e.topics.flatMap(wordsOfTopic))].join(' ');
  return corpus.entries.map((e, id) => ({
    id,
    title: withAbbreviations([e.title, e.title_en].filter(Boolean).join(' ')),
    aliases: e.aliases.join(' '),
    key: e.key,
    authors: e.authors.map((p) => [displayName(p), 'zh' in p ? p.zh : ''].join(' ')).join(' '),
    venue: [e.venue, e.venue_full].filter(Boolean).join(' '),
    year: e.year?.toString() ?? '',
    topics: topicText(e),
    summary: withAbbreviations(e.summary ?? ''),
  }));
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
