/**
 * Running a query on a library index: the words it matches (exact, prefix, typo), read from the
 * rarest, scored with BM25+ as the corpus search scores them (`core/search/scoring.ts`), the
 * filters tested on the candidates only. The bounds on a keystroke's work are in `search/library/libraryIndex.ts`.
 */
import { foldAscii } from '../../cite/key.js';
import type { Entry } from '../../corpus/schema.js';
import { queryTerm, queryWords } from '../analysis.js';
import type { ParsedQuery, QueryFilters } from '../queryLanguage.js';
import type { SearchHit } from '../hits.js';
import { BM25, FUZZY_RATIO, MAX_FUZZY, fuzzyWeight, prefixWeight } from '../scoring.js';
import { DOC_MASK, DOC_SHIFT, F, FIELD_SHIFT, MAX_EXPANSIONS, TF_MASK, docOf, lowerBound, posting, type IndexData, type Prepared } from './data.js';
import { topK } from './heap.js';

/** A word of a query, and the index's words it matches with their weights. */
interface QueryWord {
  ids: number[];
  weights: number[];
  /** Postings of all its words. */
  size: number;
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
 * Runs a parsed query (see `LibraryIndex.search`).
 *
 * @param query - free text and filters
 * @param limit - hits at most
 * @param skip - entries not to return
 */
export function searchIndex(ix: IndexData, query: ParsedQuery, limit: number, skip?: (e: Entry) => boolean): SearchHit[] {
  const { filters } = query;
  ix.work = 0;
  if (filters.topic?.length || limit <= 0) return [];
  const filter = filterOf(ix, filters);
  const passes = (i: number): boolean => ix.alive[i] === 1 && (!filter || filter(i)) && !skip?.(ix.byId[i]!);
  // The query's words, each split as the index splits text (`kwon2023e` → `kwon2023e`, `kwon`,
  // `2023`, `e`), Chinese and Japanese runs by their character pairs (`queryWords`).
  const terms = (text: string) => queryWords(text).map(foldAscii).filter(Boolean);
  const raw = query.text.trim().split(/\s+/).filter(Boolean);
  const head = terms(raw.slice(0, -1).join(' '));
  const lastWord = foldAscii(raw[raw.length - 1] ?? '');
  if (!head.length && !lastWord) {
    if (!filter) return [];
    // Entries in file order, from those an `author:` or `venue:` string finds (else all), until the limit.
    const out: SearchHit[] = [];
    const each = filters.author?.length ? ix.authors.matches(filters.author) : ix.byId.keys();
    for (const i of each) {
      if (out.length >= limit) break;
      ix.work++;
      if (passes(i)) out.push({ entry: ix.byId[i]!, score: 0 });
    }
    return out;
  }
  // A one- or two-letter last word is the start of a word being typed (even when it is a word itself: `a`, initials).
  const typingShort = lastWord.length < 3 && /^[a-z0-9]+$/.test(lastWord);
  // The word being typed is matched as a prefix by each of its parts of two letters or more.
  // Split as written (not folded first), as the corpus search splits it: `GPUs` → `gpus`, `gp`, `us`.
  const tail = typingShort ? [] : terms(raw[raw.length - 1]!).filter((t, i, all) => all.length === 1 || [...t].length >= 2);
  if (!head.length && !tail.length) {
    // One short word: the table's newest entries with a word that starts with it.
    const out: SearchHit[] = [];
    for (const i of ix.prefixes.get(lastWord) ?? []) {
      if (out.length >= limit) break;
      ix.work++;
      if (passes(i)) out.push({ entry: ix.byId[i]!, score: 1 });
    }
    return out;
  }
  const words: QueryWord[] = [];
  const seen = new Set<string>();
  const add = (word: string, prefix: boolean) => {
    const term = queryTerm(word);
    if (!term || seen.has(`${prefix}:${term}`)) return;
    seen.add(`${prefix}:${term}`);
    words.push(expand(ix, term, prefix && term.length >= 2, !prefix));
  };
  head.forEach((w) => add(w, false));
  tail.forEach((w) => add(w, true));
  // The last word's start, checked on the hits of the words before it.
  const also = typingShort ? (i: number) => ix.starts.get(i).includes(` ${lastWord}`) : undefined;
  const want = (i: number) => passes(i) && (!also || also(i));
  let ranked = rank(ix, words, want, limit, true);
  if (ranked.truncated && ranked.docs.length < limit) ranked = rank(ix, words, want, limit, false);
  const quality = words.length;
  const hits: SearchHit[] = ranked.docs.map((d, k) => ({ entry: ix.byId[d]!, score: ranked.scores[k]! * quality }));
  // The entry whose key is the whole query comes first.
  const id = ix.byKey.get(query.text.trim().toLowerCase());
  if (id !== undefined && passes(id)) {
    const top = hits[0]?.score ?? 1;
    return [{ entry: ix.byId[id]!, score: top * 1.5 }, ...hits.filter((h) => h.entry !== ix.byId[id])].slice(0, limit);
  }
  return hits;
}

function expand(ix: IndexData, term: string, prefix: boolean, fuzzy: boolean): QueryWord {
  const key = `${prefix ? 'p' : fuzzy ? 'f' : 'x'}:${term}`;
  let found = ix.expansions.get(key);
  if (!found) {
    found = { ids: [], weights: [] };
    const exact = ix.termIds.get(term);
    if (exact !== undefined) { found.ids.push(exact); found.weights.push(1); }
    if (prefix) {
      const longer = (ix.buckets.get(term.slice(0, 2)) ?? []).filter((t) => ix.terms[t]!.length > term.length && ix.terms[t]!.startsWith(term));
      if (longer.length > MAX_EXPANSIONS) {
        const size = (t: number) => ix.size(t);
        longer.sort((a, b) => size(b) - size(a) || a - b).length = MAX_EXPANSIONS;
      }
      for (const t of longer) {
        const len = ix.terms[t]!.length;
        found.ids.push(t);
        found.weights.push(prefixWeight(len, term.length));
      }
    } else if (fuzzy && exact === undefined && term.length >= 5 && /^[a-z]+$/.test(term)) {
      const max = Math.min(MAX_FUZZY, Math.round(term.length * FUZZY_RATIO));
      for (const [k, bucket] of ix.buckets) {
        // Edits after the second letter keep both first letters; one within them keeps one of them, at its place or one over.
        if (!(k[0] === term[0] || k[1] === term[1] || k[0] === term[1] || k[1] === term[0])) continue;
        for (const t of bucket) {
          const w = ix.terms[t]!;
          if (w === term || Math.abs(w.length - term.length) > max) continue;
          const d = distanceWithin(term, w, max, ix.row.length > w.length ? ix.row : new Int32Array(w.length + 1));
          if (d > max) continue;
          found.ids.push(t);
          found.weights.push(fuzzyWeight(w.length, d));
        }
      }
    }
    if (ix.expansions.size >= 64) ix.expansions.delete(ix.expansions.keys().next().value!);
    ix.expansions.set(key, found);
  }
  let size = 0;
  for (const t of found.ids) size += ix.size(t);
  return { ids: found.ids, weights: found.weights, size };
}

/**
 * The entries that match every word, best first, at most `limit` of those `want` accepts.
 *
 * @param truncate - a one-word query reads its words' top lists (see `search/library/libraryIndex.ts`)
 * @returns the entries and their summed scores; `truncated` when a top list stood for a longer list
 */
function rank(ix: IndexData, words: QueryWord[], want: (i: number) => boolean, limit: number, truncate: boolean): { docs: number[]; scores: number[]; truncated: boolean } {
  const cap = ix.byId.length;
  if (ix.acc.length < cap) { ix.acc = new Float64Array(cap); ix.level = new Uint16Array(cap); }
  const acc = ix.acc;
  const level = ix.level;
  const lenWeight = ix.lengthWeights();
  const order = [...words].sort((a, b) => a.size - b.size);
  // Every entry a search touches: the rarest word's hits; the other words only narrow them.
  const touched: number[] = [];
  let truncated = false;
  const first = order.shift()!;
  const lone = truncate && !order.length;
  for (let x = 0; x < first.ids.length; x++) {
    const t = first.ids[x]!;
    const top = lone ? ix.tops.get(t) : undefined;
    if (top) truncated = true;
    scan(ix, ix.prepare(t, first.weights[x]!), lenWeight, top, 0, 1, touched);
  }
  let candidates = touched;
  let at = 1;
  for (const word of order) {
    const next = at + 1;
    const prepared = word.ids.map((t, x) => ix.prepare(t, word.weights[x]!));
    let perLookup = 0;
    for (const p of prepared) perLookup += Math.log2(p.bounds[F]! - p.bounds[0]! + 2) + (p.extra?.length ?? 0);
    if (candidates.length * perLookup < word.size) {
      // Few candidates: each is looked up in the word's postings.
      ix.work += candidates.length * prepared.length;
      for (const d of candidates) {
        for (const p of prepared) {
          const s = lookup(ix, p, d, lenWeight);
          if (s) { acc[d] += s; level[d] = next; }
        }
      }
    } else {
      for (const p of prepared) scan(ix, p, lenWeight, undefined, at, next);
    }
    candidates = candidates.filter((d) => level[d] === next);
    at = next;
  }
  const best = topK(candidates, acc, limit, want);
  ix.work += candidates.length;
  const scores = best.map((d) => acc[d]!);
  for (const d of touched) { acc[d] = 0; level[d] = 0; }
  return { docs: best, scores, truncated };
}

/**
 * Adds a word's scores (of its postings in `only` when given, and those `update` added) to
 * the entries at level `at` or `next`, which go to `next`. With `touched` (the first word: `at`
 * 0, `next` 1), every live entry takes part and is noted there when first seen.
 */
function scan(ix: IndexData, p: Prepared, lenWeight: Float64Array, only: Int32Array | undefined, at: number, next: number, touched?: number[]): void {
  const { weight } = p;
  const { acc, level, alive, fieldLen } = ix;
  // BM25+'s term part (`IndexData.tfPart`, `termPart` in `search/scoring.ts`) inlined: this loop is a keystroke's work.
  const { k: k1, d: floor } = BM25;
  const norm = k1 * (1 - BM25.b);
  const parts: [Int32Array, number, number][] = [only ? [only, 0, only.length] : [ix.postings, p.bounds[0]!, p.bounds[F]!]];
  if (p.extra) parts.push([Int32Array.from(p.extra), 0, p.extra.length]);
  for (const [list, from, to] of parts) {
    ix.work += to - from;
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
      acc[d] += weight[f]! * (floor + (tf * (k1 + 1)) / (tf + norm + lenWeight[f]! * fieldLen[d * F + f]!));
    }
  }
}

