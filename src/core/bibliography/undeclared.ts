/**
 * A bibliography nobody declared: the `.bib` files beside a document that declares none, or at its
 * workspace folder's root. A thesis class may name the file in an option
 * (`\usepackage[bibfile=bib-refs]{cleanthesis}`), a build may pass it to pandoc in a way we do not
 * read (`--bibliography=$(shell …)`, a filter of its own): flagging every key of such a document
 * would be a false alarm for each. Its keys are checked against those files instead, and the
 * messages and the hover say so ("not declared; checked against refs.bib beside it"). With no
 * `.bib` there either, every unknown key is still flagged.
 */
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from '../workspace/files.js';
import { isInside, mayReadFor } from '../workspace/paths.js';

/** `.bib` files taken from one folder, at most (in name order). */
const MAX_FILES = 16;

/** Where the files of an undeclared bibliography were found. */
export type UndeclaredWhere = 'beside' | 'workspace';

/** The `.bib` files of a folder listing, in name order. */
async function bibsIn(ws: WorkspaceFiles, folder: URI, root: URI): Promise<URI[]> {
  const names = (await ws.listFolder(folder)) ?? [];
  const out: URI[] = [];
  for (const n of names.filter((x) => /\.bib$/i.test(x)).sort().slice(0, MAX_FILES)) {
    const uri = Utils.joinPath(folder, n);
    // A listed name may be a link: read only what lies in the workspace by real path.
    if (await mayReadFor(ws, root, uri)) out.push(uri);
  }
  return out;
}

/**
 * The `.bib` files a document that declares no bibliography is checked against: those in the
 * folder of its root (the file whose declarations would count: a LaTeX root, the Markdown
 * document), else those at the root of its workspace folder.
 *
 * @returns undefined when there is none (or the folders cannot be listed)
 */
export async function undeclaredBibliography(ws: WorkspaceFiles, root: URI): Promise<{ uris: URI[]; where: UndeclaredWhere } | undefined> {
  const beside = await bibsIn(ws, Utils.dirname(root), root);
  if (beside.length) return { uris: beside, where: 'beside' };
  const top = ws.folders.find((f) => isInside(f, root));
  if (!top || Utils.dirname(root).path.replace(/\/$/, '') === top.path.replace(/\/$/, '')) return undefined;
  const atTop = await bibsIn(ws, top, root);
  return atTop.length ? { uris: atTop, where: 'workspace' } : undefined;
}
