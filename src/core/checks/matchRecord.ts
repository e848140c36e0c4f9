/**
 * Finding the corpus entry that is the same work as an entry of the writer's bibliography, without
 * false alarms. Stricter than the citing rule of `corpus/sameWork.ts` (which decides what a
 * citation reuses, where a miss costs a duplicate entry), because a match here raises a
 * diagnostic. A writer's entry is the corpus entry's work when it has:
 * 1. the same DOI (not arXiv's), or
 * 2. the same arXiv id, and no different DOI (a journal extension may share the arXiv id), or
 * 3. the same title up to form (`sameForm.ts`), a year at most one apart (a preprint of 2022 and
 *    its proceedings of 2023), and the same first author's family name; and no different DOI
 *    nor arXiv id. Among several such entries, the nearest year wins; a tie matches none.
 * A title that differs by a word, a different first author, or a year two apart is another work.
 */
import type { Entry } from '../corpus/schema.js';
import { arxivId } from '../corpus/identifiers.js';
import { foldText, personFamily } from './sameForm.js';
import type { WriterEntry } from './writerEntry.js';

/** How a writer's entry was matched to a corpus entry, strongest first. */
export type MatchedBy = 'doi' | 'arxiv' | 'title';

/** A corpus entry that is the same work as a writer's entry. */
export interface RecordMatch {
  entry: Entry;
  by: MatchedBy;
}

/** Appends to a list kept in a map. */
function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/**
 * The corpus entries indexed by DOI, arXiv id and folded title, to match a writer's entry in
 * constant time. Build it once per corpus (`RecordMatcher.of` keeps one per entry list).
 */
export class RecordMatcher {
  private readonly byDoi = new Map<string, Entry[]>();
  private readonly byArxiv = new Map<string, Entry[]>();
  private readonly byTitle = new Map<string, Entry[]>();
  private static readonly built = new WeakMap<readonly Entry[], RecordMatcher>();

  /** The matcher of an entry list, built on first use and kept while the list lives. */
  static of(entries: readonly Entry[]): RecordMatcher {
    let m = RecordMatcher.built.get(entries);
    if (!m) RecordMatcher.built.set(entries, (m = new RecordMatcher(entries)));
    return m;
  }

  /** @param entries - corpus entries (library entries are left out: they verify nothing) */
  constructor(entries: readonly Entry[]) {
    for (const e of entries) {
      if (e.library) continue;
      if (e.doi) push(this.byDoi, e.doi.toLowerCase(), e);
      const a = arxivId(e.arxiv);
      if (a) push(this.byArxiv, a, e);
      for (const t of new Set([e.title, e.title_en].filter((x): x is string => !!x).map(foldText))) if (t) push(this.byTitle, t, e);
    }
  }

  /**
   * The corpus entry that is the same work as a writer's entry (see the module comment).
   *
   * @returns the entry and how it was matched, or undefined
   */
  match(w: WriterEntry): RecordMatch | undefined {
    if (w.doi) {
      const hit = this.byDoi.get(w.doi);
      if (hit?.length === 1) return { entry: hit[0]!, by: 'doi' };
      if (hit) return undefined;
    }
    if (w.arxiv) {
      const hit = this.byArxiv.get(w.arxiv)?.filter((e) => !(w.doi && e.doi && e.doi.toLowerCase() !== w.doi));
      if (hit?.length === 1) return { entry: hit[0]!, by: 'arxiv' };
      if (hit?.length) return undefined;
    }
    if (!w.title || w.year === undefined || !w.authors.length) return undefined;
    const first = personFamily(w.authors[0]!);
    if (!first) return undefined;
    const candidates = (this.byTitle.get(foldText(w.title)) ?? []).filter((e) =>
      e.year !== undefined && Math.abs(e.year - w.year!) <= 1
      && e.authors.length > 0 && personFamily(e.authors[0]!) === first
      && !(w.doi && e.doi && e.doi.toLowerCase() !== w.doi)
      && !(w.arxiv && e.arxiv && arxivId(e.arxiv) !== w.arxiv));
    if (!candidates.length) return undefined;
    const distance = (e: Entry) => Math.abs(e.year! - w.year!);
    const best = Math.min(...candidates.map(distance));
    const nearest = candidates.filter((e) => distance(e) === best);
    return nearest.length === 1 ? { entry: nearest[0]!, by: 'title' } : undefined;
  }
}
