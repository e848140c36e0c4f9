/**
 * Corpus entries from published records: the fields a record (or a USENIX + DBLP pair) gives, in
 * the corpus schema, with `records`, `verified` and a `note` where the two records disagree.
 * The rules are CORPUS-PLAN.md's and `corpus/README.md`'s ("Records").
 */
import { displayName } from '../../src/core/cite/names.js';
import type { EntryInput, Person } from '../../src/core/corpus/schema.js';
import { authorDifference, foldPages, sameTitle } from './compare.js';
import type { Pair } from './pairs.js';
import type { PubRecord } from './records.js';

/** DBLP's page for a record: `https://dblp.org/rec/<key>`. */
export function dblpPage(id: string): string {
  return `https://dblp.org/rec/${id.replace(/^dblp:/, '')}`;
}

/** The corpus file a venue's field entries go to: `field-osdi.yaml`. */
export function fileOfVenue(venue: string): string {
  return `field-${venue.toLowerCase().replace(/^usenix /, '').replace(/[^a-z0-9]+/g, '-')}.yaml`;
}

/** Words that lead a title without naming a system (`Towards …: …`). */
const NOT_A_NAME = new Set([
  'towards', 'toward', 'rethinking', 'understanding', 'characterizing', 'characterization', 'demystifying', 'revisiting',
  'lessons', 'experience', 'experiences', 'poster', 'demo', 'keynote', 'tutorial', 'panel', 'invited', 'beyond', 'accelerating',
  'optimizing', 'scaling', 'efficient', 'fast', 'practical', 'serverless', 'cloud', 'learning', 'training', 'inference', 'serving',
  'deep', 'machine', 'distributed', 'sparse', 'graph', 'federated', 'network', 'networking', 'memory', 'storage', 'data', 'model',
  'models', 'position', 'vision', 'benchmarking', 'measuring', 'analyzing', 'evaluating', 'automating', 'exploiting', 'enabling',
  'improving', 'reducing', 'harnessing', 'taming', 'mitigating', 'managing', 'case', 'a', 'an', 'the', 'on', 'why', 'how', 'what',
  'when', 'is', 'are', 'do', 'does', 'can', 'no', 'not', 'big', 'small', 'green', 'gpu', 'gpus', 'ai', 'ml', 'dl', 'dnn', 'llm',
  'llms', 'sok', 'survey', 'tutorial', 'workshop', 'extended', 'abstract', 'preface', 'overview', 'introduction', 'reproducibility',
]);

/**
 * The system or method name a title leads with (`Orca: A Distributed Serving System …` → `Orca`):
 * the part before the first colon, at most three words, looking like a name (one capitalised word
 * that is no common lead word, or words of which one has a capital inside or a digit: `PipeDream`,
 * `ZeRO-Infinity`, `Alpa`). Undefined otherwise.
 */
export function aliasOf(title: string): string | undefined {
  const m = /^([^:]{1,40}):\s/.exec(title);
  if (!m) return undefined;
  const name = m[1]!.trim();
  const words = name.split(/\s+/);
  if (words.length > 3 || NOT_A_NAME.has(words[0]!.toLowerCase())) return undefined;
  const inner = (w: string) => /^.+[A-Z0-9]/.test(w) || /\d/.test(w);
  if (words.length === 1) return /^[A-Z0-9µμ]/.test(name) || inner(name) ? name : undefined;
  return words.some(inner) && words.every((w) => /^[A-Z0-9µμ]/.test(w) || inner(w)) ? name : undefined;
}

/** What a reviewer decided about a record: its topics and, when the derived ones are wrong, its aliases. */
export interface Decision {
  id: string;
  topics: string[];
  /** Aliases to use instead of the derived one (empty: none). */
  aliases?: string[];
}

/** Journal names as the corpus writes them (the ISO 4 abbreviations the plan gives). */
const JOURNALS: Record<string, { journal: string; venue_full: string }> = {
  VLDB: { journal: 'Proc. VLDB Endow.', venue_full: 'Proceedings of the VLDB Endowment' },
};

/** An entry without its key (the key comes last: it depends on what else is in the corpus); list fields with defaults may be absent. */
type Defaulted = 'seed_urls' | 'unverified' | 'aliases' | 'records';
export type Draft = Omit<EntryInput, 'key' | Defaulted> & Partial<Pick<EntryInput, Defaulted>> & { authors: Person[]; title: string; year: number };

/** A list of author names for a note. */
const names = (ps: readonly Person[]) => ps.map(displayName).join(', ');

