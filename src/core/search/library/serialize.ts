/**
 * The library index as JSON for the cache, written and restored in pieces of a few milliseconds'
 * work each; a restored index is checked id by id and bound by bound, as a search reads it unchecked.
 */
import type { Entry } from '../../corpus/schema.js';
import { fromDeltaBase64, toDeltaBase64 } from '../../text/base64.js';
import { F, FIELD_SHIFT, LIBRARY_INDEX_VERSION, TF_MASK, docOf, type IndexData } from './data.js';
import { CHUNK, Haystack } from './haystack.js';

/**
 * The serialised form of a {@link LibraryIndex}, for the cache. Typed arrays are base64 of their
 * numbers' differences (`toDeltaBase64`, `text/base64.ts`: most lists are sorted, and a number takes
 * one or two bytes) and long lists come in parts of a few milliseconds' work each, so that writing the
 * cache can be sliced ({@link jsonPieces}).
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

/**
 * A typed array as a JSON list of base64 parts, in pieces: each part {@link NUMBERS_PER_PART}
 * numbers as differences (`toDeltaBase64`), the first from the last number of the part before.
 */
function* base64Parts(a: Int32Array | Uint16Array): Generator<string, void, undefined> {
  yield '[';
  for (let i = 0; i < Math.max(a.length, 1); i += NUMBERS_PER_PART) {
    // base64 needs no escaping in JSON.
    yield `${i ? ',' : ''}"${toDeltaBase64(a.subarray(i, i + NUMBERS_PER_PART), i ? a[i - 1] : 0)}"`;
  }
  yield ']';
}

/**
 * Parts written by {@link base64Parts}, as one array; a pause after each part (see `LibraryIndex.restoring`).
 *
 * @throws Error for a part that is not such base64 (`fromDeltaBase64`), or a value outside [`min`, `max`]
 */
function* numberParts(parts: readonly string[], min = -(2 ** 31), max = 2 ** 31 - 1): Generator<void, Int32Array<ArrayBuffer>, undefined> {
  if (!Array.isArray(parts)) throw new Error('LibraryIndex: a list of parts expected');
  const decoded: Int32Array<ArrayBuffer>[] = [];
  let before = 0;
  for (const part of parts) {
    const d = fromDeltaBase64(part, before);
    if (d.length) before = d[d.length - 1]!;
    decoded.push(d);
    yield;
  }
  let out = decoded[0] ?? new Int32Array(0);
  if (decoded.length > 1) {
    out = new Int32Array(decoded.reduce((n, d) => n + d.length, 0));
    let at = 0;
    for (const d of decoded) { out.set(d, at); at += d.length; }
  }
  for (let i = 0; i < out.length; i++) if (out[i]! < min || out[i]! > max) throw new Error('LibraryIndex: a number out of range');
  return out;
}
const int32Parts = (parts: readonly string[]) => numberParts(parts);
/** Parts of a `Uint16Array`'s numbers: each in [0, 65535]. */
const uint16Parts = (parts: readonly string[]) => numberParts(parts, 0, 0xffff);

/** Whether list bounds run from 0, never down, to `end` (a restored index's `termStart` and the like). */
function runsUpTo(start: Int32Array, end: number): boolean {
  if (start[0] !== 0) return false;
  for (let i = 1; i < start.length; i++) if (start[i]! < start[i - 1]!) return false;
  return start[start.length - 1] === end;
}

/** Whether a restored posting names a field, one of `docs` entries, and a count. */
const isPostingOf = (p: number, docs: number) => p >= 0 && p >>> FIELD_SHIFT < F && docOf(p) < docs && (p & TF_MASK) > 0;

/**
 * Restores into `index` (empty, over the entries it was saved for) an index saved by
 * {@link jsonPieces}, pausing after each piece of work; see `LibraryIndex.restoring`.
 *
 * @returns `index`, or undefined when the JSON is of another version, or damaged
 */
export function* restoreInto<T extends IndexData>(index: T, json: LibraryIndexJson): Generator<void, T | undefined, undefined> {
  const entries = index.byId as readonly Entry[];
  if (json?.version !== LIBRARY_INDEX_VERSION || json.docs !== entries.length) return undefined;
  try {
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
 * The index as JSON text, in pieces (see `LibraryIndex.jsonPieces`).
 *
 * @throws Error (when the generator runs) for an index that `update` changed: its ids are no longer the entries' positions
 */
export function* jsonPieces(ix: IndexData): Generator<string, void, undefined> {
  if (ix.updated) throw new Error('LibraryIndex: the index was updated since it was built; build it again to save it');
  const n = ix.byId.length;
  yield `{"version":${LIBRARY_INDEX_VERSION},"docs":${n},"terms":[`;
  for (let i = 0; i < Math.max(ix.terms.length, 1); i += TERMS_PER_PART) {
    yield (i ? ',' : '') + JSON.stringify(ix.terms.slice(i, i + TERMS_PER_PART).join('\n'));
  }
  yield '],"termStart":';
  yield* base64Parts(ix.termStart);
  yield ',"postings":';
  yield* base64Parts(ix.postings);
  yield ',"fieldLen":';
  yield* base64Parts(ix.fieldLen.subarray(0, n * F));
  const topTerms = [...ix.tops.keys()];
  const topStart = new Int32Array(topTerms.length + 1);
  topTerms.forEach((t, i) => { topStart[i + 1] = topStart[i]! + ix.tops.get(t)!.length; });
  const topPostings = new Int32Array(topStart[topTerms.length]!);
  topTerms.forEach((t, i) => topPostings.set(ix.tops.get(t)!, topStart[i]));
  yield ',"tops":{"terms":';
  yield* base64Parts(Int32Array.from(topTerms));
  yield ',"start":';
  yield* base64Parts(topStart);
  yield ',"postings":';
  yield* base64Parts(topPostings);
  const keys = [...ix.prefixes.keys()];
  const pStart = new Int32Array(keys.length + 1);
  keys.forEach((k, i) => { pStart[i + 1] = pStart[i]! + ix.prefixes.get(k)!.length; });
  const pIds = new Int32Array(pStart[keys.length]!);
  keys.forEach((k, i) => pIds.set(ix.prefixes.get(k)!, pStart[i]));
  yield `},"prefixes":{"keys":${JSON.stringify(keys)},"start":`;
  yield* base64Parts(pStart);
  yield ',"ids":';
  yield* base64Parts(pIds);
  for (const [name, hay] of [['starts', ix.starts], ['authors', ix.authors]] as const) {
    yield `},"${name}":[`.slice(name === 'starts' ? 0 : 1);
    yield* hay.parts().map((part, i) => (i ? ',' : '') + JSON.stringify(part));
    yield ']';
  }
  yield `,"venues":${JSON.stringify(ix.venueNames)},"venueIds":`;
  yield* base64Parts(ix.venueIds.subarray(0, n));
  yield '}';
}
