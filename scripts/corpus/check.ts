/**
 * `npm run check:records`: every corpus entry against the published records that match it (by its
 * `records`, else by normalised title + year), field by field, differences in form only ignored
 * (`compare.ts`). A disagreement is one line, `file:line: key: field: ours vs record (source)`,
 * unless `scripts/corpus/record-exceptions.yaml` lists it with its reason.
 *
 * Which record decides: USENIX's own record is the publisher's, so where an entry matches one, the
 * DBLP record of the same paper only checks what USENIX's lacks (CORPUS-PLAN.md: "USENIX's own
 * BibTeX is the publisher's record, so it wins"). Booktitles are compared with USENIX's only (DBLP
 * and the CrossTeX venue names write the same proceedings in other words).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { EntryLocation } from '../../src/core/corpus/readCorpus.js';
import { authorMismatch, fold, foldPages, sameTitle } from './compare.js';
import type { RecordIndex } from './pairs.js';
import type { PubRecord } from './records.js';

/** A listed exception: an entry's field that may disagree with a record, and why. */
export interface RecordException {
  key: string;
  field: string;
  /** The record it concerns (any record when absent). */
  record?: string;
  reason: string;
}

/** The committed list of exceptions. */
export const EXCEPTIONS_FILE = 'scripts/corpus/record-exceptions.yaml';

/**
 * Reads the exceptions file.
 *
 * @throws Error naming the file when an item lacks a key, a field or a reason
 */
export function readExceptions(file = EXCEPTIONS_FILE): RecordException[] {
  const list = (parse(readFileSync(file, 'utf8')) ?? []) as RecordException[];
  for (const x of list) {
    if (!x || typeof x.key !== 'string' || typeof x.field !== 'string' || typeof x.reason !== 'string' || x.reason.trim().length < 10) {
      throw new Error(`${file}: ${JSON.stringify(x)} needs key, field and a reason`);
    }
  }
  return list;
}

/** One disagreement. */
export interface Finding {
  file: string;
  line: number;
  key: string;
  field: string;
  ours: string;
  theirs: string;
  record: PubRecord;
}

/** Venue names that are the same venue. */
const VENUE_SAME: Record<string, string> = { ATC: 'USENIX ATC', NIPS: 'NeurIPS', SysML: 'MLSys' };
const venueOf = (v: string | undefined) => (v ? VENUE_SAME[v] ?? v : v);

/** The result of a check. */
export interface CheckResult {
  findings: Finding[];
  excepted: { finding: Finding; exception: RecordException }[];
  /** Exceptions that matched no finding (stale). */
  unused: RecordException[];
  entries: number;
  /** Entries checked against at least one record, by how the record was found. */
  byRecords: number;
  byTitle: number;
  /** Record ids named by entries that the sources read do not hold (not checkable here). */
  notHere: string[];
}

/**
 * Checks every entry against its records.
 *
 * @param locations - the corpus entries with their files and lines
 * @param index - the records read
 * @param exceptions - the listed exceptions
 * @param checkable - whether a record id named by an entry should be in the sources read (a record
 *   the sources should hold and do not is a finding; others count under `notHere`)
 */
export function checkRecords(
  locations: readonly EntryLocation[], index: RecordIndex, exceptions: readonly RecordException[], checkable: (id: string) => boolean,
): CheckResult {
  const res: CheckResult = { findings: [], excepted: [], unused: [], entries: locations.length, byRecords: 0, byTitle: 0, notHere: [] };
  const raw: Finding[] = [];
  for (const loc of locations) {
    const e = loc.entry;
    let recs: PubRecord[] = [];
    if (e.records.length) {
      for (const id of e.records) {
        const r = index.byId.get(id);
        if (r) recs.push(r);
        else if (checkable(id)) raw.push(finding(loc, 'records', id, 'no such record in the sources', undefined));
        else res.notHere.push(id);
      }
      if (recs.length) res.byRecords++;
    } else {
      recs = index.withTitle(e.title_en ?? e.title, e.year);
      if (recs.length) res.byTitle++;
    }
    raw.push(...compareEntry(loc, recs));
  }
  const used = new Set<RecordException>();
  for (const f of raw) {
    const x = exceptions.find((x) => x.key === f.key && x.field === f.field && (!x.record || x.record === f.record?.id));
    if (x) { used.add(x); res.excepted.push({ finding: f, exception: x }); } else res.findings.push(f);
  }
  res.unused = exceptions.filter((x) => !used.has(x));
  return res;
}

function finding(loc: EntryLocation, field: string, ours: string, theirs: string, record: PubRecord | undefined): Finding {
  return { file: loc.file, line: loc.line, key: loc.entry.key, field, ours, theirs, record: record ?? ({ id: ours, file: '' } as PubRecord) };
}

/** The disagreements of one entry with its records (USENIX's decides where it is one of them). */
function compareEntry(loc: EntryLocation, recs: PubRecord[]): Finding[] {
  const e = loc.entry;
  const out: Finding[] = [];
  const usenix = recs.find((r) => r.source === 'usenix');
  for (const r of recs) {
    const primary = !usenix || r === usenix;
    const add = (field: string, ours: string, theirs: string) => out.push(finding(loc, field, ours, theirs, r));
    if (primary) {
      if (!sameTitle(e.title_en ?? e.title, r.title)) add('title', e.title_en ?? e.title, r.title);
      const a = authorMismatch(e.authors, r.authors);
      if (a) add(a.field, a.ours, a.theirs);
      if (e.year !== r.year) add('year', String(e.year ?? '(none)'), String(r.year));
      if (venueOf(e.venue) !== venueOf(r.venue)) add('venue', e.venue ?? '(none)', r.venue);
      if (r.doi && e.doi && e.doi.toLowerCase() !== r.doi.toLowerCase()) add('doi', e.doi, r.doi);
      if (r.type === 'article' && e.type === 'article') {
        if (r.volume && e.volume && String(e.volume) !== r.volume) add('volume', String(e.volume), r.volume);
        if (r.number && e.number && String(e.number) !== r.number) add('number', String(e.number), r.number);
      }
      if (r.source === 'usenix' && r.booktitle && e.booktitle && fold(e.booktitle) !== fold(r.booktitle)) add('booktitle', e.booktitle, r.booktitle);
    }
    const pagesDecider = primary || !usenix?.pages;
    if (pagesDecider && r.pages && e.pages && foldPages(e.pages) !== foldPages(r.pages)) add('pages', e.pages, r.pages);
  }
  return out;
}

/** A finding as its one line: `file:line: key: field: ours vs record (source)`. */
export function findingLine(f: Finding, entriesDir = 'corpus/entries'): string {
  const src = f.record.file ? `${f.record.id}, ${f.record.file}` : f.record.id;
  return `${entriesDir}/${f.file}:${f.line}: ${f.key}: ${f.field}: ${oneLine(f.ours)} vs ${oneLine(f.theirs)} (${src})`;
}

/** Control characters escaped, white space runs as one space, long values cut. */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).replace(/\s+/g, ' ');
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}
