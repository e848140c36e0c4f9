/**
 * The path and containment rules every decision to read or write a file takes: whether a URI is
 * inside a folder, inside the workspace (as text, for what is shown and watched; by real path,
 * for every read or write a workspace's settings or a document decide), two names of one file, and
 * a path a document names, relative to the document. Pure: the host's {@link WorkspaceFiles}
 * resolves symlinks.
 */
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from './files.js';
import { fromFolder } from './writtenPath.js';

/** Whether `uri` is `folder` or inside it (same scheme and authority; path segments compared whole). */
export function isInside(folder: URI, uri: URI): boolean {
  if (folder.scheme !== uri.scheme || folder.authority !== uri.authority) return false;
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  const path = Utils.resolvePath(uri).path;
  return path === folder.path || path.startsWith(base);
}

/**
 * Whether `uri` is inside one of the workspace folders, comparing its path as text (after
 * {@link normalizeUri}). For what is shown and watched only: every decision to read or write a
 * file because it lies in the workspace takes {@link inWorkspaceReal}, which sees symlinks.
 */
export function inWorkspace(ws: Pick<WorkspaceFiles, 'folders'>, uri: URI): boolean {
  const n = normalizeUri(uri);
  return ws.folders.some((f) => isInside(normalizeUri(f), n));
}

/**
 * A URI with `.` and `..` segments resolved, doubled and trailing separators dropped (vscode-uri's
 * `Utils.resolvePath`, POSIX semantics on the path). `..` after a symlinked folder then names the
 * symlink's parent, not the target's: only a host's {@link WorkspaceFiles.realPath} knows better.
 */
export function normalizeUri(uri: URI): URI {
  return uri.path === '' ? uri : Utils.resolvePath(uri);
}

/**
 * A file's real location ({@link WorkspaceFiles.realPath}, normalised).
 *
 * @returns undefined when the host cannot resolve it (then nothing may be written there)
 */
export async function realUri(ws: Pick<WorkspaceFiles, 'realPath'>, uri: URI): Promise<URI | undefined> {
  const n = normalizeUri(uri);
  let real: URI | undefined;
  try {
    real = await ws.realPath(n);
  } catch {
    // ignored: a host's realPath does not throw by contract; one that does has not resolved the
    // path, and an unresolved path is answered as "cannot tell", which refuses the write.
    return undefined;
  }
  return real && normalizeUri(real);
}

/** A URI as a key that two names of one file share: case-folded where the file system folds case. */
export function pathKey(ws: Pick<WorkspaceFiles, 'foldsCase'>, uri: URI): string {
  return (ws.foldsCase ? uri.with({ path: uri.path.toLowerCase() }) : uri).toString();
}

/**
 * Whether two URIs name the same file: their real paths ({@link realUri}) compared as
 * {@link pathKey}s. A URI that cannot be resolved is the same as nothing.
 */
export async function sameFile(ws: Pick<WorkspaceFiles, 'realPath' | 'foldsCase'>, a: URI, b: URI): Promise<boolean> {
  const [ra, rb] = await Promise.all([realUri(ws, a), realUri(ws, b)]);
  return !!ra && !!rb && pathKey(ws, ra) === pathKey(ws, rb);
}

/**
 * Whether a file really lies inside one of the workspace folders: its real path ({@link realUri}:
 * symlinks resolved, `..` normalised) inside a folder's real path, case-folded where the file
 * system folds case. Every decision to write a file, or to read one a workspace's settings name,
 * takes this, so that `\bibliography{linkdir/refs}` with `linkdir` a symlink to `/etc` is outside.
 *
 * @returns false when the file's real path cannot be resolved
 */
export async function inWorkspaceReal(ws: Pick<WorkspaceFiles, 'folders' | 'realPath' | 'foldsCase'>, uri: URI): Promise<boolean> {
  const real = await realUri(ws, uri);
  if (!real) return false;
  const fold = (u: URI) => (ws.foldsCase ? u.with({ path: u.path.toLowerCase() }) : u);
  for (const f of ws.folders) {
    const rf = await realUri(ws, f);
    if (rf && isInside(fold(rf), fold(real))) return true;
  }
  return false;
}

/**
 * A file named by a document, relative to the document's folder (absolute paths as they are, with
 * doubled leading separators as one: `//refs` is no URI path without an authority, and threw).
 *
 * @param doc - the naming document (its folder is the base)
 * @param path - the path as written (`/` or `\` separators; a Windows drive is absolute)
 */
export function namedFrom(doc: URI, path: string): URI {
  return fromFolder(Utils.dirname(doc), path);
}

/**
 * Whether the LaTeX project model may read a file a document names (a `% !TEX root`, a `.bbl` it
 * inputs): its real path ({@link inWorkspaceReal}: symlinks resolved, `..` normalised) must lie in a
 * workspace folder, or, for a document in none (a file opened alone; the CLI on a file outside its
 * working directory), in the document's own folder. Then a repository cannot make the extension
 * read `/etc/passwd` as a root or show the `\bibitem`s of a `.bbl` outside it in hovers. The `.tex`
 * files the project indexes come from the workspace's listing, which follows no link.
 */
export async function mayReadFor(ws: Pick<WorkspaceFiles, 'folders' | 'realPath' | 'foldsCase'>, doc: URI, uri: URI): Promise<boolean> {
  const folders = inWorkspace(ws, doc) ? ws.folders : [Utils.dirname(doc)];
  return inWorkspaceReal({ folders, realPath: ws.realPath.bind(ws), foldsCase: ws.foldsCase }, uri);
}
