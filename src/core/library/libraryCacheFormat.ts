/**
 * The library cache's format: a {@link LoadedLibrary} saved as JSON ({@link libraryJsonPieces}, in
 * pieces; {@link libraryToJson}) and restored without parsing the file again
 * ({@link LibraryRestorer}, in slices; {@link restoreLibrary}, {@link libraryFromJson}), checked
 * field by field on the way in. Keyed by the text it was saved for ({@link libraryCacheKey}); the
 * host stores it (`host/node/libraryCache.ts` on disk).
 */
import { ENTRY_TYPES, KINDS, type LibraryEntry } from '../corpus/schema.js';
import { fromDeltaBase64, toDeltaBase64 } from '../text/base64.js';
import type { LibraryProblem } from '../bibliography/readBibtex.js';
import { isProblemText } from '../text/problemText.js';
import { NONE, typeAndKind, type LibraryRef } from './entries.js';
import { libraryFile, type LibraryFormat, type LoadedLibrary } from './loadLibrary.js';
import { bibEntryAt, type BibEntry } from '../bibliography/bibtexFile.js';
import { cslEntry } from '../bibliography/bibFile.js';
import { LibraryIndex, type LibraryIndexJson } from '../search/library/libraryIndex.js';

/**
 * Bumped when the saved form changes, so that an older cache is read again from the file.
 * 3: the text's hash, length and format in the cache; one piece of the JSON a line.
 * 4: the BibTeX reader follows BibTeX 0.99d's rules; the CSL readers skip items that contain themselves or nest past 100 levels, and a broken
 *    CSL-YAML item costs only itself (a version-3 cache holds what they read before).
 * 5: an entry's arXiv id is read by `corpus/identifiers.ts` (also from `arXiv:<id>` in a venue or note, an arXiv DOI, old-style ids in URLs).
 * 6: a BibTeX library's keys commented out with `%` are kept (its `BibFile` is what a document's bibliography reads).
 * 7: an entry is an array (see {@link compactEntry}): the cache of a 68 MB `.bib` was 87 MB, a third of it field names.
 * 8: spans and the index's number lists are base64 of their differences as varints (`toDeltaBase64`):
 *    the cache of a 6.9 MB `.bib` of 10,000 entries was 7.6 MB, its index's postings 2 MB of it.
 * 9: a problem is a code with its values (`core/text/problemText.ts`), not an English sentence, so a cache holds no language.
 */
export const LIBRARY_CACHE_VERSION = 9;

/**
 * The text a cache was saved for: a hash of it (the host's: SHA-256 in hex on Node; FNV-1a
 * elsewhere), its length in UTF-16 code units (byte-order mark dropped), and the format it was
 * read as (`bibFormatOf` of the file's name: the same text renamed from `.json` to `.bib` is
 * another library).
 */
export interface LibraryTextId {
  hash: string;
  length: number;
  format: LibraryFormat;
}

/** The cache key of a text: everything {@link LibraryTextId} holds, and the cache version (letters, digits and `-` only when the hash is hex). */
export function libraryCacheKey(id: LibraryTextId): string {
  return `${id.hash}-${id.length}-${id.format}-v${LIBRARY_CACHE_VERSION}`;
}


/**
 * The head of the cache's JSON: everything but the entries and the index, which follow it (see
 * {@link libraryJsonPieces}). Entries are arrays ({@link compactEntry}) that leave out what they
 * all have alike (their library's `uri`, `name` and `format`, empty `keywords` and `groups`), what
 * they hold twice (a venue that is their journal's, a source type that is their type) and what is
 * worked out again (`sameWorkAs`); spans are base64 of their differences (`toDeltaBase64`, `text/base64.ts`).
 */
interface CacheHead {
  version: number;
  /** The text it was saved for (`null`: saved without one, by tests; never restored for a file). */
  text: { hash: string; length: number } | null;
  format: LibraryFormat;
  /** Entries that follow. */
  count: number;
  problems: LibraryProblem[];
  spans?: string;
  macros?: Record<string, string>;
  strings?: [string, { start: number; end: number }][];
  /** BibTeX: keys commented out with `%` (absent when none). */
  commented?: string[];
}

/** Entries per piece (and line) of {@link libraryJsonPieces}. */
const ENTRIES_PER_PIECE = 500;

