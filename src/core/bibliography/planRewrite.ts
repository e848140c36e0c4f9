/**
 * The planner's second kind of plan, beside the insertions of `planAdditions.ts`: rewriting one
 * entry of a bibliography file in place, as a replacement of that entry's text and nothing else.
 * Used by the record checks (`core/checks/`): an arXiv preprint becomes its version of record, or
 * fields that disagree with the verified record take the record's values.
 *
 * What a rewrite keeps:
 * - every byte outside the entry (the plan is one replacement of the entry's own span);
 * - the writer's citation key, exactly as written;
 * - the fields we do not own ({@link OWNED_BIBTEX_FIELDS}, {@link OWNED_CSL_VARIABLES}: `file`,
 *   `keywords`, `note`, `abstract`, JabRef's `groups`, any custom field), as written (BibTeX: their
 *   text verbatim, in their order after the record's fields);
 * - the entry's layout: for BibTeX the entry type's case, the field names' case, the indentation,
 *   the alignment of `=`, `{…}` or `"…"` values, a bare-number year, a trailing comma and what
 *   closes the entry, in the entry's own line ending; for CSL-JSON the item's indentation unit and
 *   base indentation, or one line for a one-line item; for CSL-YAML the list's indentation.
 *
 * A plan is one splice per entry (`fileEdit.ts`: the one change of a file, its one apply), read
 * back before it is handed on (`readsBackAs`): every other entry reads as it did, the rewritten one
 * reads as planned (BibTeX: the record's fields or the fixed ones with the values written, the
 * writer's own fields with theirs; CSL: exactly the planned item), and no problem is new;
 * otherwise there is no plan. Pure: hosts apply the splices as one undoable edit.
 */
import { Document as YamlDocument, isScalar, visit } from 'yaml';
import { bibtexFields, bibtexName, protectCapitals, texEscape } from '../cite/writeBibtex.js';
import { toCslJson } from '../cite/formatCitation.js';
import type { Entry, Person } from '../corpus/schema.js';
import { eolOf, type BibEntry } from './bibtexFile.js';
import { readEntryLayout, type BibFieldSpan } from './readBibtex.js';
import type { BibFile } from './bibFile.js';
import { applySplices, type EditPlan, type EditRefusal, type Splice } from './fileEdit.js';
import { verified, type ExpectedEntry } from './readBack.js';
import { parseYaml } from '../text/yaml.js';
import { cslYamlReferences } from './readCslYaml.js';
import { isMap, isSeq, type Node as YamlNode } from 'yaml';

/** The fields of a record a field fix can set. */
export type RecordField = 'title' | 'authors' | 'year' | 'venue' | 'pages';

/** What to do to one entry: become the version of record, or take some of its fields' values. */
export type EntryChange =
  | { kind: 'record'; record: Entry }
  | { kind: 'fields'; record: Entry; fields: readonly RecordField[] };

/**
 * BibTeX and biblatex fields that describe the publication, which a rewrite to the version of
 * record replaces (the BibTeX manual's standard fields, biblatex manual §2.2's data fields for
 * dates, journals, identifiers and electronic publishing, and arXiv's `archiveprefix`/
 * `primaryclass`). Every other field is the writer's and is kept as written.
 */
export const OWNED_BIBTEX_FIELDS: ReadonlySet<string> = new Set([
  'author', 'editor', 'title', 'subtitle', 'journal', 'journaltitle', 'booktitle', 'booksubtitle', 'eventtitle', 'year', 'date', 'month',
  'volume', 'number', 'issue', 'pages', 'publisher', 'address', 'location', 'organization', 'institution', 'school', 'series', 'edition',
  'howpublished', 'doi', 'eprint', 'eprinttype', 'eprintclass', 'archiveprefix', 'primaryclass', 'url', 'isbn', 'issn', 'key', 'type',
]);

