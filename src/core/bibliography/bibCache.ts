/**
 * The one cache of what bibliography files (and the other files a document's bibliography is
 * worked out from) gave, by URI and stamp: the citation service reads it, and in the language
 * server the library store fills it too (issue 22).
 */
import type { URI } from 'vscode-uri';
import { bibFormatOf } from '../workspace/bibFormat.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import { readBibFileSliced, type BibFile } from './bibFile.js';

/** The {@link BibCache} kind of bibliography files (made by `readBibFile`); a host's readings of bibliography files fill it too. */
const BIB = 'bib';

/**
 * Where a host has already read bibliography files (the language server's library store, which reads an
 * open `.bib` again only where it changed), so that {@link BibCache} does not parse them again.
 */
export interface BibReadings {
  /**
   * A bibliography file's reading of exactly `text`: the one model, a {@link BibFile}, as
   * `readBibFile` gives it (the same one reader). The host may bring its reading to `text` first (an edit read
   * where it changed), or wait for a load under way.
   *
   * @returns undefined when the host holds no reading of this file (it is then parsed here)
   */
  readingOf(uri: URI, text: string): Promise<BibFile | undefined>;
}

/**
 * What files' texts gave, keyed by URI and by what would change them ({@link WorkspaceFiles.stamp}):
 * the one cache of bibliography files. Completion and diagnostics ask on every change of a
 * document; a large `.bib` is read and parsed once per change of that file. In the language server
 * the library store shares it: it publishes each library's reading ({@link publish}), and a
 * bibliography file the cache does not hold is asked of it ({@link BibReadings}) before it is parsed, so a
 * file that is both a library and a document's bibliography is parsed once, and an edit of it is
 * read again only where it changed (issue 22). Bounded: the least recently used file goes first.
 */
export class BibCache {
  private readonly entries = new Map<string, { stamp: string; value: unknown; later?: () => unknown }>();
  /** Files being read, by id: a second request for the same stamp waits for the same read (a request and the library reload at start, or two pulls, read a file once). */
  private readonly underWay = new Map<string, { stamp: string; value: Promise<unknown> }>();

  /**
   * @param limit - how many files it keeps at most
   * @param readings - a host's own readings of bibliography files, asked before one is parsed
   * @param pause - when given, a CSL-JSON or CSL-YAML bibliography is read in slices with a
   *   `pause()` between them (`readBibFileSliced`), instead of by `make` at once: the language
   *   server's `yield`, so that requests run while a large file is read
   */
  constructor(private readonly limit = 64, private readonly readings?: BibReadings, private readonly pause?: () => Promise<void>) {}

  /**
   * What `make` gives for a file's current text, made once per stamp. For `kind` `'bib'` (a
   * bibliography file, `make` being `readBibFile`), a file a host has read
   * ({@link BibReadings}) is taken from it instead of made.
   *
   * @returns `make(text)` for the file's current text, or null when the file does not exist
   */
  async get<T>(ws: WorkspaceFiles, uri: URI, kind: string, make: (text: string) => T | Promise<T>): Promise<T | null> {
    const stamp = await ws.stamp(uri);
    const id = `${kind}:${uri.toString()}`;
    const hit = stamp !== undefined ? this.entries.get(id) : undefined;
    if (hit && hit.stamp === stamp && this.settled(hit)) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.value as T;
    }
    const sliced = kind === BIB && this.pause && bibFormatOf(uri.path)?.startsWith('csl-');
    const under = stamp !== undefined ? this.underWay.get(id) : undefined;
    if (under && under.stamp === stamp) return await under.value as T | null;
    const read = (async () => {
      const text = await ws.readText(uri);
      if (text === undefined) return null;
      const host = kind === BIB ? await this.readings?.readingOf(uri, text) : undefined;
      const value = (host ?? (sliced ? await readBibFileSliced(uri.path, text, this.pause!) : undefined)) as T | undefined ?? await make(text);
      if (stamp !== undefined) this.set(id, { stamp, value });
      return value;
    })();
    if (stamp === undefined) return read;
    const mine = { stamp, value: read };
    this.underWay.set(id, mine);
    try {
      return await read;
    } finally {
      if (this.underWay.get(id) === mine) this.underWay.delete(id);
    }
  }

  /**
   * Publishes a host's reading of a BibTeX file (the library store's, when it has loaded the file
   * or read an edit of it), under the stamp of the text it read, so that the next {@link get} of
   * that file finds it without reading the file.
   *
   * @param stamp - the {@link WorkspaceFiles.stamp} of the reading's text, taken before the text was read
   * @param reading - called on the first hit; undefined when the host's reading has moved on
   *   since (the entry is then a miss)
   */
  publish(uri: URI, stamp: string, reading: () => BibFile | undefined): void {
    this.set(`${BIB}:${uri.toString()}`, { stamp, value: undefined, later: reading });
  }

  /** Forgets every file. */
  clear(): void {
    this.entries.clear();
  }

  /** Whether an entry has its value, asking a published reading for it on first use. */
  private settled(hit: { value: unknown; later?: () => unknown }): boolean {
    if (!hit.later) return true;
    hit.value = hit.later();
    hit.later = undefined;
    return hit.value !== undefined;
  }

  private set(id: string, entry: { stamp: string; value: unknown; later?: () => unknown }): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}
