/**
 * What the language server needs from where it runs (`ServerHost`: file access, the bundled data,
 * the library cache) and the clock its debounces run on. Hosts: `host/node/nodeServerHost.ts`,
 * `host/browser/browserServerHost.ts`; tests give their own.
 */
import type { URI } from 'vscode-uri';
import type { CorpusData } from '../core/corpus/readCorpus.js';
import type { LibraryCache } from './libraryStore.js';

/**
 * The stamp of a file on disk, the one format every host and the client's answers share: `m…`
 * for a file, `d…` for a folder, `s…` for anything else (a device, a FIFO); neither of the last
 * two is a file the service reads.
 *
 * @param mtime - modification time, in any unit the same host keeps to
 * @param size - size in bytes
 * @param directory - whether it is a folder (true), not a regular file at all (`special`), or a file (false)
 */
export function fileStampOf(mtime: number, size: number, directory: boolean | 'special' = false): string {
  return `${directory === 'special' ? 's' : directory ? 'd' : 'm'}${mtime}:${size}`;
}

/**
 * A file as the host reads it; `stamp` as {@link fileStampOf} makes it. `notFile`: neither a
 * regular file nor a folder (a device, a FIFO, `/dev/stdin`), never read; `tooLarge`: over the
 * size cap (`size` bytes), never read.
 */
export type HostFile =
  | { text: string; stamp: string } | { notUtf8: true; stamp: string; /** The bytes read as Windows-1252 (`decodeForReading`), for reading only: never written back. */ legacyText?: string } | { directory: true; stamp: string }
  | { notFile: true; stamp: string } | { tooLarge: true; size: number; stamp: string } | undefined;

/**
 * The extension's own files as the client gives them, for a host with no file access of its own:
 * the corpus sent with `initialize` (`initializationOptions.bundledCorpus`) and any other file on
 * request (`mlsysPapers/readBundled`). Undefined where the client gives none.
 */
export interface BundledFiles {
  /** The text of `dist/corpus.json`. */
  readonly corpus: string | undefined;
  /** A file by its path in the package (`csl/styles/apa.csl`); undefined when the client has none. */
  read(path: string): Promise<string | undefined>;
}

/**
 * A file system the server reads through: the host's own (Node: `node:fs`, for `file:` URIs) or
 * the client's (`clientFileSystem.ts`: `mlsysPapers/readFile`, `mlsysPapers/stat`,
 * `mlsysPapers/findFiles`), chosen once at `initialize` (`ServerContext.initialize`). Either is
 * overlaid by the open documents (`serverWorkspace.ts`). A file it cannot reach is missing.
 */
export interface HostFileSystem {
  /**
   * Reads a file without blocking the server's thread: stat first (following symlinks), and only
   * a regular file of at most `maxBytes` is read.
   *
   * @param maxBytes - the size cap in bytes (`mlsysPapers.maxFileSizeMB`)
   * @returns the file, or undefined when it does not exist or cannot be read
   */
  readFile(uri: URI, maxBytes: number): Promise<HostFile>;
  /** What changes when the file changes, without reading it ({@link fileStampOf}); undefined when missing. */
  stamp(uri: URI): Promise<string | undefined>;
  /**
   * A file's real path (`WorkspaceFiles.realPath`: symlinks resolved; for a file not there yet,
   * its nearest existing folder's real path plus the rest), for every "inside the workspace" and
   * "is this a library" decision. A file system that sees no symlink (the client's) gives the
   * URI normalised.
   */
  realPath(uri: URI): Promise<URI | undefined>;
  /** Whether names are compared ignoring case (real paths are then compared case-folded). */
  readonly foldsCase: boolean;
  /**
   * The regular files under some folders whose names end with one of `extensions` (`.tex`),
   * without following symbolic links or entering hidden folders; at most `limit`.
   */
  listFiles(folders: readonly URI[], extensions: readonly string[], limit: number): Promise<URI[]>;
}

/** What the server needs from where it runs. */
export interface ServerHost {
  /**
   * The host's own file system (Node: `file:` URIs), used when every workspace folder is a
   * `file:` URI. Absent (the browser), or for other folders, the client's is used
   * (`clientFileSystem.ts`), when the client offers one (`initializationOptions.fileSystem`).
   */
  fileSystem?: HostFileSystem;
  /**
   * The compiled bundled corpus (`dist/corpus.json`).
   *
   * @param client - reads the extension's own files through the client (`mlsysPapers/readBundled`),
   *   for a host that has none of its own
   */
  bundledCorpus(client: BundledFiles): CorpusData | Promise<CorpusData>;
  /** A bundled CSL file by path under `csl/` (`styles/apa.csl`, `locales/locales-en-US.xml`); `client` as for {@link bundledCorpus}. */
  bundledCsl(path: string, client: BundledFiles): string | undefined | Promise<string | undefined>;
  /** citeproc-js and our formatter (`core/cite/citeproc.ts`), loaded on the first formatted reference. */
  loadCsl(): Promise<typeof import('../core/cite/citeproc.js')>;
  /** The user's home folder, for `~` in settings; absent where there is none (the web). */
  home?: string;
  /**
   * Where loaded libraries are cached; absent: none is. `dir` is the client's choice
   * (`initializationOptions.cacheDir`: the extension's global storage).
   */
  libraryCache?(dir: string | undefined, warn: (message: string) => void): LibraryCache | undefined;
  /** A strong hash of a text, for cache keys (Node: SHA-256); absent: FNV-1a with the length. */
  hash?(text: string): string;
  /** The clock the server's timers run on; absent: {@link REAL_CLOCK}. */
  clock?: Clock;
}

/**
 * The clock the server's timers run on: every debounce (the 200 ms library reload, the 300 ms
 * pauses, the 2 s pull watch, the 5 s open-document wait) and the library loads' slices. Injected
 * so that tests drive it; {@link REAL_CLOCK} by default.
 */
export interface Clock {
  /** A monotonic time in ms (`performance.now()`). */
  now(): number;
  /** Runs `run` after `ms` milliseconds; the handle is for {@link clearTimeout}. */
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The global clock. It looks the globals up at each call, not once at start, so that a test's
 * `vi.useFakeTimers()` after the server started still takes over its timers.
 */
export const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};