/** CSL 1.0.2 variables that describe the publication (the counterparts of {@link OWNED_BIBTEX_FIELDS}). */
export const OWNED_CSL_VARIABLES: ReadonlySet<string> = new Set([
  'type', 'title', 'title-short', 'original-title', 'author', 'editor', 'issued', 'container-title', 'container-title-short', 'collection-title',
  'event', 'event-title', 'event-place', 'volume', 'issue', 'page', 'page-first', 'number', 'publisher', 'publisher-place', 'DOI', 'URL',
  'ISBN', 'ISSN', 'archive', 'archive_location', 'genre', 'source',
]);

/**
 * Plans rewriting one entry of a bibliography file.
 *
 * @param source - the file as read, on exactly the text the splice will be applied to
 * @param entry - one of `source.entries`
 * @returns one splice, the entry's text replaced; or the refusal: `unplaced` when the entry's
 *   extent is unknown, `shape` when its fields cannot be laid out or a field to fix is not
 *   there, `read-back` when the result would not read back as planned
 */
export function planEntryRewrite(source: BibFile, entry: BibEntry, change: EntryChange): EditPlan {
  return planEntryRewrites(source, [{ entry, change }]);
}

/**
 * Plans several rewrites of one file as one plan (for "fix all in this file"): all or none.
 *
 * @returns the splices in file order, not overlapping, or the refusal of the first one that cannot
 *   be planned ({@link planEntryRewrite}; `overlap` when two entries to rewrite overlap)
 */
export function planEntryRewrites(source: BibFile, changes: readonly { entry: BibEntry; change: EntryChange }[]): EditPlan {
  const planned: { splice: Splice; entry: BibEntry; reads: (e: BibEntry) => boolean }[] = [];
  // A CSL-YAML file is parsed once for every item's span, not once per item.
  const spans = source.format === 'csl-yaml' && changes.length ? yamlItemSpans(source.text) : undefined;
  for (const { entry, change } of changes) {
    const span = entrySpan(source, entry, spans);
    if (!span) return { refusal: 'unplaced' };
    const rewritten = rewriteText(source, entry, span, change);
    if (typeof rewritten === 'string') return { refusal: rewritten };
    planned.push({ splice: { offset: span.start, length: span.end - span.start, text: rewritten.text }, entry, reads: rewritten.reads });
  }
  planned.sort((a, b) => a.splice.offset - b.splice.offset);
  for (let i = 1; i < planned.length; i++) if (planned[i]!.splice.offset < planned[i - 1]!.splice.offset + planned[i - 1]!.splice.length) return { refusal: 'overlap' };
  const expected: ExpectedEntry[] = source.entries.map((e) => planned.find((p) => p.entry === e)?.reads ?? e);
  return verified(source, planned.map((p) => p.splice), expected);
}

/**
 * Where an entry is in its file: `[start, end)`.
 *
 * @param yamlSpans - a CSL-YAML file's item spans ({@link yamlItemSpans}), when already read
 */
function entrySpan(source: BibFile, entry: BibEntry, yamlSpans?: ReadonlyMap<number, { start: number; end: number }>): { start: number; end: number } | undefined {
  if (entry.start === undefined) return undefined;
  if (source.format === 'bibtex') return entry.end !== undefined ? { start: entry.start, end: entry.end } : undefined;
  if (source.format === 'csl-json') {
    const end = jsonValueEnd(source.text, entry.start);
    return end === undefined ? undefined : { start: entry.start, end };
  }
  return (yamlSpans ?? yamlItemSpans(source.text)).get(entry.start);
}

/** An entry's new text, and how the entry must read back from it. */
interface Rewritten {
  text: string;
  reads: (e: BibEntry) => boolean;
}