/**
 * The entry for a USENIX paper: USENIX's own record (the publisher's) gives every field; DBLP's,
 * where paired, is the second record. Where the two disagree beyond form, USENIX's is followed and
 * the note says what DBLP has.
 */
export function draftFromUsenix(u: PubRecord, pair: Pair | undefined, d: Decision): Draft {
  const dblp = pair?.dblp;
  const notes: string[] = [];
  if (dblp) {
    const diff: string[] = [];
    if (!sameTitle(u.title, dblp.title)) diff.push(`title (DBLP: "${dblp.title}")`);
    const a = authorDifference(u.authors, dblp.authors);
    if (a && u.authors.length) diff.push(`authors (${a}; DBLP: ${names(dblp.authors)})`);
    if (u.pages && dblp.pages && foldPages(u.pages) !== foldPages(dblp.pages)) diff.push(`pages (DBLP: ${dblp.pages})`);
    if (diff.length) notes.push(`USENIX's own record and DBLP's disagree on ${diff.join('; ')}; USENIX's, the publisher's record, is followed.`);
    if (!u.pages && dblp.pages) notes.push(`USENIX's record has no pages; DBLP's has ${dblp.pages}, left out as unconfirmed.`);
  } else {
    notes.push("Only USENIX's own record was found; no DBLP record in the sources matched it.");
  }
  const authors = u.authors.length ? u.authors : dblp?.authors ?? [];
  if (!u.authors.length && dblp) notes.push("USENIX's record lists no authors; they are DBLP's.");
  return {
    type: 'inproceedings', kind: 'paper', title: u.title, authors, year: u.year, venue: u.venue,
    ...(u.booktitle ? { venue_full: u.booktitle, booktitle: u.booktitle } : {}),
    ...(u.pages ? { pages: u.pages } : {}),
    ...(u.publisher ? { publisher: u.publisher } : {}),
    ...(u.url ? { url: u.url } : {}),
    topics: d.topics, aliases: aliasesOf(u.title, d), sources: ['field'],
    verified: [...(u.url ? [u.url] : []), ...(dblp ? [dblpPage(dblp.id)] : [])],
    records: [u.id, ...(dblp ? [dblp.id] : [])],
    ...(u.pages ? {} : { unverified: ['pages'] }),
    ...(notes.length ? { note: notes.join(' ') } : {}),
  };
}

/** The aliases of an entry: the reviewer's, else the one its title leads with. */
function aliasesOf(title: string, d: Decision): string[] {
  if (d.aliases) return d.aliases;
  const a = aliasOf(title);
  return a ? [a] : [];
}

/**
 * The entry for a paper that one DBLP record holds (ACM venues, VLDB, MLSys): the fields that
 * record holds, `records` that one record and `verified` its DBLP page. A CrossTeX record has no
 * booktitle of its own: the venue's long name and the year stand for it.
 */
export function draftFromDblp(r: PubRecord, d: Decision): Draft {
  const journal = r.type === 'article' ? JOURNALS[r.venue] : undefined;
  const pdf = r.url && /\.pdf$/i.test(r.url) ? r.url : undefined;
  const url = r.doi ? `https://doi.org/${r.doi}` : r.url && !pdf ? r.url : undefined;
  const notes: string[] = [];
  if (r.pagesUnreadable) {
    notes.push(r.articleNo !== undefined
      ? `DBLP numbers this paper as article ${r.articleNo}; the CrossTeX record keeps only the article number, so pages are left out.`
      : "The record's pages could not be read, so they are left out.");
  }
  return {
    type: r.type, kind: 'paper', title: r.title, authors: r.authors, year: r.year, venue: r.venue,
    ...(journal
      ? { venue_full: journal.venue_full, journal: journal.journal, ...(r.volume ? { volume: r.volume } : {}), ...(r.number ? { number: r.number } : {}) }
      : r.booktitle ? { venue_full: r.booktitle, booktitle: r.booktitle } : {}),
    ...(r.pages ? { pages: r.pages } : {}),
    ...(r.publisher ? { publisher: r.publisher } : {}),
    ...(r.doi ? { doi: r.doi } : {}),
    ...(r.arxiv ? { arxiv: r.arxiv } : {}),
    ...(url ? { url } : {}),
    ...(pdf ? { pdf } : {}),
    topics: d.topics, aliases: aliasesOf(r.title, d), sources: ['field'],
    verified: [dblpPage(r.id)],
    records: [r.id],
    ...(r.pagesUnreadable ? { unverified: ['pages'] } : {}),
    ...(notes.length ? { note: notes.join(' ') } : {}),
  };
}
