/**
 * Libraries for the CLI (`--library FILE`): each file read, loaded through the same loader as the
 * language server's (`core/library/loadLibrary.ts`), and cached the same way (`libraryCache.ts`, restored
 * and saved through the store's own `restoreSliced`/`saveSliced`), so a second run does not parse again.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { libraryCacheKey, type LibraryTextId } from '../../core/library/libraryCacheFormat.js';
import { loadLibrary, type LoadedLibrary } from '../../core/library/loadLibrary.js';
import { restoreSliced, saveSliced } from '../../server/libraryLoading.js';
import { fileKind, isBibliography } from '../../core/workspace/fileKind.js';
import { decodeForReading } from '../../core/text/utf8.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../../core/config/fileLimits.js';
import { readProblem, readRegularFileSync } from './regularFiles.js';
import { defaultCacheDir, nodeLibraryCache, sha256 } from './libraryCache.js';
import { problemMessage } from '../../core/text/problemText.js';

/** A library file as the CLI loaded it. */
export interface CliLibrary {
  /** As given on the command line. */
  path: string;
  /** Its `file:` URI, as its entries' `library.uri` has it. */
  uri: string;
  text: string;
  lib: LoadedLibrary;
  cached: boolean;
}

/** Why a `--library` file cannot be used at all (the CLI reports it as a usage error). */
export class LibraryFileError extends Error {}

/**
 * Loads library files.
 *
 * @param paths - as given (relative to the working directory, or absolute)
 * @param opts.cacheDir - the cache folder (default: `$XDG_CACHE_HOME/mlsys-papers`); `false`: no cache
 * @param opts.warn - where a cache that cannot be read or written is reported
 * @param opts.maxBytes - the largest library read, in bytes (default: `DEFAULT_MAX_FILE_MB`)
 * @returns the libraries in order, and each broken entry as `file:line:column: message`
 * @throws LibraryFileError for a file that is missing, a folder, not a regular file (a FIFO, a
 *   device, `/dev/stdin`), larger than the cap, not UTF-8, or not `.bib`/`.json`/`.yaml`
 */
export async function loadLibraryFiles(paths: readonly string[], opts: { cacheDir?: string | false; warn?: (m: string) => void; maxBytes?: number } = {}): Promise<{ libraries: CliLibrary[]; problems: string[] }> {
  const maxBytes = opts.maxBytes ?? maxFileBytes(DEFAULT_MAX_FILE_MB);
  const cache = opts.cacheDir === false ? undefined : nodeLibraryCache(opts.cacheDir ?? defaultCacheDir(), opts.warn);
  const libraries: CliLibrary[] = [];
  // The store's slices, run back to back: a one-shot command has no other request to let through.
  const host = { yield: () => new Promise<void>((done) => setImmediate(done)), now: () => performance.now() };
  const log = { info: () => {}, warn: (m: string) => opts.warn?.(m), error: (e: Error | string) => opts.warn?.(`library cache: ${e instanceof Error ? e.message : e}`) };
  const problems: string[] = [];
  for (const path of paths) {
    const kind = fileKind(path);
    const format = isBibliography(kind) ? kind : undefined;
    if (!format) throw new LibraryFileError(`--library ${path}: not a library (.bib, .json or .yaml)`);
    // Stat first, then read through the checked descriptor: a one-shot command may block, but not on a FIFO.
    const read = readRegularFileSync(path, maxBytes);
    if (read.kind !== 'file') throw new LibraryFileError(`--library ${path}: ${readProblem(read, maxBytes)}`);
    // A library is only read (never written): an 8-bit one is read as Windows-1252, as BibTeX reads bytes.
    const { text, utf8 } = decodeForReading(read.bytes);
    if (!utf8 && format !== 'bibtex') throw new LibraryFileError(`--library ${path}: not UTF-8 text`);
    if (!utf8) opts.warn?.(`${path}: not UTF-8; read as Windows-1252 (Latin-1)`);
    const ref = { uri: pathToFileURL(resolve(path)).toString(), name: basename(path) };
    // The cache is of this text read as this format (a file renamed from .json to .bib is read again).
    const textId: LibraryTextId = { hash: sha256(text), length: text.length, format };
    const key = libraryCacheKey(textId);
    const saved = cache && (await cache.get(key));
    const restored = saved ? await restoreSliced(host, log, saved, ref, textId, text, () => {}, () => true) : undefined;
    // Reported once: the file is read, and its cache written again (the same key).
    if (restored && 'miss' in restored) opts.warn?.(`library cache: the cached copy of ${path} is not used (${restored.miss}); reading the file`);
    let lib = restored && 'lib' in restored ? restored.lib : undefined;
    const cached = !!lib;
    if (!lib) {
      lib = loadLibrary(text, format, ref);
      const loaded = lib;
      // In pieces: the JSON of a large library is never one string in memory.
      if (cache) await saveSliced(host, log, path, cache, key, textId, loaded, () => true);
    }
    for (const p of lib.file.problems ?? []) problems.push(`${path}:${p.line}:${p.column}: ${problemMessage(p)}`);
    libraries.push({ path, uri: ref.uri, text, lib, cached });
  }
  return { libraries, problems };
}
