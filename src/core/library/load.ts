/**
 * Loading one library file, from its text to a searchable {@link LoadedLibrary}: read (BibTeX,
 * CSL-JSON or CSL-YAML), convert to entries, index. In slices, so the language server answers
 * between them; or at once ({@link loadLibrary}) for the CLI and tests. A loaded library can be
 * saved as JSON for the cache ({@link libraryJsonPieces}, in pieces; {@link libraryToJson}) and
 * restored without parsing again ({@link libraryFromJson}).
 */
import type { Entry } from '../schema.js';
import { int32FromBase64, toBase64 } from './base64.js';
import { BibtexLibraryReader, type LibraryProblem } from './bibtex.js';
import { CslJsonReader, CslYamlReader, type CslReader } from './csl.js';
import { entryBase, entryFromBibtex, entryFromCsl, NONE, type LibraryRef } from './entries.js';
import { LibraryIndex, type LibraryIndexJson } from './search.js';
import type { BibFormat } from '../bib/sync.js';

/** A library's format: a bibliography's (`bibFormatOf` tells it from the file name, as Pandoc does). */
export type LibraryFormat = BibFormat;

/** A library file, read and indexed. */
export interface LoadedLibrary {
  format: LibraryFormat;
  /** Entries in file order (duplicate keys included; lookups take the first). */
  entries: Entry[];
  index: LibraryIndex;
  problems: LibraryProblem[];
  /** BibTeX only: each entry's `[start, end)` offsets in the text (two numbers per entry). */
  spans?: number[];
  /** BibTeX only: the file's macros at its end, and where each `@string` is defined. */
  macros?: Record<string, string>;
  strings?: [string, { start: number; end: number }][];
}

/** How far a load is, for progress. */
export interface LoadProgress {
  /**
   * `read`: parsing (`done` of `total` entries: BibTeX's lines that start an entry, CSL's list
   * elements, 0 until the list has been scanned); `index`: indexing (`done` of `total`).
   */
  phase: 'read' | 'index';
  done: number;
  total: number;
}

/**
 * Loads a library in slices: call {@link step} with a deadline until it returns true, then take
 * {@link result}. The constructor does no work; converting and indexing run after reading, each
 * in slices too. The one piece that cannot be cut is parsing a CSL-YAML file (the YAML parser
 * takes the whole document); a CSL-JSON file is parsed element by element.
 */
export class LibraryLoader {
  private reader?: BibtexLibraryReader;
  private csl?: CslReader;
  private entries: Entry[] = [];
  private spans: number[] = [];
  private problems: LibraryProblem[] = [];
  private builder?: ReturnType<typeof LibraryIndex.builder>;
  private loaded?: LoadedLibrary;

  /**
   * @param text - the file's text
   * @param format - its format
   * @param ref - the library's URI and name, for each entry's `library`
   */
  constructor(private readonly text: string, private readonly format: LibraryFormat, private readonly ref: LibraryRef) {}

  /** Where the load is. */
  get progress(): LoadProgress {
    if (this.builder) return { phase: 'index', done: this.builder.done, total: this.entries.length };
    const r = this.reader ?? this.csl;
    return { phase: 'read', done: r?.done ?? 0, total: r?.total ?? 0 };
  }

  /**
   * Works until done or `deadline()` (asked every few entries) says to stop.
   *
   * @returns true when the library is loaded ({@link result})
   */
  step(deadline: () => boolean = () => false): boolean {
    if (this.loaded) return true;
    if (!this.builder) {
      if (!this.read(deadline)) return false;
      this.builder = LibraryIndex.builder(this.entries);
      if (deadline()) return false;
    }
    const index = this.builder.step(deadline);
    if (!index) return false;
    const reader = this.reader;
    this.loaded = {
      format: this.format, entries: this.entries, index, problems: this.problems,
      ...(reader ? { spans: this.spans, macros: { ...reader.macros }, strings: [...reader.strings] } : {}),
    };
    return true;
  }

  /**
   * Reads on; true when the file is read. Entries are converted as they are read, a few hundred at
   * a time (the raw fields were needed for this only; the text keeps them): no slice converts the
   * whole file, and a load at once never holds every raw entry beside every converted one.
   */
  private read(deadline: () => boolean): boolean {
    const format = this.format;
    const reader = format === 'bibtex'
      ? (this.reader ??= new BibtexLibraryReader(this.text))
      : (this.csl ??= format === 'csl-json' ? new CslJsonReader(this.text) : new CslYamlReader(this.text));
    for (;;) {
      let late = false;
      const waiting = () => (this.reader ? this.reader.entries.length : this.csl!.items.length);
      const done = reader.read(() => (late = deadline()) || waiting() >= CONVERT_EVERY);
      if (this.reader) {
        for (const raw of this.reader.entries) {
          this.entries.push(entryFromBibtex(raw, this.ref));
          this.spans.push(raw.start, raw.end);
        }
        this.reader.entries.length = 0;
      } else {
        for (const { item, line } of this.csl!.items) {
          const e = entryFromCsl(item, line, this.ref, format as 'csl-json' | 'csl-yaml');
          if (e) this.entries.push(e);
        }
        this.csl!.items.length = 0;
      }
      if (done) {
        this.problems = reader.problems;
        return true;
      }
      if (late) return false;
    }
  }

