/**
 * Library entries (BibTeX fields or CSL items) as {@link Entry}s, so that search, completion,
 * hover, the details page and citing treat them like corpus entries; `entry.library` says where
 * they come from. Only what is shown and searched is converted at load (title, names, year,
 * venue, identifiers, keywords); the rest stays in the file, which citing copies as written.
 */
import type { EntryType, Kind, LibraryEntry, LibraryInfo, Person } from '../corpus/schema.js';
import { cslYear } from '../corpus/sameWork.js';
import { bareDoi, bibtexArxiv, cslArxiv } from '../corpus/identifiers.js';
import type { RawBibEntry } from '../bibliography/readBibtex.js';
import { texToText } from '../bibliography/texToText.js';

/** The empty list library entries share. */
export const NONE: readonly never[] = Object.freeze([]);

/** BibTeX/biblatex entry types to the nearest standard BibTeX type we emit (the BibTeX manual's; biblatex manual §2.1). */
const BIB_TYPES: Record<string, EntryType> = {
  article: 'article', periodical: 'article', suppperiodical: 'article',
  inproceedings: 'inproceedings', conference: 'inproceedings',
  book: 'book', mvbook: 'book', proceedings: 'book', mvproceedings: 'book', collection: 'book', mvcollection: 'book', booklet: 'book', manual: 'book', reference: 'book',
  incollection: 'incollection', inbook: 'incollection', bookinbook: 'incollection', suppbook: 'incollection', suppcollection: 'incollection', inreference: 'incollection',
  techreport: 'techreport', report: 'techreport',
  phdthesis: 'phdthesis', thesis: 'phdthesis',
};

/** CSL item types (CSL 1.0.2 specification, "Appendix III - Types") to the nearest BibTeX type. */
const CSL_TYPES: Record<string, EntryType> = {
  'article-journal': 'article', 'article-magazine': 'article', 'article-newspaper': 'article', article: 'article', periodical: 'article',
  'paper-conference': 'inproceedings',
  book: 'book', collection: 'book',
  chapter: 'incollection', 'entry-encyclopedia': 'incollection', 'entry-dictionary': 'incollection',
  report: 'techreport', thesis: 'phdthesis',
};

/**
 * A library entry's type and kind, from the entry type its file gives it (`sourceType`: BibTeX's
 * lower case, or CSL's): {@link BIB_TYPES} or {@link CSL_TYPES} (`misc` when neither names it),
 * and the kind that type reads as. The one mapping, for reading a file and for restoring its cache.
 */
export function typeAndKind(format: 'bibtex' | 'csl-json' | 'csl-yaml', sourceType: string): { type: EntryType; kind: Kind } {
  const types = format === 'bibtex' ? BIB_TYPES : CSL_TYPES;
  const type = Object.hasOwn(types, sourceType) ? types[sourceType]! : 'misc';
  return { type, kind: kindOf(type, sourceType) };
}

function kindOf(type: EntryType, sourceType: string): Kind {
  if (type === 'book' || type === 'incollection') return 'book';
  if (type === 'techreport') return 'report';
  if (/^(online|www|electronic|webpage|post|post-weblog)$/.test(sourceType)) return 'blog';
  if (/^(software|dataset)$/.test(sourceType)) return 'framework';
  return 'paper';
}

/** Splits a BibTeX name list on `and` outside braces (the BibTeX manual, §4 "Names"). */
export function splitNames(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  const lower = value.toLowerCase();
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(c!) && lower.startsWith('and', i + 1) && /\s/.test(value[i + 4] ?? '')) {
      out.push(value.slice(from, i));
      i += 4;
      from = i;
    }
  }
  out.push(value.slice(from));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Commas outside braces of one name. */
function splitCommas(name: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) { out.push(name.slice(from, i)); from = i + 1; }
  }
  out.push(name.slice(from));
  return out.map((s) => s.trim());
}

