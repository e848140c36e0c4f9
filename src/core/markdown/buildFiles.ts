/**
 * Which files a Markdown document's build reads besides the document: build scripts by name, and
 * what a saved file may change of its citations. Kept apart from `bibliography/pandocBuild.ts` (which reads
 * them, with the YAML and bibliography readers) so the VS Code client can ask without bundling those.
 */
import { fileKind, isBibliography } from '../workspace/fileKind.js';

/** The names of the build scripts in a folder's listing. */
export const isBuildScript = (name: string): boolean => /^(GNUmakefile|[Mm]akefile)$/.test(name) || /\.(mk|sh)$/i.test(name);

/**
 * Whether a saved file may change how a Markdown document's citations render: a bibliography
 * (`.bib`, CSL-JSON, CSL-YAML, any open BibTeX document), a CSL style (`.csl`), a metadata or
 * defaults file (YAML or JSON), or a build script that names them (`bibliography/pandocBuild.ts`). Not a
 * Markdown document (its own edits reach the preview), nor LaTeX, code or anything else.
 *
 * @param path - the file's path (its last segment is its name)
 * @param languageId - its editor's language id, when open
 */
export function affectsMarkdownCitations(path: string, languageId?: string): boolean {
  const kind = fileKind(path, languageId);
  if (kind && isBibliography(kind)) return true;
  return /\.csl$/i.test(path) || isBuildScript(path.slice(path.lastIndexOf('/') + 1));
}
