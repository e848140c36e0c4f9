/**
 * Search over one library file's entries, built to stay fast and small at 100,000 entries.
 *
 * The text rules are the corpus search's (`core/search.ts`): its tokenizer, folding and Porter
 * stems, its field boosts, and MiniSearch's BM25+ with MiniSearch's defaults (k 1.2, b 0.7, d 0.5;
 * a prefix match weighs 0.375 × length / (length + 0.3 × extra letters), a typo match
 * 0.45 × length / (length + distance); the hits of all words, each scored in every field, summed,
 * times the number of words). The index is our own, of typed arrays: MiniSearch keeps a `Map` per
 * term and field and builds an object per hit, which at 100,000 entries took 275 MB and 40–100 ms
 * on a keystroke whose word is common.
 *
 * What keeps a keystroke's work from growing with the library:
 * - only the word being typed (the last) is matched as a prefix, and only from two characters on
 *   (`CJK` bigrams) or three (other words); a one- or two-letter word being typed is looked up in a
 *   table built with the index (each such prefix → the newest 200 entries that have a word
 *   starting with it), or, after other words, checked on their hits only;
 * - a prefix expands to at most {@link MAX_EXPANSIONS} of the index's words (those in most entries);
 * - a query of one word reads, of each word it expands to that is in more than {@link TOP_LIST}
 *   entries, only those entries where it scores highest (kept per word when the index is built),
 *   unless that leaves fewer hits than asked for (filters, entries to skip);
 * - words of several-word queries are read from the rarest: the others are looked up in its hits
 *   (by binary search) when that is cheaper than reading them;
 * - filters (`author:`, `venue:`, `year:`) test what was folded once, at build time, and only on
 *   the candidates the words give (a venue once per distinct venue); a query of filters alone
 *   lists entries in file order until the limit, from those `indexOf` finds in the authors' folded
 *   strings (kept a thousand entries to a string) for `author:`.
 *
 * Memory at 100,000 entries: 3.7 million postings in one `Int32Array` (15 MB), 74,000 words, and
 * a few strings per thousand entries; see `bench/scale.bench.ts`.
 */
import { foldAscii } from '../cite/key.js';
import { displayName } from '../cite/names.js';
import type { Entry } from '../schema.js';
import { CJK, FIELD_BOOSTS, indexTerms, queryTerm, tokenize, type ParsedQuery, type QueryFilters, type SearchHit } from '../search.js';
import { int32FromBase64, toBase64, uint16FromBase64 } from './base64.js';

/** Entries kept per one- or two-letter prefix (the newest first). */
const PREFIX_LIST = 200;

/** Words of the index a prefix expands to at most (those in most entries). */
export const MAX_EXPANSIONS = 50;

/** Entries kept per word for one-word queries (those where it scores highest); see the module comment. */
export const TOP_LIST = 256;

const FIELDS = ['title', 'key', 'authors', 'venue', 'year', 'keywords'] as const;
type Field = (typeof FIELDS)[number];
const F = FIELDS.length;
const BOOST = Float64Array.from(FIELDS.map((f) => (f === 'keywords' ? FIELD_BOOSTS.topics : FIELD_BOOSTS[f])));

// BM25+ and match weights: MiniSearch's defaults, so that scores are comparable with the corpus search's.
const K1 = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

// A posting is one int: field (3 bits) · entry id (25 bits) · occurrences, at most 7 (3 bits).
// Sorted, a word's postings run field by field, and by entry within a field.
const FIELD_SHIFT = 28;
const DOC_SHIFT = 3;
const TF_MASK = 7;
const DOC_MASK = (1 << 25) - 1;
/** Entry ids an index can give (its entries, and those edits add). */
const MAX_DOCS = 1 << 25;
const posting = (field: number, doc: number, tf: number) => (field << FIELD_SHIFT) | (doc << DOC_SHIFT) | Math.min(tf, TF_MASK);
const docOf = (p: number) => (p >>> DOC_SHIFT) & DOC_MASK;

/** Entries per string of a {@link Haystack}. */
const CHUNK = 1024;

function fieldOf(e: Entry, field: Field): string {
  switch (field) {
    case 'title': return e.title;
    case 'key': return e.key;
    case 'authors': return e.authors.map(displayName).join(' ');
    case 'venue': return e.venue ?? '';
    case 'year': return e.year?.toString() ?? '';
    case 'keywords': return e.library?.keywords.join(' ') ?? '';
  }
}

const noNul = (s: string) => (s.includes('\0') ? s.replace(/\0/g, ' ') : s);

/**
 * One folded string per entry, kept {@link CHUNK} entries to a string (NUL between entries): a
 * filter runs `indexOf` over a hundred strings instead of testing 100,000, and the index keeps a
 * hundred strings instead of one per entry. Entry `i` is in string `i / CHUNK`: every string but
 * the last holds {@link CHUNK} entries.
 */
class Haystack {
  private readonly texts: string[] = [];
  /** Per string: where each entry's text starts. */
  private readonly starts: number[][] = [];
  /** Entries pushed but not yet joined into the last string. */
  private open: string[] = [];
  private count = 0;

  /**
   * Restores strings written by {@link parts}.
   *
   * @throws Error when one is not a string, or holds more than {@link CHUNK} entries
   */
  static from(parts: readonly string[]): Haystack {
    const h = new Haystack();
    if (!Array.isArray(parts)) throw new Error('LibraryIndex: folded strings are not a list');
    for (const text of parts) {
      if (typeof text !== 'string') throw new Error('LibraryIndex: a folded string is not a string');
      const starts = [0];
      for (let i = text.indexOf('\0'); i >= 0; i = text.indexOf('\0', i + 1)) starts.push(i + 1);
      if (starts.length > CHUNK || (h.starts.length && h.starts[h.starts.length - 1]!.length < CHUNK)) throw new Error('LibraryIndex: folded strings of the wrong size');
      h.texts.push(text);
      h.starts.push(starts);
      h.count += starts.length;
    }
    return h;
  }

  /** Entries held. */
  get size(): number {
    return this.count;
  }

  /** Adds the next entry's string (joined when next read, or when its string is full). */
  push(s: string): void {
    this.open.push(s);
    this.count++;
    const last = this.starts[this.starts.length - 1];
    if (this.open.length === (!last || last.length === CHUNK ? CHUNK : CHUNK - last.length)) this.flush();
  }

