/**
 * The LaTeX project of a folder on disk, for the command line (`sync`, `export --cited-in`): every `.tex` file under it
 * read once ({@link listNodeFiles}, {@link indexLatexFiles}), so that a section file's root, and
 * the root's bibliography, are found as the language server finds them.
 */
import { URI } from 'vscode-uri';
import type { WorkspaceFiles } from '../../core/workspace/files.js';
import { BibCache } from '../../core/bibliography/bibCache.js';
import { citedKeys } from '../../core/cite/citations.js';
import { documentCrossrefs } from '../../core/bibliography/documentCrossrefs.js';
import { indexLatexFiles, LATEX_FILE_LIMIT } from '../../core/latex/indexing.js';
import { LatexProject } from '../../core/latex/project.js';
import { listNodeFiles } from './nodeServerHost.js';

/**
 * Indexes the `.tex` files under `root` (at most {@link LATEX_FILE_LIMIT}).
 *
 * @param ws - reads the files (a file that cannot be read is left out)
 */
export async function nodeLatexProject(ws: Pick<WorkspaceFiles, 'readText'>, root: string): Promise<LatexProject> {
  const project = new LatexProject();
  const files = (await listNodeFiles([URI.file(root)], ['.tex'], LATEX_FILE_LIMIT)) ?? [];
  await indexLatexFiles(project, files, { read: (uri) => ws.readText(uri) });
  return project;
}

/**
 * The keys a document cites, as LaTeX writes them to the `.aux` files: a root's own and those of
 * every file it reaches through `\input`, `\include`, `\subfile` and `\import` (in the order reached,
 * each key once); a file that is no root, its own. Markdown documents cite their own keys, their
 * cross-references (Quarto's, pandoc-crossref's where the project runs it) left out as the
 * language server leaves them out.
 *
 * @param project - the folder's LaTeX project ({@link nodeLatexProject}); undefined: the file alone
 * @param text - the document's text (its file's text, read by the caller)
 * @param languageId - `latex`, `markdown`, … (`languageOfPath`)
 */
export async function documentCitedKeys(ws: WorkspaceFiles, project: LatexProject | undefined, uri: URI, text: string, languageId: string): Promise<string[]> {
  const own = citedKeys(text, languageId, await documentCrossrefs(ws, { uri, languageId, text }, new BibCache()));
  if (!project) return own;
  const keys = new Set(own);
  for (const file of project.filesOf(uri)) {
    if (file.toString() === uri.toString()) continue;
    const t = await ws.readText(file);
    if (t !== undefined) for (const k of citedKeys(t, 'latex')) keys.add(k);
  }
  return [...keys];
}
