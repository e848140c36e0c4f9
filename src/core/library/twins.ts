/**
 * One work, one row: a library entry that is a corpus entry's work (same DOI, same arXiv id, or
 * the same normalised title and year) is that entry's twin. The search shows the corpus row for
 * both; citing it cites the user's key unless the user prefers corpus keys.
 */
import { normaliseTitle } from '../bib/bibfile.js';
import type { Corpus } from '../model.js';
import type { Entry } from '../schema.js';

/** What identifies an entry's work: `doi:…`, `arxiv:…`, `title:<normalised>|<year>`. */
export function workIds(e: Entry): string[] {
  const out: string[] = [];
  if (e.doi) out.push(`doi:${e.doi.toLowerCase()}`);
  if (e.arxiv) out.push(`arxiv:${e.arxiv}`);
  const t = normaliseTitle(e.title_en ?? e.title);
  if (t && e.year) out.push(`title:${t}|${e.year}`);
  return out;
}

/** The corpus's works: each of {@link workIds} → the corpus key (the first entry's). */
export function corpusWorks(corpus: Corpus): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of corpus.entries) for (const id of workIds(e)) if (!out.has(id)) out.set(id, e.key);
  return out;
}

/** The corpus key of a library entry's twin, if it has one. */
export function twinKey(e: Entry, works: ReadonlyMap<string, string>): string | undefined {
  if (!works.size) return undefined;
  for (const id of workIds(e)) {
    const key = works.get(id);
    if (key) return key;
  }
  return undefined;
}