/**
 * The fields an entry's venue is most often the value of: a venue equal to one of them is kept as
 * that field's number here (`"venue":0` for its journal), not written twice.
 */
const VENUE_FROM = ['journal', 'booktitle', 'publisher', 'institution'] as const;

/**
 * An entry as the cache keeps it (see {@link CacheHead}): an array, since field names were a third
 * of a large library's cache, `[key, title, authors, fields, library]`:
 * - `authors`: a person `{given, family}` as `[given, family]` (`[given, family, zh]`), `{literal}` as the string;
 * - `fields`: the entry's other fields by name, its `venue` as a number of {@link VENUE_FROM} when it
 *   is that field's value; its `type` and `kind` only where they are not what its source type
 *   gives (`typeAndKind`, the loader's own mapping);
 * - `library`: `[line, sourceType]`, then an object of the rest when there is any (`keywords`,
 *   `groups`, a CSL item's `csl`); its `uri`, `name` and `format` are the library's, and
 *   `sameWorkAs` is worked out again.
 */
function compactEntry(e: LibraryEntry): unknown[] {
  const { key, type, kind, title, authors, library, ...fields } = e;
  const { uri: _uri, name: _name, sameWorkAs: _sameAs, format, line, sourceType, keywords, groups, ...more } = library;
  const venueFrom = fields.venue === undefined ? -1 : VENUE_FROM.findIndex((k) => fields[k] === fields.venue);
  const usual = typeAndKind(format, sourceType);
  const rest: Record<string, unknown> = {
    ...fields, ...(venueFrom < 0 ? {} : { venue: venueFrom }), ...(type === usual.type ? {} : { type }), ...(kind === usual.kind ? {} : { kind }),
  };
  const tail = { ...more, ...(keywords.length ? { keywords } : {}), ...(groups.length ? { groups } : {}) };
  const lib: unknown[] = [line, sourceType, ...(Object.keys(tail).length ? [tail] : [])];
  return [key, title, authors.map((p) => ('literal' in p ? p.literal : p.zh !== undefined ? [p.given, p.family, p.zh] : [p.given, p.family])), rest, lib];
}

/**
 * A {@link compactEntry} array as the entry object it was made from, for the checks of
 * `LibraryRestorer.entry`, which see what does not fit: nothing here is trusted.
 */
function expandEntry(raw: unknown, format: LibraryFormat): Record<string, unknown> {
  if (!Array.isArray(raw) || raw.length !== 5) return miss('damaged (an entry)');
  const [key, title, authors, fields, lib] = raw as unknown[];
  if (!isObject(fields) || !Array.isArray(lib) || lib.length < 2 || lib.length > 3 || (lib.length === 3 && !isObject(lib[2]))) return miss('damaged (an entry)');
  if (typeof lib[1] !== 'string') return miss('damaged (an entry\'s library sourceType)');
  for (const k of POSITIONAL) if (k in fields) miss(`damaged (an entry's ${k})`);
  const usual = typeAndKind(format, lib[1]);
  const out: Record<string, unknown> = { type: usual.type, kind: usual.kind, ...fields, key, title };
  if (typeof fields.venue === 'number') {
    const from = VENUE_FROM[fields.venue];
    out.venue = from && typeof fields[from] === 'string' ? fields[from] : miss('damaged (an entry\'s venue)');
  }
  out.authors = Array.isArray(authors)
    ? authors.map((p) => (typeof p === 'string' ? { literal: p } : Array.isArray(p) && (p.length === 2 || p.length === 3) ? { given: p[0], family: p[1], ...(p.length === 3 ? { zh: p[2] } : {}) } : p))
    : authors;
  out.library = { ...(lib[2] as Record<string, unknown> | undefined), line: lib[0], sourceType: lib[1], format };
  return out;
}
/** The fields an entry array holds by position, never among its named `fields`. */
const POSITIONAL = ['key', 'title', 'authors', 'library'] as const;

/** How the head's line ends: the entries follow, a line of at most {@link ENTRIES_PER_PIECE} each. */
const HEAD_END = ',"entries":[';
/** How the last line starts: the index follows. */
const INDEX_START = '],"index":';

