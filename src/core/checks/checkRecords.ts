/**
 * The record checks of a writer's bibliography (a `.bib`, CSL-JSON or CSL-YAML file, a document's
 * or a library): entries cited as an arXiv preprint whose version of record the corpus has, and
 * entries whose fields disagree with the corpus's verified record. Findings are plain data with
 * reason codes; `findingText.ts` words them (l10n), the service turns them into diagnostics and
 * quick fixes, the CLI into lines or JSON. A finding is a promise that something is wrong, so:
 * - only entries that are the corpus entry's work (`matchRecord.ts`) are looked at;
 * - a preprint is flagged only when the corpus entry is a version of record (`recordFields.ts`):
 *   an arXiv-only work is not;
 * - fields are compared only when the writer's entry is the same publication as the record: the
 *   same DOI, or a container that names the record's venue (`sameForm.ts`) and a year at most
 *   one apart. A journal extension, a workshop version or another venue's paper is another
 *   publication, and nothing is said about it. The venue itself is compared only on a DOI match;
 * - only fields the corpus verified are compared, and only up to form.
 */
import type { BibEntry } from '../bibliography/bibtexFile.js';
import type { BibFile } from '../bibliography/bibFile.js';
import type { EntryChange, RecordField } from '../bibliography/planRewrite.js';
import { displayName } from '../cite/names.js';
import type { Entry, Person } from '../corpus/schema.js';
import type { MatchedBy, RecordMatcher } from './matchRecord.js';
import { isVersionOfRecord, recordSource, verifiedFields } from './recordFields.js';
import { personFamily, samePages, samePerson, sameTitle, sameVenue } from './sameForm.js';
import { writerEntry, type WriterEntry } from './writerEntry.js';

/** Why a field disagrees: its value differs, or (authors) names are missing, extra, truncated to "others" or misspelled. */
export type MismatchReason = 'differs' | 'authors-truncated' | 'authors-missing' | 'authors-extra' | 'authors-misspelled';

/** One field of a writer's entry that disagrees with the verified record. */
export interface FieldMismatch {
  field: RecordField;
  reason: MismatchReason;
  /** The writer's value, as plain text (for authors: the names that differ, or the list). */
  found: string;
  /** The verified value, as plain text. */
  expected: string;
}

interface FindingBase {
  /** The writer's citation key. */
  key: string;
  /** The entry in the file (its offsets and line). */
  entry: BibEntry;
  /** The corpus entry, its version of record or verified record. */
  record: Entry;
  by: MatchedBy;
  /** Where the record's facts come from (`recordSource`). */
  source: string;
}

/** A preprint whose version of record the corpus has. */
export interface VersionOfRecordFinding extends FindingBase {
  kind: 'version-of-record';
  /** The writer's arXiv id, when the entry gives one. */
  arxiv?: string;
}

/** An entry whose fields disagree with the verified record. */
export interface MismatchFinding extends FindingBase {
  kind: 'mismatch';
  fields: FieldMismatch[];
}

export type RecordFinding = VersionOfRecordFinding | MismatchFinding;

/**
 * Checks every entry of a bibliography file against the corpus.
 *
 * @param file - the file as read (`readBibFile`); entries that did not read are not checked
 * @param matcher - the corpus's matcher (`RecordMatcher.of(corpus.entries)`)
 * @returns at most one finding per entry, in file order
 */
export function checkBibFile(file: Pick<BibFile, 'entries'>, matcher: RecordMatcher): RecordFinding[] {
  const out: RecordFinding[] = [];
  for (const e of file.entries) {
    const f = checkEntry(e, matcher);
    if (f) out.push(f);
  }
  return out;
}

/** The finding for one entry, if any (see the module comment). */
export function checkEntry(e: BibEntry, matcher: RecordMatcher): RecordFinding | undefined {
  const w = writerEntry(e);
  const m = matcher.match(w);
  if (!m || !isVersionOfRecord(m.entry)) return undefined;
  const base = { key: e.key, entry: e, record: m.entry, by: m.by, source: recordSource(m.entry) };
  if (w.preprint) return { kind: 'version-of-record', ...base, ...(w.arxiv ? { arxiv: w.arxiv } : {}) };
  const record = m.entry;
  // A workshop version of a conference paper is another publication (a workshop paper in the corpus is compared as any other).
  if (w.workshop && !/\bworkshops?\b/i.test(`${record.booktitle ?? ''} ${record.venue_full ?? ''}`)) return undefined;
  const samePublication = m.by === 'doi'
    || (w.container !== undefined && sameVenue(w.container, record) && (w.year === undefined || Math.abs(w.year - record.year!) <= 1));
  if (!samePublication) return undefined;
  const fields = compareFields(w, record, m.by === 'doi');
  return fields.length ? { kind: 'mismatch', ...base, fields } : undefined;
}

