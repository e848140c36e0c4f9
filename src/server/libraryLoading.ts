/**
 * Loading and caching a library in the language server: what the store needs from its host, and
 * the cache's restore and save run in slices between other requests (a cached library of 100,000
 * entries is tens of megabytes of JSON). The cache's format and checks are the core's
 * (`core/library/libraryCacheFormat.ts`: `libraryCacheKey`, `LibraryRestorer`, `libraryJsonPieces`); the
 * CLI's `--library` loader (`host/node/libraries.ts`) restores and saves through these two
 * functions too.
 */
import type { BibFile } from '../core/bibliography/bibFile.js';
import type { LibraryRef } from '../core/library/entries.js';
import { libraryJsonPieces, LibraryRestorer, type LibraryTextId, type RestoreResult } from '../core/library/libraryCacheFormat.js';
import type { LoadedLibrary } from '../core/library/loadLibrary.js';
import type { URI } from 'vscode-uri';
import type { Logger } from '../core/config/logger.js';

/**
 * A cache of loaded libraries, by key (`libraryCacheKey`; the host decides where: the extension's
 * global storage, `~/.cache/mlsys-papers`). What it gives back is checked before it is used.
 */
export interface LibraryCache {
  /** The value saved under a key; undefined when there is none, or it cannot be read (the host reports why). */
  get(key: string): Promise<string | undefined>;
  /**
   * Saves a value: whole, or in pieces that come as they are made (stored in order, joined; when
   * the pieces throw, nothing is saved and `set` rejects with that error).
   */
  set(key: string, value: string | AsyncIterable<string>): Promise<void>;
}

/** What the store needs from the server. */
export interface LibraryStoreHost {
  /**
   * The file's text (a byte-order mark kept: the store drops it) and, when known, its stamp (what
   * the citation service's `BibWorkspace.stamp` gives for that text), or why it cannot be read.
   */
  read(uri: URI): Promise<{ text: string; stamp?: string } | { problem: string }>;
  /** The file's stamp now, as {@link read} would give it (undefined: unknown, or no such file); absent: never compared. */
  stamp?(uri: URI): Promise<string | undefined>;
  /**
   * Publishes a BibTeX library's reading of the text of that stamp into the bibliography cache the
   * citation service reads (`BibCache.publish`): `reading` is called when the service first asks,
   * and gives undefined once the store's reading has moved on.
   */
  publish?(uri: URI, stamp: string, reading: () => BibFile | undefined): void;
  /** A hash of a text for the cache key (Node: SHA-256); absent: FNV-1a (the key holds the text's length and format too). */
  hash?(text: string): string;
  cache?: LibraryCache;
  /** Lets other work run (a macrotask). */
  yield(): Promise<void>;
  /** Milliseconds, for slicing. */
  now(): number;
}

/** Work per slice before other requests get their turn (ms). */
export const SLICE_MS = 12;

/**
 * Restores a cached library in slices of {@link SLICE_MS} (at 100,000 entries the JSON is tens of
 * megabytes: parsed at once it held every request for most of a second).
 *
 * @returns the library or why the cache is not used; undefined when the load was cancelled meanwhile
 */
export async function restoreSliced(host: Pick<LibraryStoreHost, 'yield' | 'now'>, log: Logger, saved: string, ref: LibraryRef, textId: LibraryTextId, text: string, progress: (done: number, total: number) => void, current: () => boolean): Promise<RestoreResult | undefined> {
  const restorer = new LibraryRestorer(saved, ref, textId, text);
  for (;;) {
    const until = host.now() + SLICE_MS;
    try {
      if (restorer.step(() => host.now() > until)) return restorer.result();
    } catch (e) {
      // A defect of ours, not of the cache (the restorer turns every fault of the cache into a
      // miss): logged with its cause, and the file read instead.
      log.error(e instanceof Error ? e : String(e));
      return { miss: 'not restored' };
    }
    const p = restorer.progress;
    progress(p.done, p.total);
    await host.yield();
    if (!current()) return undefined;
  }
}

/**
 * Saves a loaded library to the cache in slices of {@link SLICE_MS} between other work (at
 * 100,000 entries the JSON is tens of megabytes), while it is `unchanged()`: an edit or a reload
 * cancels the save (the cache is keyed by the text that was loaded).
 */
export async function saveSliced(host: Pick<LibraryStoreHost, 'yield' | 'now'>, log: Logger, name: string, cache: LibraryCache, key: string, textId: LibraryTextId, lib: LoadedLibrary, unchanged: () => boolean): Promise<void> {
  const cancelled = new Error('the library changed while it was saved');
  async function* slices(): AsyncGenerator<string, void, undefined> {
    const pieces = libraryJsonPieces(lib, textId);
    for (let done = false; !done;) {
      await host.yield();
      if (!unchanged()) throw cancelled;
      const until = host.now() + SLICE_MS;
      const out: string[] = [];
      do {
        const r = pieces.next();
        if (r.done) done = true; else out.push(r.value);
      } while (!done && host.now() < until);
      yield out.join('');
    }
  }
  await host.yield();
  // After the first search, not before it.
  if (!unchanged()) return;
  try {
    await cache.set(key, slices());
  } catch (e) {
    // A save cancelled by an edit is no failure: the edited text is another key.
    if (e !== cancelled) log.warn(`library cache: cannot save ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