/** The entry's new text ({@link Rewritten}), or why there is none. */
function rewriteText(source: BibFile, entry: BibEntry, span: { start: number; end: number }, change: EntryChange): Rewritten | EditRefusal {
  const old = source.text.slice(span.start, span.end);
  if (source.format === 'bibtex') return rewriteBibtex(source.text, entry, span, change);
  const item = entry.csl;
  if (!item) return 'shape';
  const next = rewriteCslItem(item, change);
  const reads = (e: BibEntry) => e.key === entry.key && JSON.stringify(e.csl) === JSON.stringify(next);
  return { text: source.format === 'csl-json' ? cslJsonText(source.text, span.start, old, next) : cslYamlText(source.text, span.start, old, next), reads };
}

/** Whether a `.bib` entry read back is `key` of `type` with exactly `fields` (in any order). */
function readsAsFields(key: string, type: string, fields: Readonly<Record<string, string>>): (e: BibEntry) => boolean {
  return (e) => e.key === key && e.type === type && Object.keys(e.fields).length === Object.keys(fields).length && Object.entries(fields).every(([n, v]) => e.fields[n] === v);
}

/** What the reader gives for a value written as `{v}`, `"v"` or a bare number: `v`. */
const valueRead = (written: string): string => (/^["{]/.test(written) ? written.slice(1, -1) : written);

// ---------------------------------------------------------------------------------------------
// BibTeX

/** How an entry is written: what a rewrite of it copies. */
interface BibtexLayout {
  /** The entry type as the writer cases it, and what is written between `@` and `{` (the type and any blanks). */
  typeCase: 'lower' | 'upper' | 'capital';
  typeText: string;
  /** The text from the `{` or `(` to the first field's name (`{key,\n  `). */
  head: string;
  /** Between a field's comma and the next field's name (`\n  `). */
  between: string;
  nameCase: 'lower' | 'upper' | 'capital';
  /** Where `=` stands when the writer lines it up (its column from the field's name), else 0. */
  alignAt: number;
  /** Between a name and `=` when not aligned, and between `=` and the value. */
  beforeEq: string;
  afterEq: string;
  quotes: boolean;
  bareYear: boolean;
  /** What follows the last value: its comma (if any) and the text up to and with the closing brace. */
  tail: string;
}

function caseOf(words: readonly string[]): 'lower' | 'upper' | 'capital' {
  if (words.length && words.every((w) => /[A-Z]/.test(w) && w === w.toUpperCase())) return 'upper';
  if (words.length && words.every((w) => /^[A-Z]/.test(w)) && !words.every((w) => w === w.toUpperCase())) return 'capital';
  return 'lower';
}

function applyCase(word: string, c: 'lower' | 'upper' | 'capital'): string {
  if (c === 'upper') return word.toUpperCase();
  if (c === 'capital') return word.charAt(0).toUpperCase() + word.slice(1);
  return word;
}

function layoutOf(text: string, start: number, end: number, spans: readonly BibFieldSpan[]): BibtexLayout | undefined {
  const first = spans[0];
  const last = spans[spans.length - 1];
  const open = text.slice(start, end).search(/[{(]/);
  if (!first || !last || open < 0) return undefined;
  const typeWord = text.slice(start + 1, start + open).trim();
  const head = text.slice(start + open, first.nameStart);
  // The separator between two fields: after the first value's comma up to the next name.
  let between = '\n  ';
  if (spans.length >= 2) {
    const s = text.slice(spans[0]!.valueEnd, spans[1]!.nameStart);
    const comma = s.indexOf(',');
    if (comma >= 0) between = s.slice(comma + 1);
  } else {
    const lines = head.split(/\r\n|\r|\n/);
    if (lines.length > 1) between = eolOf(head) + lines[lines.length - 1]!;
    else between = ' ';
  }
  const eqGaps = spans.map((s) => {
    const eq = text.indexOf('=', s.nameStart + s.name.length);
    return { before: text.slice(s.nameStart + s.name.length, eq), after: text.slice(eq + 1, s.valueStart), width: eq - s.nameStart };
  });
  // Lined up: most fields (two in three) put `=` at one column, padding names with spaces (DBLP's
  // own exports have a field or two off by one).
  const count = new Map<number, number>();
  for (const g of eqGaps) count.set(g.width, (count.get(g.width) ?? 0) + 1);
  const [width, most] = [...count].sort((a, b) => b[1] - a[1])[0]!;
  const align = spans.length >= 2 && most * 3 >= spans.length * 2 && eqGaps.some((g) => g.before.length > 1) && eqGaps.every((g) => /^ *$/.test(g.before));
  const gaps = new Map<string, number>();
  for (const g of eqGaps) gaps.set(g.before, (gaps.get(g.before) ?? 0) + 1);
  const before = [...gaps].sort((a, b) => b[1] - a[1])[0]![0];
  const values = spans.map((s) => text[s.valueStart]);
  const quoted = values.filter((c) => c === '"').length;
  const braced = values.filter((c) => c === '{').length;
  const year = spans.find((s) => s.name.toLowerCase() === 'year');
  return {
    typeCase: caseOf([typeWord]),
    typeText: text.slice(start + 1, start + open),
    head,
    between,
    nameCase: caseOf(spans.map((s) => s.name)),
    alignAt: align ? width : 0,
    beforeEq: align ? ' ' : before.replace(/[\r\n].*/s, ''),
    afterEq: eqGaps[0]!.after.replace(/[\r\n].*/s, ''),
    quotes: quoted > braced,
    bareYear: !!year && /\d/.test(text[year.valueStart] ?? ''),
    tail: text.slice(last.valueEnd, end),
  };
}

/** A value in the layout's delimiters: `{v}`, `"v"` (braces when the value holds a `"` outside braces), or a bare number. */
function delimited(value: string, layout: Pick<BibtexLayout, 'quotes'>, bare = false): string {
  if (bare && /^\d+$/.test(value)) return value;
  if (layout.quotes && !quoteOutsideBraces(value)) return `"${value}"`;
  return `{${value}}`;
}

function quoteOutsideBraces(v: string): boolean {
  let depth = 0;
  for (const c of v) {
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '"' && depth === 0) return true;
  }
  return false;
}

/** The BibTeX type a record is written as, in the writer's case. */
function bibtexType(record: Entry, c: BibtexLayout['typeCase']): string {
  const t = c === 'capital' && record.type === 'inproceedings' ? 'InProceedings' : c === 'capital' && record.type === 'incollection' ? 'InCollection' : record.type;
  return applyCase(t, c);
}

function rewriteBibtex(text: string, entry: BibEntry, span: { start: number; end: number }, change: EntryChange): Rewritten | EditRefusal {
  const read = readEntryLayout(text, span.start, span.end);
  if (!read?.fieldSpans?.length) return 'shape';
  const spans = read.fieldSpans;
  const layout = layoutOf(text, span.start, span.end, spans);
  if (!layout) return 'shape';
  const eol = eolOf(text.slice(span.start, span.end));
  const fix = (s: string) => s.replace(/\r\n|\r|\n/g, eol);
  if (change.kind === 'fields') return rewriteBibtexFields(text, entry, span, spans, change, layout);
  const record = { ...change.record, key: entry.key };
  const fields: [string, string][] = bibtexFields(record).map(([n, v]) => [applyCase(n, layout.nameCase), delimited(v, layout, n === 'year' && layout.bareYear)]);
  const kept = spans.filter((s) => !OWNED_BIBTEX_FIELDS.has(s.name.toLowerCase()));
  // The record's fields with `=` at the writer's column (a longer name takes one space); the
  // writer's own fields as they are, from name to the end of the value.
  const written = fields.map(([n, v]) => `${layout.alignAt ? (n.length < layout.alignAt ? n.padEnd(layout.alignAt) : `${n} `) : `${n}${layout.beforeEq}`}=${layout.afterEq}${v}`);
  for (const s of kept) written.push(text.slice(s.nameStart, s.valueEnd));
  const type = layout.typeText.replace(/[^\s]+/, bibtexType(record, layout.typeCase));
  // It reads as the record's fields with the values written, and the writer's own with theirs (a
  // record field of the same name as one of the writer's, read first, would hide it: no plan).
  const want: Record<string, string> = {};
  for (const [n, v] of fields) want[n.toLowerCase()] ??= valueRead(v);
  for (const s of kept) want[s.name.toLowerCase()] = entry.fields[s.name.toLowerCase()] ?? '';
  return { text: `@${type}${layout.head}${written.join(`,${fix(layout.between)}`)}${layout.tail}`, reads: readsAsFields(entry.key, record.type.toLowerCase(), want) };
}

/** The field of the writer's entry that holds a record field: the first one present. */
const WRITER_FIELDS: Record<RecordField, readonly string[]> = {
  title: ['title'], authors: ['author'], year: ['year', 'date'], venue: ['booktitle', 'journal', 'journaltitle'], pages: ['pages'],
};

/** A record field's value in BibTeX, escaped as `writeBibtex.ts` writes it. */
function bibtexValueOf(record: Entry, field: RecordField, writerNames?: string): string | undefined {
  switch (field) {
    case 'title': return protectCapitals(texEscape(record.title), record.aliases);
    case 'authors': {
      // In the writer's form: `Family, Given` when their names have commas, else `Given Family`.
      const commas = writerNames === undefined || /,/.test(writerNames);
      return record.authors.map((p) => (commas ? bibtexName(p) : givenFirst(p))).join(' and ');
    }
    case 'year': return record.year?.toString();
    case 'venue': {
      const v = record.type === 'article' ? record.journal : record.booktitle ?? record.venue_full ?? record.venue;
      return v && (record.type === 'article' ? texEscape(v) : protectCapitals(texEscape(v)));
    }
    case 'pages': return record.pages;
  }
}

function givenFirst(p: Person): string {
  if ('literal' in p) return `{${texEscape(p.literal)}}`;
  const family = /\s/.test(p.family) ? `{${texEscape(p.family)}}` : texEscape(p.family);
  return p.given ? `${texEscape(p.given)} ${family}` : family;
}

/** The entry with the fields of `change` given the record's values, each in its old value's delimiters; the other bytes kept. */
function rewriteBibtexFields(text: string, entry: BibEntry, span: { start: number; end: number }, spans: readonly BibFieldSpan[], change: Extract<EntryChange, { kind: 'fields' }>, layout: BibtexLayout): Rewritten | EditRefusal {
  const edits: Splice[] = [];
  const want = { ...entry.fields };
  for (const field of change.fields) {
    const s = spans.find((x) => WRITER_FIELDS[field].includes(x.name.toLowerCase()));
    if (!s) return 'shape';
    const old = text.slice(s.valueStart, s.valueEnd);
    const value = bibtexValueOf(change.record, field, field === 'authors' ? old : undefined);
    if (value === undefined) return 'shape';
    // The old value's own delimiters: bare number, quotes, braces (and a title's double braces).
    let next: string;
    if (/^\d+$/.test(old) && /^\d+$/.test(value)) next = value;
    else if (old.startsWith('"') && !quoteOutsideBraces(value)) next = `"${value}"`;
    else if (old.startsWith('{{') && old.endsWith('}}') && field === 'title') next = `{{${value}}}`;
    else if (old.startsWith('{') || old.startsWith('"')) next = `{${value}}`;
    else next = delimited(value, layout, /^\d+$/.test(value));
    edits.push({ offset: s.valueStart - span.start, length: s.valueEnd - s.valueStart, text: next });
    want[s.name.toLowerCase()] = valueRead(next);
  }
  return { text: applySplices(text.slice(span.start, span.end), edits), reads: readsAsFields(entry.key, entry.type, want) };
}

// ---------------------------------------------------------------------------------------------
// CSL

/** A CSL item after a change: owned variables replaced by the record's (id kept), or some variables set. */
function rewriteCslItem(item: Readonly<Record<string, unknown>>, change: EntryChange): Record<string, unknown> {
  const record = toCslJson({ ...change.record, key: String(item.id) });
  if (change.kind === 'record') {
    const out: Record<string, unknown> = { id: item.id };
    for (const [k, v] of Object.entries(record)) if (k !== 'id') out[k] = v;
    for (const [k, v] of Object.entries(item)) if (k !== 'id' && !OWNED_CSL_VARIABLES.has(k)) out[k] = v;
    return out;
  }
  const out: Record<string, unknown> = { ...item };
  for (const field of change.fields) {
    const name = field === 'authors' ? 'author' : field === 'year' ? 'issued' : field === 'venue' ? 'container-title' : field === 'pages' ? 'page' : 'title';
    if (record[name] !== undefined) out[name] = record[name];
  }
  return out;
}

/** The offset after the JSON object or array that starts at `start`, by its brackets (strings skipped). */
function jsonValueEnd(text: string, start: number): number | undefined {
  const open = text.charCodeAt(start);
  if (open !== 123) return undefined;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** The indentation of the line that holds `offset`, as written. */
function indentAt(text: string, offset: number): string {
  let s = offset;
  while (s > 0 && text[s - 1] !== '\n' && text[s - 1] !== '\r') s--;
  return /^[ \t]*/.exec(text.slice(s, offset))![0];
}

function cslJsonText(text: string, start: number, old: string, item: Record<string, unknown>): string {
  if (!/[\r\n]/.test(old)) return JSON.stringify(item);
  const eol = eolOf(old);
  const base = indentAt(text, start);
  // The item's own indentation unit: its first member's indentation less the base's.
  const member = /[\r\n]+([ \t]*)\S/.exec(old);
  const unit = member && member[1]!.startsWith(base) && member[1]!.length > base.length ? member[1]!.slice(base.length) : '  ';
  return JSON.stringify(item, null, unit).replace(/\n/g, eol + base);
}

/**
 * The spans of a CSL-YAML file's items, by their start (each mapping's first key), from one parse:
 * an item ends with its value, before the line break and comments that follow.
 */
function yamlItemSpans(text: string): Map<number, { start: number; end: number }> {
  const out = new Map<number, { start: number; end: number }>();
  const parsed = parseYaml(text);
  if (!parsed.doc) return out;
  const refs = cslYamlReferences(parsed.doc);
  if (!refs.list || !isSeq(refs.list)) return out;
  for (const n of refs.list.items as YamlNode[]) {
    if (!n?.range || !isMap(n)) continue;
    const start = n.range[0];
    let end = n.range[1];
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    out.set(start, { start, end });
  }
  return out;
}

function cslYamlText(text: string, start: number, old: string, item: Record<string, unknown>): string {
  // A flow item (`- {id: a, …}`, or inside `references: [ … ]`) stays a flow item: JSON is flow YAML.
  if (old.startsWith('{')) return JSON.stringify(item);
  const eol = eolOf(old.includes('\n') || old.includes('\r') ? old : text);
  // The item's keys are indented like its first key, which follows the list's `- ` on its line.
  let ls = start;
  while (ls > 0 && text[ls - 1] !== '\n' && text[ls - 1] !== '\r') ls--;
  const keyIndent = ' '.repeat(start - ls);
  // The item's own style: a list under a key not indented (`author:\n- family: …`, as Pandoc
  // writes), single or double quotes, short lists of scalars in flow style (`- [2019]`).
  const doc = new YamlDocument(item);
  visit(doc, { Seq(_, node) { if (node.items.length && node.items.every((i) => isScalar(i))) node.flow = true; } });
  const indentSeq = !/^([ \t]*)[^\s-][^:\r\n]*:[ \t]*\r?\n\1- /m.test(old);
  const singleQuote = (old.match(/: '/g)?.length ?? 0) > (old.match(/: "/g)?.length ?? 0);
  const lines = doc.toString({ indentSeq, singleQuote, lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '').split('\n');
  return lines.map((l, i) => (i === 0 || !l ? l : keyIndent + l)).join(eol);
}
