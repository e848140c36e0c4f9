/**
 * The file system as the core's {@link WorkspaceFiles}, for the command line: files are read from
 * disk (regular files only, within the size cap), no document is open, and the one workspace
 * folder is the directory the command runs in, compared by real paths.
 */
import { URI } from 'vscode-uri';
import type { OpenText, WorkspaceFiles } from '../../core/workspace/files.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../../core/config/fileLimits.js';
import { decodeForReading, decodeUtf8 } from '../../core/text/utf8.js';
import { FOLDS_CASE, readProblem, readRegularFile, realPathOf, statIfAny } from './regularFiles.js';
import { createFile, replaceFile } from './safeWrite.js';

/** The {@link WorkspaceFiles} of `node:fs`, whose only workspace folder is `root`. */
export class NodeBibWorkspace implements WorkspaceFiles {
  readonly folders: readonly URI[];
  readonly foldsCase = FOLDS_CASE;
  /**
   * Files that exist but gave no text, by path, with why (`not a regular file`, `larger than
   * 200 MB`): the resolver sees them as missing, and `sync` names the reason instead of creating one.
   */
  readonly problems = new Map<string, string>();

  /**
   * @param root - absolute path of the folder that bounds every write
   * @param maxBytes - the largest file read, in bytes (default: `DEFAULT_MAX_FILE_MB`)
   */
  constructor(root: string, readonly maxBytes = maxFileBytes(DEFAULT_MAX_FILE_MB)) {
    this.folders = [URI.file(root)];
  }

  async readText(uri: URI): Promise<string | undefined> {
    const r = await readRegularFile(uri.fsPath, this.maxBytes);
    // UTF-8, or Windows-1252 for an older 8-bit .bib (its keys count): `sync` plans again on the
    // exact bytes before writing, and refuses what is not UTF-8.
    if (r.kind === 'file') return decodeForReading(r.bytes).text;
    // Missing: the resolver reports a declared file that cannot be read as missing; why a file
    // that exists gave nothing is kept for the one line that names it.
    if (r.kind !== 'missing') this.problems.set(uri.fsPath, readProblem(r, this.maxBytes)!);
    return undefined;
  }

  async readDisk(uri: URI): Promise<string | { notUtf8: true } | undefined> {
    const r = await readRegularFile(uri.fsPath, this.maxBytes);
    if (r.kind !== 'file') return undefined;
    return decodeUtf8(r.bytes) ?? { notUtf8: true };
  }

  async stamp(uri: URI): Promise<string | undefined> {
    const st = await statIfAny(uri.fsPath);
    return st?.isFile() ? `m${st.mtimeMs}:${st.size}` : undefined;
  }

  /** No document is open on the command line. */
  openDocument(): OpenText | undefined {
    return undefined;
  }

  async exists(uri: URI): Promise<boolean> {
    return (await statIfAny(uri.fsPath)) !== undefined;
  }

  async realPath(uri: URI): Promise<URI | undefined> {
    if (uri.scheme !== 'file') return uri;
    const real = await realPathOf(uri.fsPath);
    return real === undefined ? undefined : URI.file(real);
  }
}

/**
 * Reads a file's bytes as UTF-8 text for rewriting it: the byte-order mark is kept as U+FEFF, and
 * a file that is not valid UTF-8 is refused (decoding it would replace bytes when written back).
 *
 * @param maxBytes - the largest file read, in bytes
 * @throws Error saying why (without the file's name, which the caller gives as the user wrote it)
 *   when it is not a regular file, larger than the cap, not valid UTF-8, or cannot be read
 */
export async function readTextForRewrite(path: string, maxBytes = maxFileBytes(DEFAULT_MAX_FILE_MB)): Promise<string> {
  const r = await readRegularFile(path, maxBytes);
  if (r.kind !== 'file') throw new Error(`${readProblem(r, maxBytes)}; nothing was written`);
  const text = decodeUtf8(r.bytes);
  if (text === undefined) throw new Error('is not UTF-8 text; rewriting it would change its other characters');
  return text;
}

/**
 * Writes text as UTF-8 (U+FEFF becomes the byte-order mark again), whole or not at all
 * (`safeWrite.ts`: beside it, then in its place; mode, owner and group kept).
 *
 * @param opts.create - the file must not exist yet (a file, or a dangling symlink, that appeared
 *   since the plan is not written through)
 * @throws the file system's error, or `WriteRefused`; the file is then as it was
 */
export function writeText(path: string, text: string, opts: { create?: boolean } = {}): void {
  if (opts.create) createFile(path, text);
  else replaceFile(path, text);
}
