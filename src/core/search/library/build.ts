/**
 * Building a library index: entries to postings (sliced, so that a 100,000-entry library does not
 * stall the server), their layout word by word, the top lists and the prefix table; and updates.
 */
import { foldAscii } from '../../cite/key.js';
import { displayName } from '../../cite/names.js';
import type { Entry } from '../../corpus/schema.js';
import { indexTerms, tokenize } from '../analysis.js';
import { Blocks, F, FIELD_SHIFT, FIELDS, MAX_DOCS, PREFIX_LIST, TF_MASK, TOP_LIST, docOf, fieldOf, posting, type IndexData } from './data.js';
import { offerBounded } from './heap.js';

/** What the builder collects before the postings are laid out. */
interface Building {
  /** Per posting: its word, and the posting. */
  termOf: Blocks;
  values: Blocks;
  /** Per one- or two-letter prefix: the newest {@link PREFIX_LIST} entries so far, a heap whose root is the oldest. */
  prefixLists: Map<string, number[]>;
}

const EMPTY = new Int32Array(0);

/** Whether a UTF-16 code is an ASCII letter or digit (lower case: the strings are folded). */
const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

const noNul = (s: string) => (s.includes('\0') ? s.replace(/\0/g, ' ') : s);

/**
 * Builds `index` (empty, over its entries) in slices: call `step` until it returns the index;
 * `deadline()` is asked every 16 entries, and every 65,536 postings while they are laid out.
 */
