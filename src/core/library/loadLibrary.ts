/**
 * Loading one library file, from its text to a searchable {@link LoadedLibrary}: read (BibTeX,
 * CSL-JSON or CSL-YAML) into the one model of a bibliography file, a `BibFile` (what a document's
 * bibliography is too), convert its entries for search, index. In slices, so the language server answers
 * between them; or at once ({@link loadLibrary}) for the CLI and tests. A loaded library is saved
 * for the cache and restored without parsing again in `libraryCacheFormat.ts`.
 */
import type { LibraryEntry } from '../corpus/schema.js';
import { bibEntryAt, firstError, type BibEntry, type BibtexSource } from '../bibliography/bibtexFile.js';
import { cslEntry, type BibFile } from '../bibliography/bibFile.js';
import { BibtexLibraryReader, type LibraryProblem } from '../bibliography/readBibtex.js';
import { CslJsonReader, type CslReader } from '../bibliography/readCslJson.js';
import { CslYamlReader } from '../bibliography/readCslYaml.js';
import { entryFromBibtex, entryFromCsl, type LibraryRef } from './entries.js';
import { LibraryIndex } from '../search/library/libraryIndex.js';
import type { BibFormat } from '../workspace/bibFormat.js';

/** A library's format: a bibliography's (`bibFormatOf` tells it from the file name, as Pandoc does). */
export type LibraryFormat = BibFormat;

/**
 * A library file, read and indexed: the file as its format's one reader reads it (`file`, the
 * `BibFile` a document's bibliography is), and an index over it: each of its entries converted for
 * search (`entries`, in the same order) and the search index of those.
 */
export interface LoadedLibrary {
  /**
   * The file as read: its format, its entries (a BibTeX entry with its `[start, end)` offsets and
   * line, its fields read from `file.text` when first asked for; a CSL item as read), its problems,
   * and for BibTeX its macros and `@string` commands. Its `path` is the library's URI.
   *
   * An entry broken after its key is left out (`parseBib` keeps it, as BibTeX does: see
   * {@link sharedReading}).
   */
  file: BibFile & { entries: BibEntry[] };
  /** `file.entries` converted for search, one for one and in file order (duplicate keys included; lookups take the first). */
  entries: LibraryEntry[];
  index: LibraryIndex;
  /** Restored from the cache, which keeps a CSL item's `library.csl` but not its offsets (`start`, `keyStart`). */
  restored?: true;
}

/**
 * A library's reading as a document's bibliography reads the same text (`readBibFile`), when it
 * is that: a BibTeX library without an error-level problem (with one, `parseBib` keeps an entry
 * broken after its key, which a library leaves out), or a CSL library read from its text (one
 * restored from the cache has no items' offsets, which the planners use: it is parsed again for a
 * document).
 *
 * @returns the library's `file`, or undefined when a document's bibliography must be read itself
 */
export function sharedReading(lib: LoadedLibrary): BibFile | undefined {
  const { file } = lib;
  return (file.format === 'bibtex' ? !file.error : !lib.restored) ? file : undefined;
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
  /** The file's entries, one per `entries` (BibTeX's fields read from the text when asked). */
  private fileEntries: BibEntry[] = [];
  private problems: LibraryProblem[] = [];
  /** Where BibTeX entries read their fields from; its macros are set once the file is read. */
  private readonly source: { text: string; macros: Readonly<Record<string, string>> };
  private builder?: ReturnType<typeof LibraryIndex.builder>;
  private loaded?: LoadedLibrary;

  /**
   * @param text - the file's text
   * @param format - its format
   * @param ref - the library's URI and name, for each entry's `library`
   */
  constructor(private readonly text: string, private readonly format: LibraryFormat, private readonly ref: LibraryRef) {
    this.source = { text, macros: {} } satisfies BibtexSource;
  }

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
    const r = this.reader;
    const bibtex = r && { macros: this.source.macros, strings: r.strings, commented: r.commented };
    this.loaded = { file: libraryFile(this.ref, this.format, this.text, this.fileEntries, this.problems, bibtex), entries: this.entries, index };
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
          this.fileEntries.push(bibEntryAt(raw, this.source));
        }
        this.reader.entries.length = 0;
      } else {
        for (const read of this.csl!.items) {
          const e = entryFromCsl(read.item, read.line, this.ref, format as 'csl-json' | 'csl-yaml');
          if (!e) continue;
          this.entries.push(e);
          this.fileEntries.push(cslEntry(read));
        }
        this.csl!.items.length = 0;
      }
      if (done) {
        this.problems = reader.problems;
        if (this.reader) this.source.macros = { ...this.reader.macros };
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

/**
 * A library's {@link BibFile}: what `readBibFile` gives for the same text (but see
 * {@link LoadedLibrary.file}), from the entries read; for BibTeX, the reader's macros, `@string`
 * commands and commented-out keys.
 *
 * @param macros - BibTeX: the macros the entries read their fields with (the reader's at the file's end)
 */
export function libraryFile(
  ref: LibraryRef, format: LibraryFormat, text: string, entries: BibEntry[], problems: LibraryProblem[],
  bibtex?: { macros: Readonly<Record<string, string>>; strings: Iterable<[string, { start: number; end: number }]>; commented?: string[] },
): LoadedLibrary['file'] {
  return {
    path: ref.uri, format, text, entries, problems,
    ...firstError(problems),
    ...(bibtex ? { macros: bibtex.macros, strings: [...bibtex.strings], ...(bibtex.commented?.length ? { commented: [...bibtex.commented] } : {}) } : {}),
  };
}

/** Entries read between two conversions (see `LibraryLoader.read`). */
const CONVERT_EVERY = 64;

/** Loads a library at once (the CLI, tests); see {@link LibraryLoader}. */
export function loadLibrary(text: string, format: LibraryFormat, ref: LibraryRef): LoadedLibrary {
  const loader = new LibraryLoader(text, format, ref);
  loader.step();
  return loader.result();
}
