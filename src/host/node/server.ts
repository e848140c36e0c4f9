/**
 * The language server in a Node process: `dist/server.js` (started by the VS Code client over
 * IPC) and `mlsys-papers lsp --stdio` (other editors). Files with `file:` URIs are read from disk;
 * the bundled corpus and CSL files are read from the installation beside this script.
 */
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { URI, Utils } from 'vscode-uri';
import type { CorpusData } from '../../core/corpus.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { fileStampOf, startServer, type HostFile, type ServerHost } from '../../server/server.js';
import { defaultCacheDir, nodeLibraryCache, sha256 } from './libraryCache.js';

/**
 * Reads a `file:` URI: its text (UTF-8, BOM kept), `notUtf8`, `directory`, or undefined when missing
 * or unreadable; null for other schemes.
 *
 * @param warn - told why a file that exists cannot be read (default: a line on stderr, which LSP
 *   clients show as the server's log)
 */
export function readNodeFile(uri: { scheme: string; fsPath: string }, warn: (message: string) => void = stderrLine): HostFile | null {
  if (uri.scheme !== 'file') return null;
  const st = statSync(uri.fsPath, { throwIfNoEntry: false });
  if (!st) return undefined;
  const stamp = fileStampOf(st.mtimeMs, st.size, st.isDirectory());
  if (st.isDirectory()) return { directory: true, stamp };
  let bytes: Buffer;
  try {
    bytes = readFileSync(uri.fsPath);
  } catch (e) {
    // Unreadable (permissions, a file removed between stat and read): as missing, with the cause logged.
    warn(`mlsys-papers: cannot read ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const text = decodeUtf8(bytes);
  return text === undefined ? { notUtf8: true, stamp } : { text, stamp };
}

/** Writes one line to stderr (the server's log in an LSP client; a terminal for the CLI). */
function stderrLine(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** A `file:` URI's stamp ({@link fileStampOf}: modification time and size), undefined when missing; null for other schemes. */
export function statNodeFile(uri: { scheme: string; fsPath: string }): string | undefined | null {
  if (uri.scheme !== 'file') return null;
  const st = statSync(uri.fsPath, { throwIfNoEntry: false });
  return st && fileStampOf(st.mtimeMs, st.size, st.isDirectory());
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

/**
 * The Node host of the server.
 *
 * @param dist - the folder of the built scripts (`dist/`), which holds `corpus.json` and `csl.js`,
 *   with the CSL styles and locales in `../csl/`
 */
export function nodeServerHost(dist: string): ServerHost {
  return {
    readFile: (uri) => readNodeFile(uri),
    stamp: statNodeFile,
    bundledCorpus: () => JSON.parse(readFileSync(join(dist, 'corpus.json'), 'utf8')) as CorpusData,
    bundledCsl(path) {
      try {
        return readFileSync(join(dist, '..', 'csl', path), 'utf8');
      } catch {
        // ignored: a bundled file that cannot be read is reported by the caller, which names the
        // style or locale it wanted; the file is part of the extension, so there is no user cause.
        return undefined;
      }
    },
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loadCsl: async () => require(join(dist, 'csl.js')) as typeof import('../../core/cite/csl.js'),
    home: homedir(),
    libraryCache: (dir, warn) => nodeLibraryCache(dir ?? defaultCacheDir(), warn),
    hash: sha256,
    listFiles: (folders, extensions, limit) => listNodeFiles(folders, extensions, limit),
  };
}

/**
 * Starts the server on the transport named on the command line (`--node-ipc`, `--stdio`,
 * `--socket=N`; see `vscode-languageserver/node`'s `createConnection`).
 */
export function runNodeServer(dist = __dirname): void {
  startServer(createConnection(ProposedFeatures.all), nodeServerHost(dist));
}