export function buildSteps<T extends IndexData>(index: T): { step(deadline: () => boolean): T | undefined; readonly done: number } {
  const b: Building = { termOf: new Blocks(), values: new Blocks(), prefixLists: new Map() };
  const emit = (t: number, v: number) => { b.termOf.push(t); b.values.push(v); };
  const onPrefix = (p: string, id: number) => {
    const heap = b.prefixLists.get(p);
    if (heap) keepNewest(heap, id, index.years);
    else b.prefixLists.set(p, [id]);
  };
  let i = 0;
  const phases = layout(index, b);
  let result: T | undefined;
  return {
    get done() { return i; },
    step(deadline) {
      if (result) return result;
      const n = index.byId.length;
      while (i < n) {
        addDoc(index, i, index.byId[i]!, emit, onPrefix);
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

/** Indexes entry `id`: its postings go to `emit`, its one- and two-letter prefixes to `onPrefix`; its lengths and folded strings are kept. */
function addDoc(ix: IndexData, id: number, e: Entry, emit: (term: number, value: number) => void, onPrefix: (p: string, id: number) => void): void {
  ix.addEntry(id, e);
  const counts = ix.counts;
  const seen = ix.seen;
  // The folded words of title, key and authors: their starts are kept (see `starts`).
  const words: string[] = [];
  for (let f = 0; f < F; f++) {
    const tokens = tokenize(fieldOf(e, FIELDS[f]!));
    // A field's length is its distinct words as written (MiniSearch's); its words' counts are of their folded forms and stems.
    seen.clear();
    for (const token of tokens) seen.add(token);
    ix.fieldLen[id * F + f] = Math.min(seen.size, 0xffff);
    ix.totalLen[f] += seen.size;
    counts.clear();
    for (const token of tokens) {
      const terms = indexTerms(token);
      if (f < 2) words.push(terms[0]!);
      for (const term of terms) {
        const t = ix.termId(term);
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
    }
    for (const [t, tf] of counts) emit(t, posting(f, id, tf));
  }
  const authors = noNul(foldAscii(e.authors.map(displayName).join('; ')));
  ix.authors.push(authors);
  for (const w of authors.split(/[^a-z0-9]+/)) if (w) words.push(w);
  const venue = noNul(foldAscii(e.venue ?? ''));
  let v = ix.venueIdOf.get(venue);
  if (v === undefined) {
    v = ix.venueNames.length;
    ix.venueIdOf.set(venue, v);
    ix.venueNames.push(venue);
  }
  ix.venueIds[id] = v;
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
  ix.starts.push(starts);
}

/**
 * Lays out what the builder collected, in phases that stop when `deadline()` says so (the
 * generator yields true then, and takes the next deadline): postings word by word, the top
 * lists, the prefix table.
 */
function* layout(ix: IndexData, b: Building): Generator<boolean, void, () => boolean> {
  let deadline: () => boolean = yield false;
  const pause = function* (): Generator<boolean, void, () => boolean> { deadline = yield true; };
  const T = ix.terms.length;
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
  ix.termStart = termStart;
  ix.postings = postings;
  ix.starts.flush();
  ix.authors.flush();
  if (deadline()) yield* pause();
  let work = 0;
  const scratch = { scores: new Float64Array(0) };
  for (let t = 0; t < T; t++) {
    const size = termStart[t + 1]! - termStart[t]!;
    if (size <= TOP_LIST) continue;
    ix.tops.set(t, topList(ix, t, scratch));
    work += size;
    if (work > 0x10000) { work = 0; if (deadline()) yield* pause(); }
  }
  const years = ix.years;
  for (const [p, heap] of b.prefixLists) {
    // Newest first; file order among equals.
    ix.prefixes.set(p, Int32Array.from(heap.sort((x, y) => years[y]! - years[x]! || x - y)));
    work += heap.length * 8;
    if (work > 0x10000) { work = 0; if (deadline()) yield* pause(); }
  }
  b.prefixLists.clear();
}

/** Word `t`'s postings where it scores highest, at most {@link TOP_LIST}; `scratch` is reused between words. */
function topList(ix: IndexData, t: number, scratch: { scores: Float64Array }): Int32Array {
  const { bounds, weight } = ix.prepare(t, 1);
  const lenWeight = ix.lengthWeights();
  const from = bounds[0]!;
  if (scratch.scores.length < bounds[F]! - from) scratch.scores = new Float64Array(bounds[F]! - from);
  const scores = scratch.scores;
  const postings = ix.postings;
  // Heap items are positions in `postings`. Worse: a lower score, or the same score and a later posting.
  const worse = (i: number, j: number) => scores[i - from]! < scores[j - from]! || (scores[i - from] === scores[j - from] && postings[i]! > postings[j]!);
  const heap: number[] = [];
  for (let f = 0; f < F; f++) {
    const c = weight[f]!;
    for (let k = bounds[f]!; k < bounds[f + 1]!; k++) {
      const v = postings[k]!;
      const score = c * ix.tfPart(f, docOf(v), v & TF_MASK, lenWeight[f]!);
      scores[k - from] = score;
      // The cheap test first: postings come in ascending order, so a tie never displaces the root.
      if (heap.length === TOP_LIST && score <= scores[heap[0]! - from]!) continue;
      offerBounded(heap, k, TOP_LIST, worse);
    }
  }
  return Int32Array.from(heap, (k) => postings[k]!);
}

/**
 * Adds entry `id` (later than all in it) to a prefix's heap of its newest {@link PREFIX_LIST}
 * entries, whose root is the one to go first: the oldest year, and the last in file order among those.
 */
function keepNewest(heap: number[], id: number, years: Uint16Array): void {
  offerBounded(heap, id, PREFIX_LIST, (a, b) => years[a]! < years[b]! || (years[a] === years[b] && a > b));
}

/** A typed array at least `n` long, keeping its contents. */
function grown<T extends Uint8Array | Uint16Array | Int32Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const bigger = new (a.constructor as new (n: number) => T)(Math.max(n, Math.ceil(a.length * 1.5), 64));
  bigger.set(a);
  return bigger;
}

/**
 * Takes entries out and puts others in, without rebuilding: cost proportional to the entries
 * changed (see `LibraryIndex.update`).
 *
 * @throws Error when edits have used up the 2^25 entry ids
 */
export function updateIndex(ix: IndexData, removed: readonly Entry[], added: readonly Entry[]): void {
  if (!ix.idOf) {
    ix.idOf = new Map();
    ix.byId.forEach((e, i) => { if (e) ix.idOf!.set(e, i); });
  }
  const idOf = ix.idOf;
  ix.updated = true;
  ix.expansions.clear();
  for (const e of removed) {
    const id = idOf.get(e);
    if (id === undefined) continue;
    ix.alive[id] = 0;
    ix.docCount--;
    for (let f = 0; f < F; f++) ix.totalLen[f] -= ix.fieldLen[id * F + f]!;
    ix.byId[id] = undefined;
    idOf.delete(e);
    if (ix.byKey.get(e.key.toLowerCase()) === id) ix.byKey.delete(e.key.toLowerCase());
  }
  for (const e of added) {
    const id = ix.byId.length;
    if (id >= MAX_DOCS) throw new Error(`LibraryIndex: edits have used up the ${MAX_DOCS} entry ids; load the library again`);
    ix.byId.push(e);
    ix.alive = grown(ix.alive, id + 1);
    ix.years = grown(ix.years, id + 1);
    ix.fieldLen = grown(ix.fieldLen, (id + 1) * F);
    ix.venueIds = grown(ix.venueIds, id + 1);
    idOf.set(e, id);
    addDoc(ix, id, e, (t, v) => {
      let list = ix.extra.get(t);
      if (!list) ix.extra.set(t, list = []);
      list.push(v);
    }, (p) => {
      // A new entry leads its prefixes' lists (it is what the user just wrote).
      const list = ix.prefixes.get(p) ?? new Int32Array(0);
      const next = new Int32Array(Math.min(list.length + 1, PREFIX_LIST));
      next[0] = id;
      next.set(list.subarray(0, next.length - 1), 1);
      ix.prefixes.set(p, next);
    });
  }
}
