/**
 * Loading one library file, from its text to a searchable {@link LoadedLibrary}: read (BibTeX,
 * CSL-JSON or CSL-YAML), convert to entries, index. In slices, so the language server answers
 * between them; or at once ({@link loadLibrary}) for the CLI and tests. A loaded library can be
 * saved as JSON for the cache ({@link libraryToJson}) and restored without parsing again.
 */
import type { Entry } from '../schema.js';
import { BibtexLibraryReader, type LibraryProblem } from './bibtex.js';
import { readCslJsonLibrary, readCslYamlLibrary } from './csl.js';
import { entryFromBibtex, entryFromCsl, type LibraryRef } from './entries.js';
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
  /** `read`: parsing (`done` of `total` entries, estimated); `index`: indexing (`done` of `total`). */
  phase: 'read' | 'index';
  done: number;
  total: number;
}

/**
 * Loads a library in slices: call {@link step} with a deadline until it returns true, then take
 * {@link result}. Converting and indexing run after reading, each in slices too.
 */
export class LibraryLoader {
  private reader?: BibtexLibraryReader;
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
  constructor(private readonly text: string, private readonly format: LibraryFormat, private readonly ref: LibraryRef) {
    if (format === 'bibtex') this.reader = new BibtexLibraryReader(text);
    else {
      const csl = format === 'csl-json' ? readCslJsonLibrary(text) : readCslYamlLibrary(text);
      this.problems = csl.problems;
      for (const { item, line } of csl.items) {
        const e = entryFromCsl(item, line, ref, format);
        if (e) this.entries.push(e);
      }
    }
  }

  /** Where the load is. */
  get progress(): LoadProgress {
    if (this.builder) return { phase: 'index', done: this.builder.done, total: this.entries.length };
    if (this.reader) return { phase: 'read', done: this.reader.done, total: this.reader.total };
    return { phase: 'index', done: 0, total: this.entries.length };
  }

  /**
   * Works until done or `deadline()` (asked every few entries) says to stop.
   *
   * @returns true when the library is loaded ({@link result})
   */
  step(deadline: () => boolean = () => false): boolean {
    if (this.loaded) return true;
    const reader = this.reader;
    if (reader && !this.builder) {
      const done = reader.read(deadline);
      // Entries read so far are final: convert them now (the fields were needed for this only;
      // the text keeps them), so no slice converts the whole file at once.
      for (const raw of reader.entries) {
        this.entries.push(entryFromBibtex(raw, this.ref));
        this.spans.push(raw.start, raw.end);
      }
      reader.entries.length = 0;
      if (!done) return false;
      this.problems = reader.problems;
    }
    this.builder ??= LibraryIndex.builder(this.entries);
    const index = this.builder.step(deadline);
    if (!index) return false;
    this.loaded = {
      format: this.format, entries: this.entries, index, problems: this.problems,
      ...(reader ? { spans: this.spans, macros: { ...reader.macros }, strings: [...reader.strings] } : {}),
    };
    return true;
  }

  /** The loaded library; throws before {@link step} returned true. */
  result(): LoadedLibrary {
    if (!this.loaded) throw new Error('LibraryLoader.result() before the load finished');
    return this.loaded;
  }
}

/** Loads a library at once (the CLI, tests); see {@link LibraryLoader}. */
export function loadLibrary(text: string, format: LibraryFormat, ref: LibraryRef): LoadedLibrary {
  const loader = new LibraryLoader(text, format, ref);
  loader.step();
  return loader.result();
}

/** Bumped when the saved form changes, so that an older cache is read again from the file. */
export const LIBRARY_CACHE_VERSION = 1;

interface LibraryJson {
  version: number;
  format: LibraryFormat;
  entries: Entry[];
  problems: LibraryProblem[];
  spans?: number[];
  macros?: Record<string, string>;
  strings?: [string, { start: number; end: number }][];
  index: LibraryIndexJson;
}

/** A loaded library as JSON, for the cache (keyed by a hash of the file's text, which it does not hold). */
export function libraryToJson(lib: LoadedLibrary): string {
  const json: LibraryJson = {
    version: LIBRARY_CACHE_VERSION, format: lib.format, entries: lib.entries, problems: lib.problems,
    spans: lib.spans, macros: lib.macros, strings: lib.strings, index: lib.index.toJSON(),
  };
  return JSON.stringify(json);
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
    for (const e of data.entries) {
      if (!e?.library) return undefined;
      e.library.uri = ref.uri;
      e.library.name = ref.name;
    }
    const index = LibraryIndex.fromJSON(data.entries, data.index);
    if (!index) return undefined;
    return { format: data.format, entries: data.entries, index, problems: data.problems, spans: data.spans, macros: data.macros, strings: data.strings };
  } catch {
    // ignored: a damaged cache file is as good as none; the library is read from its file.
    return undefined;
  }
}