/** Words outside braces of a name part (a braced group is one word). */
function words(part: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of part) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && /\s|~/.test(c)) { if (cur) out.push(cur); cur = ''; } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** A lower-case first letter outside braces starts a "von" part (the BibTeX manual's rule). */
const isVon = (w: string) => /^[a-z]/.test(w);

/**
 * One BibTeX name (`Kwon, Woosuk`, `Woosuk Kwon`, `van der Berg, Jan`, `{OpenAI}`) as a
 * {@link Person}; a name that is one braced group is an organisation (`literal`).
 */
export function bibtexPerson(name: string): Person {
  const trimmed = name.trim();
  if (/^\{[^{}]*\}$/.test(trimmed)) return { literal: texToText(trimmed, 400) || trimmed };
  const parts = splitCommas(trimmed);
  if (parts.length >= 2) {
    // "von Last, First" or "von Last, Jr, First"
    const family = texToText(parts[0]!, 400);
    const given = texToText(parts[parts.length - 1]!, 400);
    return family ? { given, family } : { literal: given || trimmed };
  }
  const w = words(trimmed);
  if (w.length === 1) return { given: '', family: texToText(w[0]!, 400) || trimmed };
  // "First von Last": the family name starts at the first von word, else it is the last word.
  let at = w.findIndex((x, i) => i > 0 && i < w.length - 1 && isVon(x));
  if (at < 0) at = w.length - 1;
  return { given: texToText(w.slice(0, at).join(' '), 400), family: texToText(w.slice(at).join(' '), 400) };
}

/** A comma- or semicolon-separated list, each item once; the one shared empty list when there is none (100,000 entries need not hold 100,000). */
function listField(value: string | undefined): readonly string[] {
  if (!value) return NONE;
  const items = [...new Set(value.split(/[,;]/).map((k) => texToText(k, 200)).filter(Boolean))];
  return items.length ? items : NONE;
}

function httpUrl(value: string | undefined): string | undefined {
  const u = value?.trim();
  return u && /^https?:\/\/[^\s]+$/.test(u) ? u : undefined;
}

/** Where a library is, for its entries' {@link LibraryInfo}. */
export interface LibraryRef {
  uri: string;
  name: string;
}

/**
 * A BibTeX library entry as an {@link Entry}. Names: `author`, else `editor`; year: `year`, else
 * the year of `date`; venue: `journal`/`journaltitle`, `booktitle`, `eventtitle`, `publisher`,
 * `school`, `institution`, `organization`, `howpublished`; arXiv id: `sameWork.ts`'s
 * {@link bibtexArxiv} (`eprint`, an arXiv DOI, an arxiv.org URL or `arXiv:<id>` in the venue or note).
 */
export function entryFromBibtex(raw: RawBibEntry, lib: LibraryRef): LibraryEntry {
  const f = raw.fields;
  const { type, kind } = typeAndKind('bibtex', raw.type);
  const names = f.author ?? f.editor;
  const authors = names ? splitNames(names.slice(0, 20_000)).filter((n) => n.toLowerCase() !== 'others').slice(0, 200).map(bibtexPerson) : [];
  const yearMatch = /\d{4}/.exec(f.year ?? f.date ?? '');
  const year = yearMatch ? Number(yearMatch[0]) : undefined;
  const venueField = f.journal ?? f.journaltitle ?? f.booktitle ?? f.eventtitle ?? f.publisher ?? f.school ?? f.institution ?? f.organization ?? f.howpublished;
  const venue = venueField ? texToText(venueField, 400) : '';
  const library: LibraryInfo = {
    uri: lib.uri, name: lib.name, line: raw.line, sourceType: raw.type, format: 'bibtex',
    keywords: listField(f.keywords), groups: listField(f.groups),
  };
  return {
    key: raw.key,
    type,
    kind,
    title: texToText(f.title ?? '', 1000) || raw.key,
    authors,
    year: year && year >= 1000 && year <= 2999 ? year : undefined,
    venue: venue || undefined,
    doi: bareDoi(f.doi),
    arxiv: bibtexArxiv(f),
    url: httpUrl(f.url),
    // What a CSL bibliography and a formatted reference need besides (`toCslJson`).
    ...optional({
      journal: f.journal ?? f.journaltitle, booktitle: f.booktitle, volume: f.volume, number: f.number ?? f.issue,
      publisher: f.publisher, institution: f.institution ?? f.school, edition: f.edition, series: f.series,
    }),
    ...(f.pages ? { pages: f.pages.replace(/[{}\s]/g, '').slice(0, 100) } : {}),
    library,
  };
}

/** The fields given, as plain text (at most 400 characters each); absent ones left out. */
function optional(fields: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    const t = v === undefined ? '' : texToText(v, 400);
    if (t) out[k] = t;
  }
  return out;
}

/** A CSL name (`{family, given}` or `{literal}`) as a {@link Person}. */
function cslPerson(n: unknown): Person | undefined {
  if (!n || typeof n !== 'object') return undefined;
  const p = n as Record<string, unknown>;
  const family = typeof p.family === 'string' ? p.family.trim() : '';
  const given = typeof p.given === 'string' ? p.given.trim() : '';
  if (family) return { given, family };
  const literal = typeof p.literal === 'string' ? p.literal.trim() : given;
  return literal ? { literal } : undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * A CSL item (CSL-JSON or CSL-YAML; the CSL 1.0.2 specification's variables) as an {@link Entry}:
 * `id` is its key, `author` (else `editor`) its names, the first year of `issued` its year,
 * `container-title` (else `publisher`) its venue, `sameWork.ts`'s {@link cslArxiv} its arXiv id. The item itself is kept: citing copies it as written.
 *
 * @returns undefined for an item without an `id`
 */
export function entryFromCsl(item: Record<string, unknown>, line: number, lib: LibraryRef, format: 'csl-json' | 'csl-yaml'): LibraryEntry | undefined {
  const key = text(item.id)?.trim();
  if (!key) return undefined;
  const sourceType = text(item.type) ?? '';
  const { type, kind } = typeAndKind(format, sourceType);
  const names = Array.isArray(item.author) ? item.author : Array.isArray(item.editor) ? item.editor : [];
  const authors = names.slice(0, 200).map(cslPerson).filter((p): p is Person => !!p);
  const y = cslYear(item);
  const venue = text(item['container-title']) ?? text(item.publisher);
  const library: LibraryInfo = {
    uri: lib.uri, name: lib.name, line, sourceType, format, keywords: listField(text(item.keyword)), groups: NONE, csl: item,
  };
  return {
    key,
    type,
    kind,
    title: (text(item.title) ?? '').replace(/\s+/g, ' ').trim().slice(0, 1000) || key,
    authors,
    year: y !== undefined && y >= 1000 && y <= 2999 ? y : undefined,
    venue: venue?.slice(0, 400) || undefined,
    doi: bareDoi(text(item.DOI)),
    arxiv: cslArxiv(item),
    url: httpUrl(text(item.URL)),
    library,
  };
}