/**
 * A loaded library as JSON for the cache, in pieces of a few milliseconds' work each: the
 * language server writes them between requests. The pieces joined are {@link libraryToJson}'s
 * text: one JSON object whose parts are on lines of their own (the head, then entries
 * {@link ENTRIES_PER_PIECE} a line, then the index), so that {@link LibraryRestorer} can parse it a
 * line at a time.
 *
 * @param text - the text it was loaded from, checked when it is restored (tests may leave it out)
 * @throws Error (when the generator runs) for a library whose index was updated since it was
 *   built, or a `text` of another format than the library's
 */
export function* libraryJsonPieces(lib: LoadedLibrary, text?: LibraryTextId): Generator<string, void, undefined> {
  if (text && text.format !== lib.file.format) throw new Error(`libraryJsonPieces: a ${lib.file.format} library saved as ${text.format}`);
  for (const piece of jsonPieces(lib, text)) yield latin1(piece);
}

function* jsonPieces(lib: LoadedLibrary, text: LibraryTextId | undefined): Generator<string, void, undefined> {
  const { file } = lib;
  const bibtex = file.format === 'bibtex';
  const head: CacheHead = {
    version: LIBRARY_CACHE_VERSION, text: text ? { hash: text.hash, length: text.length } : null,
    format: file.format, count: lib.entries.length, problems: file.problems ?? [],
    ...(bibtex ? { spans: toDeltaBase64(spansOf(file.entries)), macros: { ...file.macros }, strings: file.strings ?? [] } : {}),
    ...(file.commented?.length ? { commented: file.commented } : {}),
  };
  // JSON.stringify writes no line break of its own (one in a string is `\n`): the ones here are
  // the only ones, white space between the object's tokens.
  yield `${JSON.stringify(head).slice(0, -1)}${HEAD_END}\n`;
  for (let i = 0; i < lib.entries.length; i += ENTRIES_PER_PIECE) {
    yield `${i ? ',' : ''}${lib.entries.slice(i, i + ENTRIES_PER_PIECE).map((e) => JSON.stringify(compactEntry(e))).join(',')}\n`;
  }
  yield INDEX_START;
  yield* lib.index.jsonPieces();
  yield '}';
}

/** A BibTeX file's entries' `[start, end)` offsets, two numbers an entry. */
function spansOf(entries: readonly BibEntry[]): Int32Array {
  const out = new Int32Array(2 * entries.length);
  entries.forEach((e, i) => { out[2 * i] = e.start!; out[2 * i + 1] = e.end!; });
  return out;
}

/**
 * JSON text with every character past Latin-1 escaped (`\u4e2d`): read back, the cache is a
 * string of one byte a character (V8 keeps a string of Latin-1 characters so), where a single
 * Chinese title would make it two. Latin-1's accented letters, the most common, stay as they are.
 */
