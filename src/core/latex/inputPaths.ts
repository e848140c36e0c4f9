/**
 * Where TeX looks for the file a link names (`fileFacts.ts`'s `LatexLink`), the rules the project
 * model (`project.ts`) resolves links by:
 * - A name without an extension is tried as `name.tex`, then as `name` (kpathsea's order for TeX
 *   input files); `\include{file}` reads `file.tex` alone (LaTeX2e `ltfiles.dtx`).
 * - Paths are relative to the root's folder, TeX's working directory when the root is compiled; as
 *   LaTeX Workshop and texlab do, the including file's own folder is tried after it.
 * - `\import{dir}{file}`'s `dir` is from the root's folder (or absolute), `\subimport{dir}{file}`'s
 *   from the importing file's import folder; the imported file's own links are then read from `dir`
 *   first (import package manual, "\import", "\subimport").
 * - A link to a `.bbl` file (`\input{main.bbl}`) names a file the project does not index, whose
 *   `\bibitem`s count all the same.
 *
 * Pure: no `node:`, no `vscode`; URIs in, URIs out.
 */
import { URI, Utils } from 'vscode-uri';
import type { LatexFileFacts, LatexLink, LatexLinkKind } from './fileFacts.js';
import { fromFolder } from '../workspace/writtenPath.js';
import { fileKind } from '../workspace/fileKind.js';

/**
 * The names TeX tries for an input file, in order: `name.tex` then `name`, or `name` alone when it
 * has the extension; for `\include`, `name.tex` alone.
 *
 * @param kind - how the link pulls the file in
 * @param path - the file as written
 */
export function candidateNames(kind: LatexLinkKind, path: string): string[] {
  if (/\.tex$/i.test(path)) return [path];
  return kind === 'include' ? [`${path}.tex`] : [`${path}.tex`, path];
}

/** Whether a file name is a `.bbl` file's (`workspace/fileKind.ts`). */
export const namesBblFile = (name: string): boolean => fileKind(name) === 'bbl';

/** Whether a link names a `.bbl` file (`\input{main.bbl}`): a file the project does not index, but whose `\bibitem`s count. */
export const namesBbl = (link: LatexLink): boolean => namesBblFile(link.path);

/**
 * The `.bbl` files a file's own links name, each as the URIs TeX tries in order, from the file's
 * folder: for a file read alone, which no project holds (see `LatexProject.thebibliographyOf`).
 *
 * @param uri - the file
 * @param facts - its facts (`latexFileFacts`)
 */
export function bblCandidates(uri: URI, facts: LatexFileFacts): URI[][] {
  const dir = Utils.dirname(uri);
  return facts.links.filter(namesBbl).map((link) => candidateNames(link.kind, link.path).map((name) => fromFolder(link.dir ? fromFolder(dir, link.dir) : dir, name)));
}

/** A folder a link's file is looked for in, with the folder that file's own links are then read from first. */
export interface LinkFolder {
  dir: URI;
  base: URI;
}

/**
 * The folders a link's file is looked for in, in order and without repeats, each with the folder
 * the file's own links are then read from first: for `\import` the import folder from the root's
 * folder, then from the linking file's; for `\subimport` from `base`, then from the linking file's;
 * for any other link `base`, the root's folder, then the linking file's own folder.
 *
 * @param from - the file that holds the link
 * @param base - the folder `from`'s links are read from first (its import folder, else the root's)
 * @param rootDir - the folder of the root being compiled
 * @param link - the link
 */
export function linkFolders(from: URI, base: URI, rootDir: URI, link: LatexLink): LinkFolder[] {
  const dirs: LinkFolder[] = [];
  const own = Utils.dirname(from);
  if (link.kind === 'import' || link.kind === 'subimport') {
    const d = link.dir ?? '';
    const starts = link.kind === 'import' ? [rootDir, own] : [base, own];
    for (const s of starts) {
      const dir = d ? fromFolder(s, d) : s;
      dirs.push({ dir, base: dir });
    }
  } else {
    for (const dir of [base, rootDir, own]) dirs.push({ dir, base });
  }
  const seen = new Set<string>();
  return dirs.filter(({ dir }) => !seen.has(dir.toString()) && !!seen.add(dir.toString()));
}

/**
 * Every URI TeX tries for a link, in order: each of {@link candidateNames} in each of
 * {@link linkFolders}'s folders.
 *
 * @param from - the file that holds the link; `base`, `rootDir` and `link` as for {@link linkFolders}
 * @param keep - which candidate names to keep (default all)
 * @returns the URIs in the order TeX tries them
 */
export function linkCandidates(from: URI, base: URI, rootDir: URI, link: LatexLink, keep: (name: string) => boolean = () => true): URI[] {
  return linkFolders(from, base, rootDir, link).flatMap(({ dir }) => candidateNames(link.kind, link.path).filter(keep).map((name) => fromFolder(dir, name)));
}
