/**
 * The language server in a Node process: `dist/server.js` (started by the VS Code client over
 * IPC) and `mlsys-papers lsp --stdio` (other editors). Files with `file:` URIs are read from disk,
 * asynchronously, regular files only and within the size cap (`mlsysPapers.maxFileSizeMB`); the
 * bundled corpus and CSL files are read from the installation beside this script.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { URI, Utils } from 'vscode-uri';
import type { CorpusData } from '../../core/corpus/readCorpus.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../../core/config/fileLimits.js';
import { decodeForReading } from '../../core/text/utf8.js';
import { fileStampOf, startServer, type HostFile, type HostFileSystem, type ServerHost } from '../../server/server.js';
import { FOLDS_CASE, readRegularFile, realPathOf, statIfAny } from './regularFiles.js';
import { defaultCacheDir, nodeLibraryCache, sha256 } from './libraryCache.js';

/**
 * Reads a `file:` URI: its text (UTF-8, BOM kept), `notUtf8`, `directory`, `notFile` (a device, a
 * FIFO, a socket: never opened for long, never read), `tooLarge`, or undefined when missing or
 * unreadable; null for other schemes.
 *
 * @param maxBytes - the largest file read, in bytes (default: `DEFAULT_MAX_FILE_MB`)
 * @param warn - told why a file that exists cannot be read (default: a line on stderr, which LSP
 *   clients show as the server's log)
 */
export async function readNodeFile(uri: { scheme: string; fsPath: string }, maxBytes = maxFileBytes(DEFAULT_MAX_FILE_MB), warn: (message: string) => void = stderrLine): Promise<HostFile | null> {
  if (uri.scheme !== 'file') return null;
  const r = await readRegularFile(uri.fsPath, maxBytes);
  switch (r.kind) {
    case 'missing': return undefined;
    case 'error':
      // Unreadable (permissions, a file removed between stat and read): as missing, with the cause logged.
      warn(`mlsys-papers: cannot read ${uri.fsPath}: ${r.message}`);
      return undefined;
    case 'directory': return { directory: true, stamp: fileStampOf(r.mtimeMs, r.size, true) };
    case 'notFile': return { notFile: true, stamp: fileStampOf(r.mtimeMs, r.size, 'special') };
    case 'tooLarge': return { tooLarge: true, size: r.size, stamp: fileStampOf(r.mtimeMs, r.size) };
    case 'file': {
      const stamp = fileStampOf(r.mtimeMs, r.size);
      const { text, utf8 } = decodeForReading(r.bytes);
      return utf8 ? { text, stamp } : { notUtf8: true, legacyText: text, stamp };
    }
  }
}

/** Writes one line to stderr (the server's log in an LSP client; a terminal for the CLI). */
function stderrLine(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * A `file:` URI's stamp ({@link fileStampOf}: modification time and size; `d…` for a folder, `s…`
 * for anything but a regular file), undefined when missing; null for other schemes.
 */
export async function statNodeFile(uri: { scheme: string; fsPath: string }): Promise<string | undefined | null> {
  if (uri.scheme !== 'file') return null;
  const st = await statIfAny(uri.fsPath);
  return st && fileStampOf(st.mtimeMs, st.size, st.isDirectory() || (st.isFile() ? false : 'special'));
}

/** A `file:` URI's real path ({@link realPathOf}); other schemes as they are. */
export async function realNodePath(uri: URI): Promise<URI | undefined> {
  if (uri.scheme !== 'file') return uri;
  const real = await realPathOf(uri.fsPath);
  return real === undefined ? undefined : URI.file(real);
}

/** Folders never listed: version control, dependencies and build output that hold no paper of the user's. */
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__']);
/** At most this many folders are read by one listing (a workspace that is a home folder is not walked whole). */
const FOLDER_LIMIT = 50_000;

/**
 * The regular files under `file:` folders whose names end with one of `extensions` (compared
 * ignoring case), breadth first: symbolic links are not followed, hidden folders (`.git`) and
 * `node_modules` are not entered, an unreadable folder is skipped with a warning, and the walk stops
 * (with a warning) after 50,000 folders.
 *
 * @param limit - stop after this many files
 * @returns null when a folder is not a `file:` URI (the client lists it)
 */
export async function listNodeFiles(folders: readonly URI[], extensions: readonly string[], limit: number, warn: (message: string) => void = stderrLine): Promise<URI[] | null> {
  if (folders.some((f) => f.scheme !== 'file')) return null;
  const ends = extensions.map((e) => e.toLowerCase());
  const out: URI[] = [];
  const queue = [...folders];
  for (let i = 0; i < queue.length && out.length < limit; i++) {
    if (i >= FOLDER_LIMIT) {
      warn(`mlsys-papers: listing ${extensions.join(', ')} files stopped after ${FOLDER_LIMIT} folders`);
      break;
    }
    const dir = queue[i]!;
    let entries;
    try {
      entries = await readdir(dir.fsPath, { withFileTypes: true });
    } catch (e) {
      warn(`mlsys-papers: cannot list ${dir.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const d of entries) {
      if (d.isDirectory()) {
        if (!d.name.startsWith('.') && !SKIPPED_FOLDERS.has(d.name)) queue.push(Utils.joinPath(dir, d.name));
      } else if (d.isFile() && ends.some((e) => d.name.toLowerCase().endsWith(e))) {
        out.push(Utils.joinPath(dir, d.name));
        if (out.length >= limit) break;
      }
    }
  }
  return out;
}

/** The file system of the Node host: `file:` URIs through `node:fs` (any other URI is missing). */
export const nodeFileSystem: HostFileSystem = {
  readFile: async (uri, maxBytes) => (await readNodeFile(uri, maxBytes)) ?? undefined,
  stamp: async (uri) => (await statNodeFile(uri)) ?? undefined,
  realPath: realNodePath,
  foldsCase: FOLDS_CASE,
  listFiles: async (folders, extensions, limit) => (await listNodeFiles(folders, extensions, limit)) ?? [],
};

/**
 * The Node host of the server.
 *
 * @param dist - the folder of the built scripts (`dist/`), which holds `corpus.json` and `csl.js`,
 *   with the CSL styles and locales in `../csl/`
 */
export function nodeServerHost(dist: string): ServerHost {
  return {
    fileSystem: nodeFileSystem,
    // The extension's own files, read once at start, before any request.
    bundledCorpus: () => JSON.parse(readFileSync(join(dist, 'corpus.json'), 'utf8')) as CorpusData,
    async bundledCsl(path) {
      try {
        return await readFile(join(dist, '..', 'csl', path), 'utf8');
      } catch {
        // ignored: a bundled file that cannot be read is reported by the caller, which names the
        // style or locale it wanted; the file is part of the extension, so there is no user cause.
        return undefined;
      }
    },
    loadCsl: async () => require(join(dist, 'csl.js')) as typeof import('../../core/cite/citeproc.js'),
    home: homedir(),
    libraryCache: (dir, warn) => nodeLibraryCache(dir ?? defaultCacheDir(), warn),
    hash: sha256,
  };
}

/**
 * Starts the server on the transport named on the command line (`--node-ipc`, `--stdio`,
 * `--socket=N`; see `vscode-languageserver/node`'s `createConnection`).
 */
export function runNodeServer(dist = __dirname): void {
  startServer(createConnection(ProposedFeatures.all), nodeServerHost(dist));
}
