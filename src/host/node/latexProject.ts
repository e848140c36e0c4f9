/**
 * The LaTeX project of a folder on disk, for the command line (`sync`): every `.tex` file under it
 * read once ({@link listNodeFiles}, {@link indexLatexFiles}), so that a section file's root, and
 * the root's bibliography, are found as the language server finds them.
 */
import { URI } from 'vscode-uri';
import type { BibWorkspace } from '../../core/bib/resolve.js';
import { indexLatexFiles, LATEX_FILE_LIMIT, LatexProject } from '../../core/latex/project.js';
import { listNodeFiles } from './server.js';

/**
 * Indexes the `.tex` files under `root` (at most {@link LATEX_FILE_LIMIT}).
 *
 * @param ws - reads the files (a file that cannot be read is left out)
 */
export async function nodeLatexProject(ws: Pick<BibWorkspace, 'readText'>, root: string): Promise<LatexProject> {
  const project = new LatexProject();
  const files = (await listNodeFiles([URI.file(root)], ['.tex'], LATEX_FILE_LIMIT)) ?? [];
  await indexLatexFiles(project, files, { read: (uri) => ws.readText(uri) });
  return project;
}
