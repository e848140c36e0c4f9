/**
 * A path as a document writes it (`\input{…}`, `\import{dir}{…}`, `\bibliography{…}`, a
 * `% !TEX root`, a front matter's `bibliography:`), as a URI: the one rule the LaTeX project model
 * and the bibliography resolver share. A leaf: it imports nothing of ours.
 */
import { Utils, type URI } from 'vscode-uri';

/** Whether a path as written is absolute: POSIX (`/…`), or a Windows drive (`C:\…`, `C:/…`). */
export function isAbsoluteWritten(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * `path` as written, from the folder `dir`: an absolute path as it is (backslashes as `/`, and a
 * doubled leading separator as one: `//fileserver/share/x` is no URI path without an authority,
 * and `vscode-uri` throws `UriError` on it; POSIX reads it as `/fileserver/share/x`), else joined
 * to `dir` (`Utils.joinPath`, `.` and `..` resolved).
 *
 * @param dir - the folder the path is relative to (its scheme and authority are kept)
 * @param path - as written, non-empty
 * @returns never throws for any text
 */
export function fromFolder(dir: URI, path: string): URI {
  return isAbsoluteWritten(path) ? dir.with({ path: path.replace(/\\/g, '/').replace(/^\/{2,}/, '/') }) : Utils.joinPath(dir, path);
}
