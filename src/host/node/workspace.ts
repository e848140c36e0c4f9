/**
 * The file system as the core's {@link BibWorkspace}, for the command line: files are read from
 * disk, and the one workspace folder is the directory the command runs in.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { URI } from 'vscode-uri';
import type { BibWorkspace } from '../../core/bib/resolve.js';
import { decodeUtf8 } from '../../core/utf8.js';

/** A {@link BibWorkspace} over `node:fs`, whose only workspace folder is `root`. */
export class NodeBibWorkspace implements BibWorkspace {
  readonly folders: readonly URI[];

  /** @param root - absolute path of the folder that bounds every write */
  constructor(root: string) {
    this.folders = [URI.file(root)];
  }

  async readText(uri: URI): Promise<string | undefined> {
    try {
      return readFileSync(uri.fsPath, 'utf8');
    } catch (e) {
      // Missing or unreadable: the resolver reports a declared file that cannot be read as missing;
      // why a file that exists cannot be read (EACCES, EISDIR) is one line on stderr.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') process.stderr.write(`mlsys-papers: cannot read ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}\n`);
      return undefined;
    }
  }

  async stamp(uri: URI): Promise<string | undefined> {
    const st = statSync(uri.fsPath, { throwIfNoEntry: false });
    return st && `m${st.mtimeMs}:${st.size}`;
  }

  async exists(uri: URI): Promise<boolean> {
    return statSync(uri.fsPath, { throwIfNoEntry: false }) !== undefined;
  }
}

/**
 * Reads a file's bytes as UTF-8 text for rewriting it: the byte-order mark is kept as U+FEFF, and
 * a file that is not valid UTF-8 is refused (decoding it would replace bytes when written back).
 *
 * @throws Error naming the file when it is not valid UTF-8 or cannot be read
 */
export function readTextForRewrite(path: string): string {
  const text = decodeUtf8(readFileSync(path));
  if (text === undefined) throw new Error(`${path} is not UTF-8 text; rewriting it would change its other characters`);
  return text;
}

/** Writes text as UTF-8 (U+FEFF becomes the byte-order mark again). */
export function writeText(path: string, text: string): void {
  writeFileSync(path, text, 'utf8');
}