function latin1(json: string): string {
  return WIDE.test(json) ? json.replace(WIDE_RUN, (run) => {
    let out = '';
    for (let i = 0; i < run.length; i++) out += `\\u${run.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  }) : json;
}
const WIDE = /[\u0100-\uffff]/;
const WIDE_RUN = /[\u0100-\uffff]+/g;

/** A loaded library as JSON, for the cache: {@link libraryJsonPieces} at once. */
export function libraryToJson(lib: LoadedLibrary, text?: LibraryTextId): string {
  return [...libraryJsonPieces(lib, text)].join('');
}

/** What restoring a cache gave: the library, or why the cache is not used (one line, for a log). */
export type RestoreResult = { lib: LoadedLibrary } | { miss: string };

/** A cache that is not used, and why (thrown inside {@link LibraryRestorer} only). */
class CacheMiss extends Error {}
const miss = (why: string): never => { throw new CacheMiss(why); };

/**
 * Restores a library saved with {@link libraryJsonPieces}, a line at a time: call {@link step}
 * with a deadline until it returns true, then take {@link result}. A line is at most
 * {@link ENTRIES_PER_PIECE} entries, so no slice parses more; the index's line (mostly base64
 * text) is parsed in one piece, and restored in pieces (`LibraryIndex.restoring`). Nothing of the JSON is trusted: every field the library uses is checked (types,
 * entry counts against lengths, offsets within the text, the index's ids within its entries); a
 * cache of another version, text or format, or one that fails a check, is a miss, never an
 * exception.
 */
export class LibraryRestorer {
  private at = 0;
  private head?: CacheHead;
  private spans?: number[];
  private readonly entries: LibraryEntry[] = [];
  /** The index being restored, a piece a step, once every line is read. */
  private indexing?: Generator<void, LibraryIndex | undefined, undefined>;
  private out?: RestoreResult;

  /**
   * @param json - the cache's text
   * @param ref - the file it is restored for (its entries' `library.uri` and `name`: the same text may be at another path)
   * @param expected - the text it must have been saved for (its hash, length and format); absent
   *   (tests only): any, as long as it was saved without one
   * @param text - that text: the library's `file.text`, which its BibTeX entries read their fields
   *   from (absent, for a restore that reads no field: the bench, tests)
   */
  constructor(private readonly json: string, private readonly ref: LibraryRef, private readonly expected?: LibraryTextId, private readonly text = '') {}

  /** Entries restored, of how many the cache holds (0 until its head is read). */
  get progress(): { done: number; total: number } {
    return { done: this.entries.length, total: this.head?.count ?? 0 };
  }

  /**
   * Works until done or `deadline()` (asked after each line, and each piece of the index) says to stop.
   *
   * @returns true when {@link result} is ready
   */
  step(deadline: () => boolean = () => false): boolean {
    if (this.out) return true;
    try {
      while (!this.line()) if (deadline()) return false;
    } catch (e) {
      // A check that failed, or JSON.parse / base64's error on damaged text: either way a miss. Named
      // by the error's kind only: V8's message quotes the text, which may hold anything.
      this.out = { miss: e instanceof CacheMiss ? e.message : e instanceof SyntaxError ? 'damaged (not JSON)' : `damaged (${e instanceof Error ? e.name : typeof e})` };
    }
    return true;
  }

  /** The library, or why the cache is not used; throws before {@link step} returned true. */
  result(): RestoreResult {
    if (!this.out) throw new Error('LibraryRestorer.result() before the restore finished');
    return this.out;
  }

  /** Reads the next line, or restores the next piece of the index; true when done. */
  private line(): boolean {
    if (this.indexing) {
      const r = this.indexing.next();
      if (!r.done) return false;
      if (!r.value) return miss('damaged (index)');
      this.out = { lib: { file: this.file(), entries: this.entries, index: r.value, restored: true } };
      return true;
    }
    const json = this.json;
    const nl = json.indexOf('\n', this.at);
    const end = nl < 0 ? json.length : nl;
    const from = this.at;
    this.at = end + 1;
    if (!this.head) {
      if (nl < 0 || !json.startsWith('{', from) || json.slice(end - HEAD_END.length, end) !== HEAD_END) miss(this.version() ?? 'not a library cache');
      this.readHead(JSON.parse(`${json.slice(from, end - HEAD_END.length)}}`));
      return false;
    }
    if (json.startsWith(INDEX_START, from)) {
      if (nl >= 0) miss('damaged (text after the index)');
      if (json.charCodeAt(end - 1) !== 0x7d) miss('damaged (the index is cut short)');
      this.readIndex(JSON.parse(json.slice(from + INDEX_START.length, end - 1)));
      return false;
    }
    if (nl < 0) miss('damaged (cut short)');
    const first = this.entries.length === 0;
    if (first === json.startsWith(',', from)) miss('damaged (a line of entries)');
    const list = JSON.parse(`[${json.slice(first ? from : from + 1, end)}]`) as unknown[];
    if (list.length > ENTRIES_PER_PIECE || this.entries.length + list.length > this.head.count) miss('damaged (entries)');
    for (const raw of list) this.entries.push(this.entry(raw));
    return false;
  }

  /** The library's `BibFile`, from the head and the entries: a BibTeX entry's offsets are the spans, a CSL entry's item its `library.csl`. */
  private file(): LoadedLibrary['file'] {
    const head = this.head!;
    if (head.format !== 'bibtex') {
      const entries = this.entries.map((e) => cslEntry({ item: e.library.csl!, line: e.library.line }));
      return libraryFile(this.ref, head.format, this.text, entries, head.problems);
    }
    const spans = this.spans!;
    const source = { text: this.text, macros: head.macros! };
    const entries = this.entries.map((e, i) => bibEntryAt({ key: e.key, type: e.library.sourceType, start: spans[2 * i]!, end: spans[2 * i + 1]!, line: e.library.line }, source));
    return libraryFile(this.ref, 'bibtex', this.text, entries, head.problems, { macros: head.macros!, strings: head.strings!, commented: head.commented });
  }

  /** The version of a cache written by another build (for the miss's message), when it says one. */
  private version(): string | undefined {
    const v = /^\{"version":(\d{1,9})[,}]/.exec(this.json.slice(0, 24))?.[1];
    return v !== undefined && Number(v) !== LIBRARY_CACHE_VERSION ? `of another version (${v}; this one reads ${LIBRARY_CACHE_VERSION})` : undefined;
  }

  private readHead(h: unknown): void {
    if (!isObject(h)) return miss('not a library cache');
    if (h.version !== LIBRARY_CACHE_VERSION) miss(`of another version (${String(h.version)}; this one reads ${LIBRARY_CACHE_VERSION})`);
    onlyKeys(h, HEAD_KEYS, 'the head');
    const format = h.format;
    if (format !== 'bibtex' && format !== 'csl-json' && format !== 'csl-yaml') return miss('damaged (format)');
    const text = h.text as { hash: string; length: number } | null;
    if (text !== null && !(isObject(text) && typeof text.hash === 'string' && isCount(text.length) && Object.keys(text).length === 2)) miss('damaged (text)');
    const expected = this.expected;
    if (expected) {
      if (format !== expected.format) miss(`saved for this text read as ${format}, not ${expected.format}`);
      if (!text || text.hash !== expected.hash || text.length !== expected.length) miss('saved for another text');
    } else if (text) miss('saved for a text not given');
    const length = expected?.length ?? Infinity;
    if (!isCount(h.count) || (h.count as number) > 2 ** 25) miss('damaged (count)');
    const count = h.count as number;
    if (!Array.isArray(h.problems)) return miss('damaged (problems)');
    for (const p of h.problems) {
      if (!isObject(p) || !isLine(p.line) || !isLine(p.column) || !isProblemText(p) || (p.severity !== 'error' && p.severity !== 'warning')
        || Object.keys(p).length !== (p.args === undefined ? 4 : 5)) miss('damaged (a problem)');
    }
    if (format === 'bibtex') {
      if (typeof h.spans !== 'string') return miss('damaged (spans)');
      const spans = Array.from(fromDeltaBase64(h.spans));
      if (spans.length !== 2 * count) miss('damaged (spans of another count of entries)');
      // In file order, each within the text and after the one before.
      for (let i = 0, last = 0; i < spans.length; i += 2) {
        if (spans[i]! < last || spans[i + 1]! < spans[i]! || spans[i + 1]! > length) miss('damaged (an entry\'s offsets)');
        last = spans[i + 1]!;
      }
      this.spans = spans;
      if (!isObject(h.macros) || Object.values(h.macros).some((v) => typeof v !== 'string')) miss('damaged (macros)');
      if (!Array.isArray(h.strings) || !h.strings.every((s) => Array.isArray(s) && s.length === 2 && typeof s[0] === 'string' && isObject(s[1])
        && isCount(s[1].start) && isCount(s[1].end) && (s[1].start as number) <= (s[1].end as number) && (s[1].end as number) <= length && Object.keys(s[1]).length === 2)) {
        miss('damaged (@string offsets)');
      }
      if (h.commented !== undefined && !(Array.isArray(h.commented) && h.commented.every((k) => typeof k === 'string'))) miss('damaged (commented keys)');
    } else if (h.spans !== undefined || h.macros !== undefined || h.strings !== undefined || h.commented !== undefined) miss('damaged (BibTeX parts in a CSL library)');
    this.head = h as unknown as CacheHead;
  }

  /** An entry as {@link compactEntry} left it, made whole again, checked field by field. */
  private entry(compact: unknown): LibraryEntry {
    const format = this.head!.format;
    const raw = expandEntry(compact, format);
    for (const k in raw) {
      const kind = ENTRY_FIELDS[k];
      const v = raw[k];
      const ok = kind === 'string' ? typeof v === 'string'
        : kind === 'year' ? Number.isInteger(v)
        : kind === 'type' ? (ENTRY_TYPES as readonly unknown[]).includes(v)
        : kind === 'kind' ? (KINDS as readonly unknown[]).includes(v)
        : kind === 'authors' ? Array.isArray(v) && v.every(isPerson)
        : kind === 'library';
      if (!ok) miss(`damaged (an entry's ${printable(k)})`);
    }
    for (const k of REQUIRED) if (!(k in raw)) miss(`damaged (an entry without ${k})`);
    const lib = raw.library;
    if (!isObject(lib)) return miss('damaged (an entry\'s library)');
    for (const k in lib) {
      const v = lib[k];
      const ok = k === 'line' ? isLine(v)
        : k === 'sourceType' ? typeof v === 'string'
        : k === 'format' ? v === format
        : k === 'keywords' || k === 'groups' ? Array.isArray(v) && v.every((x) => typeof x === 'string')
        : k === 'csl' ? format !== 'bibtex' && isObject(v)
        : false;
      if (!ok) miss(`damaged (an entry's library ${printable(k)})`);
    }
    if (!('line' in lib) || !('sourceType' in lib) || !('format' in lib) || (format !== 'bibtex' && !('csl' in lib))) miss('damaged (an entry\'s library)');
    lib.uri = this.ref.uri;
    lib.name = this.ref.name;
    lib.keywords ??= NONE;
    lib.groups ??= NONE;
    return raw as unknown as LibraryEntry;
  }

  private readIndex(json: unknown): void {
    if (this.entries.length !== this.head!.count) miss('damaged (entries missing)');
    if (!isObject(json)) return miss('damaged (index)');
    this.indexing = LibraryIndex.restoring(this.entries, json as unknown as LibraryIndexJson);
  }
}