/** The record's venue as written in a bibliography: its journal or proceedings title. */
export function recordContainer(e: Entry): string | undefined {
  return e.type === 'article' ? e.journal : e.booktitle ?? e.venue_full ?? e.venue;
}

/** `611–626` */
const pagesText = (p: string) => p.replace(/--?/g, '–');

/**
 * The verified fields of the record that the writer's entry gives otherwise (up to form).
 *
 * @param venueToo - compare the venue (only when the entry is the record's publication by DOI)
 */
export function compareFields(w: WriterEntry, record: Entry, venueToo: boolean): FieldMismatch[] {
  const verified = verifiedFields(record);
  const out: FieldMismatch[] = [];
  if (verified.has('title') && w.title && !sameTitle(w.title, record.title) && !(record.title_en && sameTitle(w.title, record.title_en))) {
    out.push({ field: 'title', reason: 'differs', found: w.title, expected: record.title });
  }
  if (verified.has('authors') && w.hasAuthors) {
    const a = compareAuthors(w, record.authors);
    if (a) out.push(a);
  }
  if (verified.has('year') && w.year !== undefined && w.year !== record.year) {
    out.push({ field: 'year', reason: 'differs', found: String(w.year), expected: String(record.year) });
  }
  const container = recordContainer(record);
  if (venueToo && verified.has('venue') && w.container && container && !sameVenue(w.container, record)) {
    out.push({ field: 'venue', reason: 'differs', found: w.container, expected: container });
  }
  if (verified.has('pages') && w.pages && record.pages && !samePages(w.pages, record.pages)) {
    out.push({ field: 'pages', reason: 'differs', found: pagesText(w.pages), expected: pagesText(record.pages) });
  }
  return out;
}

const names = (ps: readonly Person[]) => ps.map(displayName).join('; ');

/**
 * How the writer's names disagree with the record's: truncated to "others" where the record has
 * them all, names missing or extra, or (as many names) names that are not the same person's up
 * to form (`samePerson`: family name, and the given names' first letter).
 */
function compareAuthors(w: WriterEntry, record: readonly Person[]): FieldMismatch | undefined {
  const mine = w.authors;
  const all = names(record);
  if (w.others) {
    // "and others" after a prefix of the record's list is a truncation; after all of them, a harmless "et al.".
    if (mine.length >= record.length) return undefined;
    if (mine.every((p, i) => samePerson(p, record[i]!))) {
      return { field: 'authors', reason: 'authors-truncated', found: `${names(mine)}; others`, expected: all };
    }
  }
  if (mine.length === record.length) {
    const wrong = mine.map((p, i) => [p, record[i]!] as const).filter(([p, r]) => !samePerson(p, r));
    if (!wrong.length) return undefined;
    return { field: 'authors', reason: 'authors-misspelled', found: names(wrong.map(([p]) => p)), expected: names(wrong.map(([, r]) => r)) };
  }
  // Lists of other lengths: the names one has that the other lacks (by family name).
  const have = new Set(mine.map(personFamily));
  const want = new Set(record.map(personFamily));
  const missing = w.others ? [] : record.filter((r) => !have.has(personFamily(r)));
  const extra = mine.filter((p) => !want.has(personFamily(p)));
  if (extra.length && missing.length) return { field: 'authors', reason: 'authors-misspelled', found: names(extra), expected: names(missing) };
  if (missing.length) return { field: 'authors', reason: 'authors-missing', found: names(mine), expected: names(missing) };
  if (extra.length) return { field: 'authors', reason: 'authors-extra', found: names(extra), expected: all };
  // The same family names, another number of them (a name twice): said as the lists.
  return { field: 'authors', reason: 'authors-misspelled', found: names(mine), expected: all };
}

/**
 * The change that fixes a finding (`bibliography/planRewrite.ts` plans it): a preprint becomes its
 * version of record; fields that disagree take the record's values (all of them, or `field` alone).
 */
export function fixOf(f: RecordFinding, field?: RecordField): EntryChange {
  if (f.kind === 'version-of-record') return { kind: 'record', record: f.record };
  return { kind: 'fields', record: f.record, fields: f.fields.filter((m) => !field || m.field === field).map((m) => m.field) };
}