  /** The loaded library; throws before {@link step} returned true. */
  result(): LoadedLibrary {
    if (!this.loaded) throw new Error('LibraryLoader.result() before the load finished');
    return this.loaded;
  }
}

/** Entries read between two conversions (see `LibraryLoader.read`). */
const CONVERT_EVERY = 64;

/** Loads a library at once (the CLI, tests); see {@link LibraryLoader}. */
export function loadLibrary(text: string, format: LibraryFormat, ref: LibraryRef): LoadedLibrary {
  const loader = new LibraryLoader(text, format, ref);
  loader.step();
  return loader.result();
}

/**
 * Bumped when the saved form changes, or what the readers read from the same text (3: the BibTeX
 * reader follows BibTeX 0.99d's rules), so that an older cache is read again from the file.
 */
export const LIBRARY_CACHE_VERSION = 3;

/** What every library entry has alike (see `entryBase`), left out of the cache. */
const SHARED = new Set(['topics', 'aliases', 'summary', 'sources', 'seed_urls', 'verified', 'unverified', 'library']);

/**
 * The cache's JSON. Entries leave out what they all have alike (`entryBase`'s empty lists, their
 * library's `uri` and `name`, empty `keywords` and `groups`) and what is worked out again
 * (`sameAs`); spans are base64 (see `base64.ts`).
 */
interface LibraryJson {
  version: number;
  format: LibraryFormat;
  problems: LibraryProblem[];
  spans?: string;
  macros?: Record<string, string>;
  strings?: [string, { start: number; end: number }][];
  entries: Record<string, unknown>[];
  index: LibraryIndexJson;
}

/** Entries per piece of {@link libraryJsonPieces}. */
const ENTRIES_PER_PIECE = 500;

/** An entry as the cache keeps it (see {@link LibraryJson}). */
function compactEntry(e: Entry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in e) if (!SHARED.has(k)) out[k] = e[k as keyof Entry];
  const { uri: _uri, name: _name, sameAs: _sameAs, keywords, groups, ...library } = e.library!;
  out.library = { ...library, ...(keywords.length ? { keywords } : {}), ...(groups.length ? { groups } : {}) };
  return out;
}

/**
 * A loaded library as JSON for the cache (keyed by a hash of the file's text, which it does not
 * hold), in pieces of a few milliseconds' work each: the language server writes them between
 * requests. The pieces joined are {@link libraryToJson}'s text.
 *
 * @throws Error (when the generator runs) for a library whose index was updated since it was built
 */
export function* libraryJsonPieces(lib: LoadedLibrary): Generator<string, void, undefined> {
  for (const piece of jsonPieces(lib)) yield latin1(piece);
}

function* jsonPieces(lib: LoadedLibrary): Generator<string, void, undefined> {
  const head: Omit<LibraryJson, 'entries' | 'index'> = {
    version: LIBRARY_CACHE_VERSION, format: lib.format, problems: lib.problems,
    ...(lib.spans ? { spans: toBase64(Int32Array.from(lib.spans)) } : {}),
    ...(lib.macros ? { macros: lib.macros } : {}), ...(lib.strings ? { strings: lib.strings } : {}),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"entries":[`;
  for (let i = 0; i < lib.entries.length; i += ENTRIES_PER_PIECE) {
    yield (i ? ',' : '') + lib.entries.slice(i, i + ENTRIES_PER_PIECE).map((e) => JSON.stringify(compactEntry(e))).join(',');
  }
  yield '],"index":';
  yield* lib.index.jsonPieces();
  yield '}';
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
export function libraryToJson(lib: LoadedLibrary): string {
  return [...libraryJsonPieces(lib)].join('');
}

/**
 * A library saved with {@link libraryToJson}, for a file at `ref` (its entries' `library.uri` and
 * `name` are set to it: the same text may be at another path).
 *
 * @returns undefined when the JSON is of another version or shape (then the file is read again)
 */
export function libraryFromJson(json: string, ref: LibraryRef): LoadedLibrary | undefined {
  try {
    const data = JSON.parse(json) as LibraryJson;
    if (data?.version !== LIBRARY_CACHE_VERSION || !Array.isArray(data.entries) || !Array.isArray(data.problems) || !data.index) return undefined;
    const base = entryBase();
    for (const e of data.entries) {
      const lib = e?.library as Record<string, unknown> | undefined;
      if (!lib || typeof lib !== 'object') return undefined;
      Object.assign(e, base);
      lib.uri = ref.uri;
      lib.name = ref.name;
      lib.keywords ??= NONE;
      lib.groups ??= NONE;
    }
    const entries = data.entries as unknown as Entry[];
    const index = LibraryIndex.fromJSON(entries, data.index);
    if (!index) return undefined;
    const spans = data.spans === undefined ? undefined : Array.from(int32FromBase64(data.spans));
    if (spans && spans.length !== 2 * entries.length) return undefined;
    return { format: data.format, entries, index, problems: data.problems, spans, macros: data.macros, strings: data.strings };
  } catch {
    // ignored: a damaged cache file is as good as none; the library is read from its file.
    return undefined;
  }
}