  /** Joins the entries pushed into the last string. */
  flush(): void {
    if (!this.open.length) return;
    let c = this.texts.length - 1;
    if (c < 0 || this.starts[c]!.length === CHUNK) {
      this.texts.push('');
      this.starts.push([]);
      c++;
    }
    const starts = this.starts[c]!;
    const before = this.texts[c]!;
    let at = starts.length ? before.length + 1 : 0;
    for (const s of this.open) { starts.push(at); at += s.length + 1; }
    this.texts[c] = (before || starts.length > this.open.length ? `${before}\0` : '') + this.open.join('\0');
    this.open = [];
  }

  /** Entry `doc`'s string. */
  get(doc: number): string {
    this.flush();
    const c = Math.floor(doc / CHUNK);
    const j = doc % CHUNK;
    const starts = this.starts[c];
    if (!starts || j >= starts.length) return '';
    const text = this.texts[c]!;
    return text.slice(starts[j], j + 1 < starts.length ? starts[j + 1]! - 1 : text.length);
  }

  /** The entries whose string contains one of `needles` (none holds a NUL), in id order: a few native `indexOf` per string. */
  *matches(needles: readonly string[]): Generator<number, void, undefined> {
    this.flush();
    for (let ci = 0; ci < this.texts.length; ci++) {
      const text = this.texts[ci]!;
      const starts = this.starts[ci]!;
      const found: number[] = [];
      for (const needle of needles) {
        for (let p = text.indexOf(needle); p >= 0;) {
          // The entry holding offset p: the last start at or before it.
          let lo = 0;
          let hi = starts.length - 1;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (starts[mid]! <= p) lo = mid; else hi = mid - 1;
          }
          found.push(lo);
          if (lo + 1 >= starts.length) break;
          p = text.indexOf(needle, starts[lo + 1]!);
        }
      }
      if (needles.length > 1) found.sort((x, y) => x - y);
      for (let k = 0; k < found.length; k++) if (k === 0 || found[k] !== found[k - 1]) yield ci * CHUNK + found[k]!;
    }
  }

  /** The strings, for the cache ({@link from} reads them). */
  parts(): string[] {
    this.flush();
    return [...this.texts];
  }
}

/** Ints in blocks of 64K: growing copies nothing (at 100,000 entries the builder holds millions). */
class Blocks {
  readonly blocks: Int32Array[] = [];
  length = 0;
  push(v: number): void {
    const b = this.length >>> 16;
    if (b === this.blocks.length) this.blocks.push(new Int32Array(1 << 16));
    this.blocks[b]![this.length & 0xffff] = v;
    this.length++;
  }
}

/** An `Int32Array` at least `n` long, keeping its contents. */
function grownInts(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const bigger = new Int32Array(Math.max(n, Math.ceil(a.length * 1.5), 64));
  bigger.set(a);
  return bigger;
}

/** A typed array at least `n` long, keeping its contents. */
function grown<T extends Uint8Array | Uint16Array | Float64Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const bigger = new (a.constructor as new (n: number) => T)(Math.max(n, Math.ceil(a.length * 1.5), 64));
  bigger.set(a);
  return bigger;
}

/** The first index in `[lo, hi)` whose value is `>= v` (`a` sorted ascending there). */
function lowerBound(a: Int32Array, lo: number, hi: number, v: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Levenshtein distance of `a` and `b` when at most `max`, else `max + 1`. */
function distanceWithin(a: string, b: string, max: number, row: Int32Array): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(cur + 1, row[j - 1]! + 1, prev + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      prev = cur;
      if (row[j]! < best) best = row[j]!;
    }
    if (best > max) return max + 1;
  }
  return row[b.length]!;
}

/**
 * The serialised form of a {@link LibraryIndex}, for the cache. Typed arrays are base64 (see
 * `base64.ts`) and long lists come in parts of a few milliseconds' work each, so that writing the
 * cache can be sliced ({@link LibraryIndex.jsonPieces}).
 */
export interface LibraryIndexJson {
  version: number;
  /** Entries indexed: ids are their positions. */
  docs: number;
  /** The index's words in id order, one a line, in parts. */
  terms: string[];
  /** Int32 per word and one more: where its postings start. */
  termStart: string[];
  /** Int32 postings (field · entry · occurrences). */
  postings: string[];
  /** Uint16 per entry and field: its distinct words. */
  fieldLen: string[];
  /** {@link TOP_LIST}s: word ids, where each list starts (one more), postings. */
  tops: { terms: string[]; start: string[]; postings: string[] };
  /** The one- and two-letter prefix table: prefixes, where each list starts (one more), entry ids. */
  prefixes: { keys: string[]; start: string[]; ids: string[] };
  /** Folded strings ({@link CHUNK} entries each): the starts of words, the authors. */
  starts: string[];
  authors: string[];
  /** Folded venues, and Int32 per entry: its venue's index there. */
  venues: string[];
  venueIds: string[];
}

/** Numbers per base64 part of a {@link LibraryIndexJson}. */
const NUMBERS_PER_PART = 1 << 18;
/** Words per part of {@link LibraryIndexJson.terms}. */
const TERMS_PER_PART = 1 << 14;

/** A typed array as a JSON list of base64 parts, in pieces. */
function* base64Parts(a: Int32Array | Uint16Array): Generator<string, void, undefined> {
  yield '[';
  for (let i = 0; i < Math.max(a.length, 1); i += NUMBERS_PER_PART) {
    // base64 needs no escaping in JSON.
    yield `${i ? ',' : ''}"${toBase64(a.subarray(i, i + NUMBERS_PER_PART))}"`;
  }
  yield ']';
}

/** Parts written by {@link base64Parts}, as one array; a pause after each part (see `LibraryIndex.restoring`). */
function* fromParts<T extends Int32Array | Uint16Array>(parts: readonly string[], decode: (s: string) => T, make: (n: number) => T): Generator<void, T, undefined> {
  if (!Array.isArray(parts)) throw new Error('LibraryIndex: a list of parts expected');
  const decoded: T[] = [];
  for (const part of parts) {
    decoded.push(decode(part));
    yield;
  }
  if (decoded.length === 1) return decoded[0]!;
  const out = make(decoded.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of decoded) { out.set(d, at); at += d.length; }
  return out;
}
const int32Parts = (parts: readonly string[]) => fromParts(parts, int32FromBase64, (n) => new Int32Array(n));
const uint16Parts = (parts: readonly string[]) => fromParts(parts, uint16FromBase64, (n) => new Uint16Array(n));