/** A word's score in entry `d`, summed over its fields; 0 when the entry does not have it. */
function lookup(ix: IndexData, p: Prepared, d: number, lenWeight: Float64Array): number {
  const { bounds, weight, extra } = p;
  let score = 0;
  for (let f = 0; f < F; f++) {
    const s = bounds[f]!;
    const e = bounds[f + 1]!;
    if (s === e) continue;
    const k = lowerBound(ix.postings, s, e, posting(f, d, 0));
    if (k < e && docOf(ix.postings[k]!) === d) score += weight[f]! * ix.tfPart(f, d, ix.postings[k]! & TF_MASK, lenWeight[f]!);
  }
  if (extra) {
    for (const v of extra) {
      if (docOf(v) === d) score += weight[v >>> FIELD_SHIFT]! * ix.tfPart(v >>> FIELD_SHIFT, d, v & TF_MASK, lenWeight[v >>> FIELD_SHIFT]!);
    }
  }
  return score;
}

/**
 * The filters (`author:`, `venue:`, `year:`) as a test of one entry, or undefined without
 * filters. It runs on candidates only: a name or venue is looked for in the entry's folded string.
 */
function filterOf(ix: IndexData, filters: QueryFilters): ((i: number) => boolean) | undefined {
  const { author, venue, yearFrom, yearTo } = filters;
  const years = yearFrom !== undefined || yearTo !== undefined;
  if (!years && !author?.length && !venue?.length) return undefined;
  const from = yearFrom ?? 1;
  const to = yearTo ?? 0xffff;
  // Venues are shared: each is tested once.
  const venues = venue?.length ? Uint8Array.from(ix.venueNames, (name) => (venue.some((v) => name.includes(v)) ? 1 : 0)) : undefined;
  return (i) => {
    if (years) {
      const y = ix.years[i]!;
      if (!y || y < from || y > to) return false;
    }
    if (author?.length) {
      const s = ix.authors.get(i);
      if (!author.some((a) => s.includes(a))) return false;
    }
    if (venues && !venues[ix.venueIds[i]!]) return false;
    return true;
  };
}
