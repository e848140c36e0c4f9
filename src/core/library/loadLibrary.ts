/**
 * Loading one library file, from its text to a searchable {@link LoadedLibrary}: read (BibTeX,
 * CSL-JSON or CSL-YAML), convert to entries, index. In slices, so the language server answers
 * between them; or at once ({@link loadLibrary}) for the CLI and tests. A loaded library is saved
 * for the cache and restored without parsing again in `libraryCacheFormat.ts`.
 */
import type { LibraryEntry } from '../corpus/schema.js';
import { BibtexLibraryReader, type LibraryProblem } from '../bibliography/readBibtex.js';
import { CslJsonReader, type CslReader } from '../bibliography/readCslJson.js';
import { CslYamlReader } from '../bibliography/readCslYaml.js';
import { entryFromBibtex, entryFromCsl, type LibraryRef } from './entries.js';
import { LibraryIndex } from '../search/library/libraryIndex.js';
import type { BibFormat } from '../workspace/bibFormat.js';

/** A library's format: a bibliography's (`bibFormatOf` tells it from the file name, as Pandoc does). */
export type LibraryFormat = BibFormat;

/** A library file, read and indexed. */
export interface LoadedLibrary {
  format: LibraryFormat;
  /** Entries in file order (duplicate keys included; lookups take the first). */
  entries: LibraryEntry[];
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
 * in slices too. A CSL-JSON file is parsed element by element, a CSL-YAML file a few dozen list
 * items at a time (a YAML document the line scan cannot split, one with anchors for instance, is
 * parsed in one piece and converted item by item: see `CslYamlReader`).
 */
export class LibraryLoader {
  private reader?: BibtexLibraryReader;
  private csl?: CslReader;
  private entries: LibraryEntry[] = [];
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