/** Whether list bounds run from 0, never down, to `end` (a restored index's `termStart` and the like). */
function runsUpTo(start: Int32Array, end: number): boolean {
  if (start[0] !== 0) return false;
  for (let i = 1; i < start.length; i++) if (start[i]! < start[i - 1]!) return false;
  return start[start.length - 1] === end;
}

/** Whether a restored posting names a field, one of `docs` entries, and a count. */
const isPostingOf = (p: number, docs: number) => p >= 0 && p >>> FIELD_SHIFT < F && docOf(p) < docs && (p & TF_MASK) > 0;

/** Bumped whenever the serialised index changes shape, so an old cache is not read. */
export const LIBRARY_INDEX_VERSION = 2;

/** A word of a query, and the index's words it matches with their weights. */
interface QueryWord {
  ids: number[];
  weights: number[];
  /** Postings of all its words. */
  size: number;
}

/** What scoring one word needs (see `LibraryIndex.prepare`). */
interface Prepared {
  /** Where its postings are, field by field: `[bounds[f], bounds[f + 1])`. */
  bounds: Int32Array;
  /** Per field: the query word's weight × the field's boost × the word's idf there (0: not in that field). */
  weight: Float64Array;
  /** Postings {@link LibraryIndex.update} added. */
  extra: number[] | undefined;
}

/** What the builder collects before the postings are laid out. */
interface Building {
  /** Per posting: its word, and the posting. */
  termOf: Blocks;
  values: Blocks;
  /** Per one- or two-letter prefix: the newest {@link PREFIX_LIST} entries so far, a heap whose root is the oldest. */
  prefixLists: Map<string, number[]>;
}

/** A searchable library file; see the module comment. */
export class LibraryIndex {
  /** Entries by id (their position when built; updates add ids and leave holes). */
  private readonly byId: (Entry | undefined)[];
  private alive: Uint8Array;
  private years: Uint16Array;
  /** Distinct words per entry and field (entry × {@link F} + field). */
  private fieldLen: Uint16Array;
  private readonly totalLen = new Float64Array(F);
  private docCount = 0;

  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Word ids by their first two characters, for prefix and typo matches. */
  private readonly buckets = new Map<string, number[]>();
  /** Postings of words `0 … termStart.length - 2`, word by word (see {@link posting}). */
  private termStart = new Int32Array(1);
  private postings = new Int32Array(0);
  /** Postings added by {@link update} (unsorted), by word. */
  private readonly extra = new Map<number, number[]>();
  /** Per word in more than {@link TOP_LIST} entries: the postings where it scores highest. */
  private tops = new Map<number, Int32Array>();
  private prefixes = new Map<string, Int32Array>();
  /** Per entry: ` ab c 20 …`, the distinct one- or two-character ASCII starts of its words (title, key, authors). */
  private starts = new Haystack();
  /** Per entry: its authors, folded, `; ` between them. */
  private authors = new Haystack();
  /** Per entry: its venue's id in {@link venueNames} (folded; entries share venues). */
  private venueIds: Int32Array;
  private venueNames: string[] = [];
  private readonly venueIdOf = new Map<string, number>();

  private readonly byKey = new Map<string, number>();
  private idOf?: Map<Entry, number>;
  // Scratch space of addDoc.
  private readonly counts = new Map<number, number>();
  private readonly seen = new Set<string>();
  private updated = false;

  // Scratch space of a search, by entry id (zero between searches).
  private acc = new Float64Array(0);
  private level = new Uint16Array(0);
  private readonly row = new Int32Array(64);
  private work = 0;
  /** Recent words' expansions (the words before the one being typed come back at every keystroke). */
  private readonly expansions = new Map<string, { ids: number[]; weights: number[] }>();

  /** An empty index with room for `entries` (each is added by {@link addDoc}, or {@link addEntry} and the cache). */
  private constructor(entries: readonly Entry[]) {
    this.byId = [...entries];
    const n = Math.max(entries.length, 1);
    this.alive = new Uint8Array(n);
    this.years = new Uint16Array(n);
    this.fieldLen = new Uint16Array(n * F);
    this.venueIds = new Int32Array(n);
  }

  /** Makes entry `id` (of {@link byId}) live: counted, its year and key known. */
  private addEntry(id: number, e: Entry): void {
    this.alive[id] = 1;
    this.years[id] = e.year ?? 0;
    this.docCount++;
    const key = e.key.toLowerCase();
    if (!this.byKey.has(key)) this.byKey.set(key, id);
  }

  /**
   * Builds the index in slices: call `step` until it returns the index; between calls other work
   * may run. `deadline()` is asked every 16 entries, and every 65,536 postings while they are laid out.
   *
   * @param entries - the entries, in file order (copied: later changes to the array do not reach the index)
   * @throws Error for more than 2^25 entries
   */
  static builder(entries: readonly Entry[]): { step(deadline: () => boolean): LibraryIndex | undefined; readonly done: number } {
    if (entries.length > MAX_DOCS) throw new Error(`LibraryIndex: ${entries.length} entries are more than the ${MAX_DOCS} it can index`);
    const index = new LibraryIndex(entries);
    const b: Building = { termOf: new Blocks(), values: new Blocks(), prefixLists: new Map() };
    const emit = (t: number, v: number) => { b.termOf.push(t); b.values.push(v); };
    const onPrefix = (p: string, id: number) => {
      const heap = b.prefixLists.get(p);
      if (heap) keepNewest(heap, id, index.years);
      else b.prefixLists.set(p, [id]);
    };
    let i = 0;
    const phases = index.layout(b);
    let result: LibraryIndex | undefined;
    return {
      get done() { return i; },
      step(deadline) {
        if (result) return result;
        const n = index.byId.length;
        while (i < n) {
          index.addDoc(i, index.byId[i]!, emit, onPrefix);
          i++;
          if ((i & 15) === 0 && i < n && deadline()) return undefined;
        }
        for (;;) {
          const r = phases.next(deadline);
          if (r.done) return (result = index);
          if (r.value) return undefined;
        }
      },
    };
  }

  /** Builds the index at once (tests, small libraries). */
  static build(entries: readonly Entry[]): LibraryIndex {
    return LibraryIndex.builder(entries).step(() => false)!;
  }