const HEAD_KEYS = new Set(['version', 'text', 'format', 'count', 'problems', 'spans', 'macros', 'strings', 'commented']);

/** What each field of a library entry may hold (`LibraryEntry`'s fields; the entry loaders write a subset). */
const ENTRY_FIELDS: Record<string, 'string' | 'year' | 'type' | 'kind' | 'authors' | 'library'> = Object.assign(Object.create(null) as object, {
  key: 'string', type: 'type', kind: 'kind', title: 'string', title_en: 'string', authors: 'authors', year: 'year',
  venue: 'string', venue_full: 'string', booktitle: 'string', journal: 'string', volume: 'string', number: 'string',
  pages: 'string', publisher: 'string', institution: 'string', howpublished: 'string', edition: 'string', series: 'string',
  doi: 'string', arxiv: 'string', url: 'string', pdf: 'string', code: 'string', library: 'library',
} as const);
const REQUIRED = ['key', 'type', 'kind', 'title', 'authors', 'library'] as const;

/** A name from the cache for a log line: 40 characters at most, printable ASCII only (a damaged file may hold escape sequences). */
const printable = (name: string) => name.slice(0, 40).replace(/[^\x20-\x7e]/g, '?');

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;
const isLine = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;
function onlyKeys(o: Record<string, unknown>, keys: ReadonlySet<string>, what: string): void {
  for (const k in o) if (!keys.has(k)) miss(`damaged (${what}: ${printable(k)})`);
}
/** A {@link Person}: `{given, family}` (and `zh`) or `{literal}`, strings only. */
function isPerson(p: unknown): boolean {
  if (!isObject(p)) return false;
  const keys = Object.keys(p);
  if ('literal' in p) return keys.length === 1 && typeof p.literal === 'string';
  return typeof p.given === 'string' && typeof p.family === 'string' && (keys.length === 2 || (keys.length === 3 && typeof p.zh === 'string'));
}

/**
 * Restores a library saved with {@link libraryJsonPieces}, at once (the CLI, tests); see
 * {@link LibraryRestorer}.
 */
export function restoreLibrary(json: string, ref: LibraryRef, expected?: LibraryTextId, text?: string): RestoreResult {
  const r = new LibraryRestorer(json, ref, expected, text);
  r.step();
  return r.result();
}

/**
 * {@link restoreLibrary}'s library, or undefined for a miss.
 *
 * @returns undefined when the JSON is of another version, text or format, or damaged (then the file is read again)
 */
export function libraryFromJson(json: string, ref: LibraryRef, expected?: LibraryTextId, text?: string): LoadedLibrary | undefined {
  const r = restoreLibrary(json, ref, expected, text);
  return 'lib' in r ? r.lib : undefined;
}
