/**
 * Libraries for the CLI (`--library FILE`): each file read, loaded through the same loader as the
 * language server's (`core/library/load.ts`), and cached the same way (`libraryCache.ts`), so a
 * second run does not parse again.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { libraryCacheKey, libraryJsonPieces, loadLibrary, restoreLibrary, type LibraryTextId, type LoadedLibrary } from '../../core/library/load.js';
import { bibFormatOf } from '../../core/bib/sync.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../../core/fileLimits.js';
import { readProblem, readRegularFileSync } from './files.js';
import { defaultCacheDir, nodeLibraryCache, sha256 } from './libraryCache.js';

/** A library file as the CLI loaded it. */
export interface CliLibrary {
  /** As given on the command line. */
  path: string;
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
  const problems: string[] = [];
  for (const path of paths) {
    const format = bibFormatOf(path);
    if (!format) throw new LibraryFileError(`--library ${path}: not a library (.bib, .json or .yaml)`);
    // Stat first, then read through the checked descriptor: a one-shot command may block, but not on a FIFO.
    const read = readRegularFileSync(path, maxBytes);
    if (read.kind !== 'file') throw new LibraryFileError(`--library ${path}: ${readProblem(read, maxBytes)}`);
    const text = decodeUtf8(read.bytes);
    if (text === undefined) throw new LibraryFileError(`--library ${path}: not UTF-8 text`);
    const ref = { uri: pathToFileURL(resolve(path)).toString(), name: basename(path) };
    // The cache is of this text read as this format (a file renamed from .json to .bib is read again).
    const textId: LibraryTextId = { hash: sha256(text), length: text.length, format };
    const key = libraryCacheKey(textId);
    const saved = cache && (await cache.get(key));
    const restored = saved ? restoreLibrary(saved, ref, textId) : undefined;
    // Reported once: the file is read, and its cache written again (the same key).
    if (restored && 'miss' in restored) opts.warn?.(`library cache: the cached copy of ${path} is not used (${restored.miss}); reading the file`);
    let lib = restored && 'lib' in restored ? restored.lib : undefined;
    const cached = !!lib;
    if (!lib) {
      lib = loadLibrary(text, format, ref);
      const loaded = lib;
      // In pieces: the JSON of a large library is never one string in memory.
      if (cache) await cache.set(key, (async function* () { yield* libraryJsonPieces(loaded, textId); })()).catch((e: unknown) => opts.warn?.(`library cache: cannot save ${path}: ${e instanceof Error ? e.message : String(e)}`));
    }
    for (const p of lib.problems) problems.push(`${path}:${p.line}:${p.column}: ${p.message}`);
    libraries.push({ path, text, lib, cached });
  }
  return { libraries, problems };
}