  /** The id of a word, added when new. */
  private termId(term: string): number {
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

  /** Indexes entry `id`: its postings go to `emit`, its one- and two-letter prefixes to `onPrefix`; its lengths and folded strings are kept. */
  private addDoc(id: number, e: Entry, emit: (term: number, value: number) => void, onPrefix: (p: string, id: number) => void): void {
    this.addEntry(id, e);
    const counts = this.counts;
    const seen = this.seen;
    // The folded words of title, key and authors: their starts are kept (see `starts`).
    const words: string[] = [];
    for (let f = 0; f < F; f++) {
      const tokens = tokenize(fieldOf(e, FIELDS[f]!));
      // A field's length is its distinct words as written (MiniSearch's); its words' counts are of their folded forms and stems.
      seen.clear();
      for (const token of tokens) seen.add(token);
      this.fieldLen[id * F + f] = Math.min(seen.size, 0xffff);
      this.totalLen[f] += seen.size;
      counts.clear();
      for (const token of tokens) {
        const terms = indexTerms(token);
        if (f < 2) words.push(terms[0]!);
        for (const term of terms) {
          const t = this.termId(term);
          counts.set(t, (counts.get(t) ?? 0) + 1);
        }
      }
      for (const [t, tf] of counts) emit(t, posting(f, id, tf));
    }
    const authors = noNul(foldAscii(e.authors.map(displayName).join('; ')));
    this.authors.push(authors);
    for (const w of authors.split(/[^a-z0-9]+/)) if (w) words.push(w);
    const venue = noNul(foldAscii(e.venue ?? ''));
    let v = this.venueIdOf.get(venue);
    if (v === undefined) {
      v = this.venueNames.length;
      this.venueIdOf.set(venue, v);
      this.venueNames.push(venue);
    }
    this.venueIds[id] = v;
    // The prefix table's keys (any characters), and the ASCII starts kept for a short last word after others.
    seen.clear();
    let starts = '';
    for (const w of words) {
      const one = w.slice(0, 1);
      const two = w.slice(0, 2);
      if (!seen.has(one)) { seen.add(one); onPrefix(one, id); }
      if (w.length >= 2 && !seen.has(two)) { seen.add(two); onPrefix(two, id); }
      if (!isAlnum(w.charCodeAt(0))) continue;
      const start = w.length >= 2 && isAlnum(w.charCodeAt(1)) ? two : one;
      if (!seen.has(` ${start}`)) { seen.add(` ${start}`); starts += ` ${start}`; }
    }
    this.starts.push(starts);
  }

  /**
   * Lays out what the builder collected, in phases that stop when `deadline()` says so (the
   * generator yields true then, and takes the next deadline): postings word by word, the top
   * lists, the prefix table.
   */
  private *layout(b: Building): Generator<boolean, void, () => boolean> {
    let deadline: () => boolean = yield false;
    const pause = function* (): Generator<boolean, void, () => boolean> { deadline = yield true; };
    const T = this.terms.length;
    const P = b.values.length;
    let termOf: Int32Array[] | undefined = b.termOf.blocks;
    let values: Int32Array[] | undefined = b.values.blocks;
    b.termOf = b.values = new Blocks();
    // Counting sort by (word, field): within each, entries stay in id order. A block at a time.
    let start: Int32Array | undefined = new Int32Array(T * F + 1);
    for (let k = 0; k < termOf.length; k++) {
      const ts = termOf[k]!;
      const vs = values[k]!;
      const n = Math.min(1 << 16, P - k * (1 << 16));
      for (let i = 0; i < n; i++) start[ts[i]! * F + (vs[i]! >>> FIELD_SHIFT) + 1]!++;
      if (deadline()) yield* pause();
    }
    for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
    const postings = new Int32Array(P);
    for (let k = 0; k < termOf.length; k++) {
      const ts = termOf[k]!;
      const vs = values[k]!;
      const n = Math.min(1 << 16, P - k * (1 << 16));
      for (let i = 0; i < n; i++) postings[start[ts[i]! * F + (vs[i]! >>> FIELD_SHIFT)]!++] = vs[i]!;
      // Each block is read for the last time: let it go.
      termOf[k] = values[k] = EMPTY;
      if (deadline()) yield* pause();
    }
    termOf = values = undefined;
    const termStart = new Int32Array(T + 1);
    // `start` now holds where each (word, field) ends: a word ends where its last field does.
    for (let t = 0; t < T; t++) termStart[t + 1] = start[t * F + F - 1]!;
    start = undefined;
    this.termStart = termStart;
    this.postings = postings;
    this.starts.flush();
    this.authors.flush();
    if (deadline()) yield* pause();
    let work = 0;
    for (let t = 0; t < T; t++) {
      const size = termStart[t + 1]! - termStart[t]!;
      if (size <= TOP_LIST) continue;
      this.tops.set(t, this.topList(t));
      work += size;
      if (work > 0x10000) { work = 0; if (deadline()) yield* pause(); }
    }
    const years = this.years;
    for (const [p, heap] of b.prefixLists) {
      // Newest first; file order among equals.
      this.prefixes.set(p, Int32Array.from(heap.sort((x, y) => years[y]! - years[x]! || x - y)));
      work += heap.length * 8;
      if (work > 0x10000) { work = 0; if (deadline()) yield* pause(); }
    }
    b.prefixLists.clear();
  }

  /** BM25+'s inverse document frequency for a word in `df` entries' field. */
  private idf(df: number): number {
    return Math.log(1 + (this.docCount - df + 0.5) / (df + 0.5));
  }

  /** The score of one posting, weight and boost aside (BM25+'s term part, computed as {@link scan} does). */
  private tfPart(f: number, doc: number, tf: number): number {
    const lenWeight = (K1 * B * this.docCount) / this.totalLen[f]!;
    return D + (tf * (K1 + 1)) / (tf + K1 * (1 - B) + lenWeight * this.fieldLen[doc * F + f]!);
  }

  /** Word `t`'s postings where it scores highest, at most {@link TOP_LIST} (a min-heap on score). */
  private topList(t: number): Int32Array {
    const { bounds, weight } = this.prepare(t, 1);
    const heapV = new Int32Array(TOP_LIST);
    const heapS = new Float64Array(TOP_LIST);
    let n = 0;
    // Worse: lower score, or the same score and a later entry.
    const worse = (i: number, j: number) => heapS[i]! < heapS[j]! || (heapS[i] === heapS[j] && heapV[i]! > heapV[j]!);
    const swap = (i: number, j: number) => {
      const v = heapV[i]!; heapV[i] = heapV[j]!; heapV[j] = v;
      const s = heapS[i]!; heapS[i] = heapS[j]!; heapS[j] = s;
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && worse(l, m)) m = l;
        if (r < n && worse(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    for (let f = 0; f < F; f++) {
      const s = bounds[f]!;
      const e = bounds[f + 1]!;
      if (s === e) continue;
      const c = weight[f]!;
      for (let k = s; k < e; k++) {
        const v = this.postings[k]!;
        const score = c * this.tfPart(f, docOf(v), v & TF_MASK);
        if (n < TOP_LIST) {
          heapV[n] = v; heapS[n] = score;
          for (let i = n++; i > 0;) {
            const parent = (i - 1) >> 1;
            if (!worse(i, parent)) break;
            swap(i, parent);
            i = parent;
          }
        } else if (score > heapS[0]!) {
          heapV[0] = v; heapS[0] = score;
          down(0);
        }
      }
    }
    return heapV.slice(0, n);
  }

  /**
   * Takes entries out and puts others in (an edited file's changed entries), without rebuilding:
   * cost proportional to the entries changed. An updated index is not saved ({@link toJSON}).
   *
   * @param removed - entries of this index (the same objects)
   * @param added - new entries
   * @throws Error when edits have used up the 2^25 entry ids
   */
  update(removed: readonly Entry[], added: readonly Entry[]): void {
    if (!this.idOf) {
      this.idOf = new Map();
      this.byId.forEach((e, i) => { if (e) this.idOf!.set(e, i); });
    }
    this.updated = true;
    this.expansions.clear();
    for (const e of removed) {
      const id = this.idOf.get(e);
      if (id === undefined) continue;
      this.alive[id] = 0;
      this.docCount--;
      for (let f = 0; f < F; f++) this.totalLen[f] -= this.fieldLen[id * F + f]!;
      this.byId[id] = undefined;
      this.idOf.delete(e);
      if (this.byKey.get(e.key.toLowerCase()) === id) this.byKey.delete(e.key.toLowerCase());
    }
    for (const e of added) {
      const id = this.byId.length;
      if (id >= MAX_DOCS) throw new Error(`LibraryIndex: edits have used up the ${MAX_DOCS} entry ids; load the library again`);
      this.byId.push(e);
      this.alive = grown(this.alive, id + 1);
      this.years = grown(this.years, id + 1);
      this.fieldLen = grown(this.fieldLen, (id + 1) * F);
      this.venueIds = grownInts(this.venueIds, id + 1);
      this.idOf.set(e, id);
      this.addDoc(id, e, (t, v) => {
        let list = this.extra.get(t);
        if (!list) this.extra.set(t, list = []);
        list.push(v);
      }, (p) => {
        // A new entry leads its prefixes' lists (it is what the user just wrote).
        const list = this.prefixes.get(p) ?? new Int32Array(0);
        const next = new Int32Array(Math.min(list.length + 1, PREFIX_LIST));
        next[0] = id;
        next.set(list.subarray(0, next.length - 1), 1);
        this.prefixes.set(p, next);
      });
    }
  }

  /**
   * Restores an index saved with {@link toJSON} (or {@link jsonPieces}) over the same entries.
   *
   * @returns undefined when it is of another version, or damaged (then the library is read again)
   */
  static fromJSON(entries: readonly Entry[], json: LibraryIndexJson): LibraryIndex | undefined {
    const restoring = LibraryIndex.restoring(entries, json);
    for (;;) {
      const r = restoring.next();
      if (r.done) return r.value;
    }
  }

  /**
   * {@link fromJSON} in pieces of a few milliseconds each (at 100,000 entries the whole takes most
   * of a second): run the generator on, between other work, until it returns; what it returns is
   * {@link fromJSON}'s. Every id and bound is checked, as a search reads them unchecked.
   */
  static *restoring(entries: readonly Entry[], json: LibraryIndexJson): Generator<void, LibraryIndex | undefined, undefined> {
    if (json?.version !== LIBRARY_INDEX_VERSION || json.docs !== entries.length) return undefined;
    try {
      const index = new LibraryIndex(entries);
      for (let i = 0; i < entries.length; i++) {
        index.addEntry(i, entries[i]!);
        if ((i & 4095) === 4095) yield;
      }
      if (!Array.isArray(json.terms)) return undefined;
      for (const part of json.terms) {
        if (typeof part !== 'string') return undefined;
        if (part) for (const t of part.split('\n')) index.termId(t);
        yield;
      }
      const T = index.terms.length;
      index.termStart = yield* int32Parts(json.termStart);
      index.postings = yield* int32Parts(json.postings);
      if (index.termStart.length !== T + 1 || !runsUpTo(index.termStart, index.postings.length)) return undefined;
      const fieldLen = yield* uint16Parts(json.fieldLen);
      if (fieldLen.length !== entries.length * F) return undefined;
      index.fieldLen.set(fieldLen);
      for (let i = 0; i < fieldLen.length; i++) index.totalLen[i % F] += fieldLen[i]!;
      // Ids within the entries and fields, in order within each word (as laid out), each in a field
      // with words (a length of 0 would score it infinite): a search reads them unchecked.
      const docs = entries.length;
      const isPosting = (p: number) => isPostingOf(p, docs) && fieldLen[docOf(p) * F + (p >>> FIELD_SHIFT)]! > 0;
      for (let t = 0, work = 0; t < T; t++) {
        const from = index.termStart[t]!;
        const to = index.termStart[t + 1]!;
        for (let k = from; k < to; k++) {
          if (!isPosting(index.postings[k]!) || (k > from && index.postings[k]! <= index.postings[k - 1]!)) return undefined;
        }
        work += to - from + 1;
        if (work > 0x40000) { work = 0; yield; }
      }
      const topTerms = yield* int32Parts(json.tops.terms);
      const topStart = yield* int32Parts(json.tops.start);
      const topPostings = yield* int32Parts(json.tops.postings);
      if (topStart.length !== topTerms.length + 1 || !runsUpTo(topStart, topPostings.length)) return undefined;
      if (topTerms.some((t) => t < 0 || t >= T) || topPostings.some((p) => !isPosting(p))) return undefined;
      topTerms.forEach((t, i) => index.tops.set(t, topPostings.subarray(topStart[i], topStart[i + 1])));
      yield;
      const keys = json.prefixes.keys;
      const pStart = yield* int32Parts(json.prefixes.start);
      const pIds = yield* int32Parts(json.prefixes.ids);
      if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string') || pStart.length !== keys.length + 1 || !runsUpTo(pStart, pIds.length)) return undefined;
      if (pIds.some((id) => id < 0 || id >= docs)) return undefined;
      keys.forEach((k, i) => index.prefixes.set(k, pIds.subarray(pStart[i], pStart[i + 1])));
      yield;
      index.starts = Haystack.from(json.starts);
      yield;
      index.authors = Haystack.from(json.authors);
      if (index.starts.size !== entries.length || index.authors.size !== entries.length) return undefined;
      if (!Array.isArray(json.venues) || json.venues.some((v) => typeof v !== 'string')) return undefined;
      index.venueNames = json.venues;
      json.venues.forEach((v, i) => index.venueIdOf.set(v, i));
      const venueIds = yield* int32Parts(json.venueIds);
      if (venueIds.length !== entries.length || venueIds.some((v) => v < 0 || v >= json.venues.length)) return undefined;
      index.venueIds.set(venueIds);
      return index;
    } catch {
      // ignored: a damaged cache is as good as none; the caller reads the library from its file.
      return undefined;
    }
  }

  /**
   * The index as JSON text for the cache, in pieces of a few milliseconds' work each (joined, the
   * JSON of {@link toJSON}).
   *
   * @throws Error (when the generator runs) for an index that {@link update} changed: its ids are no longer the entries' positions
   */
  *jsonPieces(): Generator<string, void, undefined> {
    if (this.updated) throw new Error('LibraryIndex: the index was updated since it was built; build it again to save it');
    const n = this.byId.length;
    yield `{"version":${LIBRARY_INDEX_VERSION},"docs":${n},"terms":[`;
    for (let i = 0; i < Math.max(this.terms.length, 1); i += TERMS_PER_PART) {
      yield (i ? ',' : '') + JSON.stringify(this.terms.slice(i, i + TERMS_PER_PART).join('\n'));
    }
    yield '],"termStart":';
    yield* base64Parts(this.termStart);
    yield ',"postings":';
    yield* base64Parts(this.postings);
    yield ',"fieldLen":';
    yield* base64Parts(this.fieldLen.subarray(0, n * F));
    const topTerms = [...this.tops.keys()];
    const topStart = new Int32Array(topTerms.length + 1);
    topTerms.forEach((t, i) => { topStart[i + 1] = topStart[i]! + this.tops.get(t)!.length; });
    const topPostings = new Int32Array(topStart[topTerms.length]!);
    topTerms.forEach((t, i) => topPostings.set(this.tops.get(t)!, topStart[i]));
    yield ',"tops":{"terms":';
    yield* base64Parts(Int32Array.from(topTerms));
    yield ',"start":';
    yield* base64Parts(topStart);
    yield ',"postings":';
    yield* base64Parts(topPostings);
    const keys = [...this.prefixes.keys()];
    const pStart = new Int32Array(keys.length + 1);
    keys.forEach((k, i) => { pStart[i + 1] = pStart[i]! + this.prefixes.get(k)!.length; });
    const pIds = new Int32Array(pStart[keys.length]!);
    keys.forEach((k, i) => pIds.set(this.prefixes.get(k)!, pStart[i]));
    yield `},"prefixes":{"keys":${JSON.stringify(keys)},"start":`;
    yield* base64Parts(pStart);
    yield ',"ids":';
    yield* base64Parts(pIds);
    for (const [name, hay] of [['starts', this.starts], ['authors', this.authors]] as const) {
      yield `},"${name}":[`.slice(name === 'starts' ? 0 : 1);
      yield* hay.parts().map((part, i) => (i ? ',' : '') + JSON.stringify(part));
      yield ']';
    }
    yield `,"venues":${JSON.stringify(this.venueNames)},"venueIds":`;
    yield* base64Parts(this.venueIds.subarray(0, n));
    yield '}';
  }

  /**
   * The index as data for the cache (tests; the cache is written with {@link jsonPieces}).
   *
   * @throws Error like {@link jsonPieces}
   */
  toJSON(): LibraryIndexJson {
    return JSON.parse([...this.jsonPieces()].join('')) as LibraryIndexJson;
  }

  /**
   * What the last {@link search} read: postings, and candidates looked up or ranked. For tests of
   * the bounds in the module comment (work, unlike time, does not depend on the machine).
   */
  get lastSearchWork(): number {
    return this.work;
  }

  /** The entry with a key (ignoring case; the first of duplicates). */
  entry(key: string): Entry | undefined {
    const i = this.byKey.get(key.toLowerCase());
    return i === undefined ? undefined : this.byId[i];
  }

  /**
   * Runs a parsed query (see `parseQuery`; `topic:` filters match no library entry).
   *
   * @param query - free text and filters
   * @param limit - hits at most
   * @param skip - entries not to return (the corpus's twins)
   * @returns hits, best first (equal scores in file order); scores are BM25+ like the corpus search's
   */
  search(query: ParsedQuery, limit: number, skip?: (e: Entry) => boolean): SearchHit[] {
    const { filters } = query;
    this.work = 0;
    if (filters.topic?.length || limit <= 0) return [];
    const filter = this.filterOf(filters);
    const passes = (i: number): boolean => this.alive[i] === 1 && (!filter || filter(i)) && !skip?.(this.byId[i]!);
    // The query's words, each split as the index splits text (`kwon2023e` → `kwon2023e`, `kwon`,
    // `2023`, `e`); a Chinese or Japanese run is matched by its character pairs (the index has those
    // of every title), not as a whole, so a phrase from the middle of a title still finds it.
    const terms = (text: string) => tokenize(text).map(foldAscii).filter((w) => w && !(CJK.test(w) && [...w].length > 2));
    const raw = query.text.trim().split(/\s+/).filter(Boolean);
    const head = terms(raw.slice(0, -1).join(' '));
    const lastWord = foldAscii(raw[raw.length - 1] ?? '');
    if (!head.length && !lastWord) {
      if (!filter) return [];
      // Entries in file order, from those an `author:` or `venue:` string finds (else all), until the limit.
      const out: SearchHit[] = [];
      const each = filters.author?.length ? this.authors.matches(filters.author) : this.byId.keys();
      for (const i of each) {
        if (out.length >= limit) break;
        this.work++;
        if (passes(i)) out.push({ entry: this.byId[i]!, score: 0 });
      }
      return out;
    }
    // A one- or two-letter last word is the start of a word being typed (even when it is a word itself: `a`, initials).
    const typingShort = lastWord.length < 3 && /^[a-z0-9]+$/.test(lastWord);
    // The word being typed is matched as a prefix by each of its parts of two letters or more.
    const tail = typingShort ? [] : terms(lastWord).filter((t, i, all) => all.length === 1 || [...t].length >= 2);
    if (!head.length && !tail.length) {
      // One short word: the table's newest entries with a word that starts with it.
      const out: SearchHit[] = [];
      for (const i of this.prefixes.get(lastWord) ?? []) {
        if (out.length >= limit) break;
        this.work++;
        if (passes(i)) out.push({ entry: this.byId[i]!, score: 1 });
      }
      return out;
    }
    const words: QueryWord[] = [];
    const seen = new Set<string>();
    const add = (word: string, prefix: boolean) => {
      const term = queryTerm(word);
      if (!term || seen.has(`${prefix}:${term}`)) return;
      seen.add(`${prefix}:${term}`);
      words.push(this.expand(term, prefix && term.length >= 2, !prefix));
    };
    head.forEach((w) => add(w, false));
    tail.forEach((w) => add(w, true));
    // The last word's start, checked on the hits of the words before it.
    const also = typingShort ? (i: number) => this.starts.get(i).includes(` ${lastWord}`) : undefined;
    const want = (i: number) => passes(i) && (!also || also(i));
    let ranked = this.rank(words, want, limit, true);
    if (ranked.truncated && ranked.docs.length < limit) ranked = this.rank(words, want, limit, false);
    const quality = words.length;
    const hits: SearchHit[] = ranked.docs.map((d, k) => ({ entry: this.byId[d]!, score: ranked.scores[k]! * quality }));
    // The entry whose key is the whole query comes first.
    const id = this.byKey.get(query.text.trim().toLowerCase());
    if (id !== undefined && passes(id)) {
      const top = hits[0]?.score ?? 1;
      return [{ entry: this.byId[id]!, score: top * 1.5 }, ...hits.filter((h) => h.entry !== this.byId[id])].slice(0, limit);
    }
    return hits;
  }

  /**
   * The index's words a query word matches: itself; as a prefix, the longer words that start with
   * it (at most {@link MAX_EXPANSIONS}, those in most entries); with typos, when it is no word of
   * the index, the words within 20% of its letters (as MiniSearch's `fuzzy: 0.2`) that share one
   * of its first two letters with it, at that place or one over.
   */
  private expand(term: string, prefix: boolean, fuzzy: boolean): QueryWord {
    const key = `${prefix ? 'p' : fuzzy ? 'f' : 'x'}:${term}`;
    let found = this.expansions.get(key);
    if (!found) {
      found = { ids: [], weights: [] };
      const exact = this.termIds.get(term);
      if (exact !== undefined) { found.ids.push(exact); found.weights.push(1); }
      if (prefix) {
        const longer = (this.buckets.get(term.slice(0, 2)) ?? []).filter((t) => this.terms[t]!.length > term.length && this.terms[t]!.startsWith(term));
        if (longer.length > MAX_EXPANSIONS) {
          const size = (t: number) => this.size(t);
          longer.sort((a, b) => size(b) - size(a) || a - b).length = MAX_EXPANSIONS;
        }
        for (const t of longer) {
          const len = this.terms[t]!.length;
          found.ids.push(t);
          found.weights.push((PREFIX_WEIGHT * len) / (len + 0.3 * (len - term.length)));
        }
      } else if (fuzzy && exact === undefined && term.length >= 5 && /^[a-z]+$/.test(term)) {
        const max = Math.min(MAX_FUZZY, Math.round(term.length * 0.2));
        for (const [k, bucket] of this.buckets) {
          // Edits after the second letter keep both first letters; one within them keeps one of them, at its place or one over.
          if (!(k[0] === term[0] || k[1] === term[1] || k[0] === term[1] || k[1] === term[0])) continue;
          for (const t of bucket) {
            const w = this.terms[t]!;
            if (w === term || Math.abs(w.length - term.length) > max) continue;
            const d = distanceWithin(term, w, max, this.row.length > w.length ? this.row : new Int32Array(w.length + 1));
            if (d > max) continue;
            found.ids.push(t);
            found.weights.push((FUZZY_WEIGHT * w.length) / (w.length + d));
          }
        }
      }
      if (this.expansions.size >= 64) this.expansions.delete(this.expansions.keys().next().value!);
      this.expansions.set(key, found);
    }
    let size = 0;
    for (const t of found.ids) size += this.size(t);
    return { ids: found.ids, weights: found.weights, size };
  }

  /** Postings of word `t`. */
  private size(t: number): number {
    const built = t + 1 < this.termStart.length ? this.termStart[t + 1]! - this.termStart[t]! : 0;
    return built + (this.extra.get(t)?.length ?? 0);
  }

  /** What scoring word `t` needs: where its postings are, per field, and each field's weight × boost × idf. */
  private prepare(t: number, w: number): Prepared {
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
      weight[f] = df ? w * BOOST[f]! * this.idf(df) : 0;
    }
    return { bounds, weight, extra };
  }

  /**
   * The entries that match every word, best first, at most `limit` of those `want` accepts.
   *
   * @param truncate - a one-word query reads its words' top lists (see the module comment)
   * @returns the entries and their summed scores; `truncated` when a top list stood for a longer list
   */
  private rank(words: QueryWord[], want: (i: number) => boolean, limit: number, truncate: boolean): { docs: number[]; scores: number[]; truncated: boolean } {
    const cap = this.byId.length;
    if (this.acc.length < cap) { this.acc = new Float64Array(cap); this.level = new Uint16Array(cap); }
    const acc = this.acc;
    const level = this.level;
    const order = [...words].sort((a, b) => a.size - b.size);
    // Every entry a search touches: the rarest word's hits; the other words only narrow them.
    const touched: number[] = [];
    let truncated = false;
    const first = order.shift()!;
    const lone = truncate && !order.length;
    for (let x = 0; x < first.ids.length; x++) {
      const t = first.ids[x]!;
      const top = lone ? this.tops.get(t) : undefined;
      if (top) truncated = true;
      this.scan(this.prepare(t, first.weights[x]!), top, 0, 1, touched);
    }
    let candidates = touched;
    let at = 1;
    for (const word of order) {
      const next = at + 1;
      const prepared = word.ids.map((t, x) => this.prepare(t, word.weights[x]!));
      let perLookup = 0;
      for (const p of prepared) perLookup += Math.log2(p.bounds[F]! - p.bounds[0]! + 2) + (p.extra?.length ?? 0);
      if (candidates.length * perLookup < word.size) {
        // Few candidates: each is looked up in the word's postings.
        this.work += candidates.length * prepared.length;
        for (const d of candidates) {
          for (const p of prepared) {
            const s = this.lookup(p, d);
            if (s) { acc[d] += s; level[d] = next; }
          }
        }
      } else {
        for (const p of prepared) this.scan(p, undefined, at, next);
      }
      candidates = candidates.filter((d) => level[d] === next);
      at = next;
    }
    const best = topK(candidates, acc, limit, want);
    this.work += candidates.length;
    const scores = best.map((d) => acc[d]!);
    for (const d of touched) { acc[d] = 0; level[d] = 0; }
    return { docs: best, scores, truncated };
  }

  /**
   * Adds a word's scores (of its postings in `only` when given, and those {@link update} added) to
   * the entries at level `at` or `next`, which go to `next`. With `touched` (the first word: `at`
   * 0, `next` 1), every live entry takes part and is noted there when first seen.
   */
  private scan(p: Prepared, only: Int32Array | undefined, at: number, next: number, touched?: number[]): void {
    const { weight } = p;
    const { acc, level, alive, fieldLen } = this;
    // BM25+'s length normalisation per field, in the loop as `norm + lenWeight[f] × length`.
    const norm = K1 * (1 - B);
    const lenWeight = new Float64Array(F);
    for (let f = 0; f < F; f++) lenWeight[f] = (K1 * B * this.docCount) / this.totalLen[f]!;
    const parts: [Int32Array, number, number][] = [only ? [only, 0, only.length] : [this.postings, p.bounds[0]!, p.bounds[F]!]];
    if (p.extra) parts.push([Int32Array.from(p.extra), 0, p.extra.length]);
    for (const [list, from, to] of parts) {
      this.work += to - from;
      for (let k = from; k < to; k++) {
        const v = list[k]!;
        const d = (v >>> DOC_SHIFT) & DOC_MASK;
        const l = level[d]!;
        if (touched) {
          if (!alive[d]) continue;
          if (l === 0) { level[d] = 1; touched.push(d); }
        } else {
          if (l !== at && l !== next) continue;
          level[d] = next;
        }
        const f = v >>> FIELD_SHIFT;
        const tf = v & TF_MASK;
        acc[d] += weight[f]! * (D + (tf * (K1 + 1)) / (tf + norm + lenWeight[f]! * fieldLen[d * F + f]!));
      }
    }
  }

  /** A word's score in entry `d`, summed over its fields; 0 when the entry does not have it. */
  private lookup(p: Prepared, d: number): number {
    const { bounds, weight, extra } = p;
    let score = 0;
    for (let f = 0; f < F; f++) {
      const s = bounds[f]!;
      const e = bounds[f + 1]!;
      if (s === e) continue;
      const k = lowerBound(this.postings, s, e, posting(f, d, 0));
      if (k < e && docOf(this.postings[k]!) === d) score += weight[f]! * this.tfPart(f, d, this.postings[k]! & TF_MASK);
    }
    if (extra) {
      for (const v of extra) {
        if (docOf(v) === d) score += weight[v >>> FIELD_SHIFT]! * this.tfPart(v >>> FIELD_SHIFT, d, v & TF_MASK);
      }
    }
    return score;
  }

  /**
   * The filters (`author:`, `venue:`, `year:`) as a test of one entry, or undefined without
   * filters. It runs on candidates only: a name or venue is looked for in the entry's folded string.
   */
  private filterOf(filters: QueryFilters): ((i: number) => boolean) | undefined {
    const { author, venue, yearFrom, yearTo } = filters;
    const years = yearFrom !== undefined || yearTo !== undefined;
    if (!years && !author?.length && !venue?.length) return undefined;
    const from = yearFrom ?? 1;
    const to = yearTo ?? 0xffff;
    // Venues are shared: each is tested once.
    const venues = venue?.length ? Uint8Array.from(this.venueNames, (name) => (venue.some((v) => name.includes(v)) ? 1 : 0)) : undefined;
    return (i) => {
      if (years) {
        const y = this.years[i]!;
        if (!y || y < from || y > to) return false;
      }
      if (author?.length) {
        const s = this.authors.get(i);
        if (!author.some((a) => s.includes(a))) return false;
      }
      if (venues && !venues[this.venueIds[i]!]) return false;
      return true;
    };
  }
}

/**
 * Offers `item` to a heap that keeps the best `limit` items, its root the worst of them (the
 * first to go): `worse(a, b)` says `a` goes before `b`. Used by {@link topK} and {@link keepNewest}.
 */
function offerBounded(heap: number[], item: number, limit: number, worse: (a: number, b: number) => boolean): void {
  let i: number;
  if (heap.length < limit) {
    heap.push(item);
    for (i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
    return;
  }
  if (!worse(heap[0]!, item)) return;
  heap[0] = item;
  for (i = 0; ;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}

/** At most `k` of `docs` that `want` accepts, by score (`acc`) descending, then id. */
function topK(docs: readonly number[], acc: Float64Array, k: number, want: (d: number) => boolean): number[] {
  const better = (a: number, b: number) => acc[a]! > acc[b]! || (acc[a] === acc[b] && a < b);
  const byRank = (a: number, b: number) => (better(a, b) ? -1 : better(b, a) ? 1 : 0);
  if (docs.length <= 4 * k) return docs.filter(want).sort(byRank).slice(0, k);
  const heap: number[] = [];
  for (const d of docs) {
    // The cheap test first: most documents cannot displace the worst of a full heap.
    if (heap.length === k && !better(d, heap[0]!)) continue;
    if (want(d)) offerBounded(heap, d, k, (a, b) => better(b, a));
  }
  return heap.sort(byRank);
}

/**
 * Adds entry `id` (later than all in it) to a prefix's heap of its newest {@link PREFIX_LIST}
 * entries, whose root is the one to go first: the oldest year, and the last in file order among those.
 */
function keepNewest(heap: number[], id: number, years: Uint16Array): void {
  // Worse: an older year, or the same year later in the file.
  offerBounded(heap, id, PREFIX_LIST, (a, b) => years[a]! < years[b]! || (years[a] === years[b] && a > b));
}

/** Whether a UTF-16 code is an ASCII letter or digit (lower case: the strings are folded). */
const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

const EMPTY = new Int32Array(0);
