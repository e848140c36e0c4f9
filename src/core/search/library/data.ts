/**
 * The library index's data: the layout of its postings and what every part (`build.ts`,
 * `query.ts`, `serialize.ts`) reads and writes, with the scoring of one posting. The scoring
 * parameters are the corpus search's (`core/search/scoring.ts`).
 */
import { displayName } from '../../cite/names.js';
import type { Entry } from '../../corpus/schema.js';
import { FIELD_BOOSTS } from '../scoring.js';
import { withAbbreviations } from '../analysis.js';
import { BM25, idf } from '../scoring.js';
import { Haystack } from './haystack.js';

/** Entries kept per one- or two-letter prefix (the newest first). */
export const PREFIX_LIST = 200;

/** Words of the index a prefix expands to at most (those in most entries). */
export const MAX_EXPANSIONS = 50;

/** Entries kept per word for one-word queries (those where it scores highest); see `search/library/libraryIndex.ts`. */
export const TOP_LIST = 256;

/** The fields indexed, in posting order. */
export const FIELDS = ['title', 'key', 'authors', 'venue', 'year', 'keywords'] as const;
type Field = (typeof FIELDS)[number];
/** Fields per entry. */
export const F = FIELDS.length;
/** The corpus search's boost of each field (keywords weigh as its topics). */
export const BOOST = Float64Array.from(FIELDS.map((f) => (f === 'keywords' ? FIELD_BOOSTS.topics : FIELD_BOOSTS[f])));

// A posting is one int: field (3 bits) · entry id (25 bits) · occurrences, at most 7 (3 bits).
// Sorted, a word's postings run field by field, and by entry within a field.
export const FIELD_SHIFT = 28;
export const DOC_SHIFT = 3;
export const TF_MASK = 7;
export const DOC_MASK = (1 << 25) - 1;
/** Entry ids an index can give (its entries, and those edits add). */
export const MAX_DOCS = 1 << 25;
/** A posting of `tf` occurrences (at most 7 counted) in entry `doc`'s field `field`. */
export const posting = (field: number, doc: number, tf: number) => (field << FIELD_SHIFT) | (doc << DOC_SHIFT) | Math.min(tf, TF_MASK);
/** The entry of a posting. */
export const docOf = (p: number) => (p >>> DOC_SHIFT) & DOC_MASK;

/** Bumped whenever the serialised index changes shape or content, so an old cache is not read. */
export const LIBRARY_INDEX_VERSION = 4;

/**
 * A field's text as the corpus search indexes it (`searchDocuments` in `core/search/corpus/corpusDocuments.ts`): the
 * title with its abbreviations' other forms, authors' display names, the venue, the year.
 */
export function fieldOf(e: Entry, field: Field): string {
  switch (field) {
    case 'title': return withAbbreviations(e.title);
    case 'key': return e.key;
    case 'authors': return e.authors.map(displayName).join(' ');
    case 'venue': return e.venue ?? '';
    case 'year': return e.year?.toString() ?? '';
    case 'keywords': return e.library?.keywords.join(' ') ?? '';
  }
}

/** Ints in blocks of 64K: growing copies nothing (at 100,000 entries the builder holds millions). */
export class Blocks {
  readonly blocks: Int32Array[] = [];
  length = 0;
  push(v: number): void {
    const b = this.length >>> 16;
    if (b === this.blocks.length) this.blocks.push(new Int32Array(1 << 16));
    this.blocks[b]![this.length & 0xffff] = v;
    this.length++;
  }
}

