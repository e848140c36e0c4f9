/**
 * What a corpus entry vouches for: which of its fields were verified, whether it is a version of
 * record, and where its facts come from (corpus/README.md, "Entry fields" and "Records").
 *
 * - An entry with `records` (published records: USENIX's own BibTeX, DBLP) verified the fields
 *   those records hold ({@link RECORD_BACKED}) that it has, minus those named in `unverified`.
 * - Any other entry verified every field it has (each was checked against the URLs in
 *   `verified`) minus those named in `unverified`.
 * Only verified fields are ever compared with a writer's entry.
 */
import type { Entry } from '../corpus/schema.js';
import type { RecordField } from '../bibliography/planRewrite.js';

/** The fields a published record (USENIX's BibTeX, a DBLP record) holds, in our schema's names. */
export const RECORD_BACKED: ReadonlySet<string> = new Set([
  'title', 'authors', 'year', 'venue', 'venue_full', 'booktitle', 'journal', 'volume', 'number', 'pages', 'publisher', 'doi',
]);

/** Whether an entry has a field (a non-empty value; `authors` a non-empty list). */
function has(e: Entry, field: string): boolean {
  const v = (e as unknown as Record<string, unknown>)[field];
  return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== '';
}

/**
 * The record fields an entry verified, among those the checks compare: `title`, `authors`,
 * `year`, `venue` (its `booktitle` or `journal`, and its short `venue`), `pages`.
 *
 * @returns the verified fields; empty for a library entry (no curation, nothing verified)
 */
export function verifiedFields(e: Entry): Set<RecordField> {
  const out = new Set<RecordField>();
  if (e.library) return out;
  const unverified = new Set(e.unverified);
  const records = e.records.length > 0;
  const ok = (field: string) => has(e, field) && !unverified.has(field) && (!records || RECORD_BACKED.has(field));
  if (ok('title')) out.add('title');
  if (ok('authors')) out.add('authors');
  if (ok('year')) out.add('year');
  if (ok('pages')) out.add('pages');
  const container = e.type === 'article' ? 'journal' : 'booktitle';
  if (ok(container) && ok('venue') && !unverified.has('venue_full')) out.add('venue');
  return out;
}

/**
 * Whether an entry is a version of record a preprint can be rewritten to: a paper or survey
 * published in proceedings or a journal (not arXiv, not a web page), whose venue, year, title and
 * authors were verified.
 */
export function isVersionOfRecord(e: Entry): boolean {
  if (e.library || (e.kind !== 'paper' && e.kind !== 'survey')) return false;
  if (e.type !== 'inproceedings' && e.type !== 'article' && e.type !== 'incollection') return false;
  if (!e.venue || /^(?:arxiv|corr)$/i.test(e.venue)) return false;
  const v = verifiedFields(e);
  return v.has('venue') && v.has('year') && v.has('title') && v.has('authors');
}

/**
 * Where an entry's facts come from, as the checks cite it: its first published record
 * (`dblp:conf/sosp/KwonLZ0ZY0ZS23`, `usenix:…`), else its DOI (`doi:10.1145/…`) when verified, else
 * the first URL it was verified against that is not a code host or arXiv (the venue's or
 * publisher's page), else the first.
 */
export function recordSource(e: Entry): string {
  const verified = e.verified ?? [];
  if (e.records?.[0]) return e.records[0];
  if (e.doi && !e.unverified?.includes('doi')) return `doi:${e.doi}`;
  return verified.find((u) => !/^https?:\/\/(?:www\.)?(?:github\.com|gitlab\.com|arxiv\.org)\//i.test(u)) ?? verified[0] ?? e.key;
}