/** The first index in `[lo, hi)` whose value is `>= v` (`a` sorted ascending there). */
export function lowerBound(a: Int32Array, lo: number, hi: number, v: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** What scoring one word needs (see {@link IndexData.prepare}). */
export interface Prepared {
  /** Where its postings are, field by field: `[bounds[f], bounds[f + 1])`. */
  bounds: Int32Array;
  /** Per field: the query word's weight × the field's boost × the word's idf there (0: not in that field). */
  weight: Float64Array;
  /** Postings `update` added. */
  extra: number[] | undefined;
}

/**
 * The state of a library index, open to the modules of `search/library/`; `LibraryIndex`
 * (`search/library/libraryIndex.ts`) holds one and is the API the rest of the code sees.
 */
export class IndexData {
  /** Entries by id (their position when built; updates add ids and leave holes). */
  readonly byId: (Entry | undefined)[];
  alive: Uint8Array;
  years: Uint16Array;
  /** Distinct words per entry and field (entry × {@link F} + field). */
  fieldLen: Uint16Array;
  readonly totalLen = new Float64Array(F);
  docCount = 0;

  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  /** Word ids by their first two characters, for prefix and typo matches. */
  readonly buckets = new Map<string, number[]>();
  /** Postings of words `0 … termStart.length - 2`, word by word (see {@link posting}). */
  termStart = new Int32Array(1);
  postings = new Int32Array(0);
  /** Postings added by `update` (unsorted), by word. */
  readonly extra = new Map<number, number[]>();
  /** Per word in more than {@link TOP_LIST} entries: the postings where it scores highest. */
  tops = new Map<number, Int32Array>();
  prefixes = new Map<string, Int32Array>();
  /** Per entry: ` ab c 20 …`, the distinct one- or two-character ASCII starts of its words (title, key, authors). */
  starts = new Haystack();
  /** Per entry: its authors, folded, `; ` between them. */
  authors = new Haystack();
  /** Per entry: its venue's id in {@link venueNames} (folded; entries share venues). */
  venueIds: Int32Array;
  venueNames: string[] = [];
  readonly venueIdOf = new Map<string, number>();

  readonly byKey = new Map<string, number>();
  idOf?: Map<Entry, number>;
  // Scratch space of addDoc.
  readonly counts = new Map<number, number>();
  readonly seen = new Set<string>();
  updated = false;

  // Scratch space of a search, by entry id (zero between searches).
  acc = new Float64Array(0);
  level = new Uint16Array(0);
  readonly row = new Int32Array(64);
  work = 0;
  /** Recent words' expansions (the words before the one being typed come back at every keystroke). */
  readonly expansions = new Map<string, { ids: number[]; weights: number[] }>();

  /** An empty index with room for `entries` (each is added by `addDoc`, or {@link addEntry} and the cache). */
  constructor(entries: readonly Entry[]) {
    this.byId = [...entries];
    const n = Math.max(entries.length, 1);
    this.alive = new Uint8Array(n);
    this.years = new Uint16Array(n);
    this.fieldLen = new Uint16Array(n * F);
    this.venueIds = new Int32Array(n);
  }

  /** Makes entry `id` (of {@link byId}) live: counted, its year and key known. */
  addEntry(id: number, e: Entry): void {
    this.alive[id] = 1;
    this.years[id] = e.year ?? 0;
    this.docCount++;
    const key = e.key.toLowerCase();
    if (!this.byKey.has(key)) this.byKey.set(key, id);
  }

  /** The id of a word, added when new. */
  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      const key = term.slice(0, 2);
      let bucket = this.buckets.get(key);
      if (!bucket) this.buckets.set(key, bucket = []);
      bucket.push(id);
    }
    return id;
  }

  /** Per field, BM25+'s length weight `k · b / average length`: the term part's denominator is `tf + k (1 − b) + lenWeight · length`. */
  lengthWeights(): Float64Array {
    const out = new Float64Array(F);
    for (let f = 0; f < F; f++) out[f] = (BM25.k * BM25.b * this.docCount) / this.totalLen[f]!;
    return out;
  }

  /** The score of one posting, weight and boost aside (BM25+'s term part, computed as the query's scan does). */
  tfPart(f: number, doc: number, tf: number, lenWeight: number): number {
    const { k, b, d } = BM25;
    return d + (tf * (k + 1)) / (tf + k * (1 - b) + lenWeight * this.fieldLen[doc * F + f]!);
  }

  /** Postings of word `t`. */
  size(t: number): number {
    const built = t + 1 < this.termStart.length ? this.termStart[t + 1]! - this.termStart[t]! : 0;
    return built + (this.extra.get(t)?.length ?? 0);
  }

  /** What scoring word `t` with weight `w` needs: where its postings are, per field, and each field's weight × boost × idf. */
  prepare(t: number, w: number): Prepared {
    const bounds = new Int32Array(F + 1);
    if (t + 1 < this.termStart.length) {
      const s = this.termStart[t]!;
      const e = this.termStart[t + 1]!;
      bounds[0] = s;
      for (let f = 1; f < F; f++) bounds[f] = lowerBound(this.postings, bounds[f - 1]!, e, f << FIELD_SHIFT);
      bounds[F] = e;
    }
    const extra = this.extra.get(t);
    const weight = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      let df = bounds[f + 1]! - bounds[f]!;
      if (extra) for (const v of extra) if (v >>> FIELD_SHIFT === f) df++;
      weight[f] = df ? w * BOOST[f]! * idf(df, this.docCount) : 0;
    }
    return { bounds, weight, extra };
  }
}
