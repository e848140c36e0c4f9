/**
 * A Markdown document's cross-reference syntax as its project gives it, for every reader of its
 * citations (the citation service, the CLI's `sync` and `export --cited-in`): Quarto's in a `.qmd`
 * file and in a Quarto project (with the project's custom types), pandoc-crossref's where the
 * build runs the filter or a project file sets its fields (`pandocBuild.ts`), and what the front
 * matter adds (`cite/citations.ts`'s `crossrefSyntaxOf`).
 */
import type { URI } from 'vscode-uri';
import type { BibCache } from './bibCache.js';
import { FRONT_MATTER } from '../markdown/frontMatter.js';
import { factOf, type FactSource } from '../text/textFacts.js';
import { quartoProject } from './resolve.js';
import { crossrefSyntaxOf } from '../cite/citations.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';
import type { CrossrefSyntax } from '../markdown/crossref.js';
import { pandocBuildOf } from './pandocBuild.js';

/**
 * @param doc - the document: URI, VS Code language id, text
 * @param cache - where the project's files are cached by stamp
 * @returns undefined for a document that is not Markdown
 */
export async function documentCrossrefs(ws: WorkspaceFiles, doc: { uri: URI; languageId: string; readonly text: string; readonly facts?: FactSource }, cache: BibCache): Promise<CrossrefSyntax | undefined> {
  const kind = fileKind(doc.uri, doc.languageId);
  if (!isMarkdown(kind)) return undefined;
  const project = await quartoProject(ws, doc.uri, cache);
  const quarto = kind === 'quarto' || !!project;
  // pandoc-crossref named by the build (a Makefile's --filter, a defaults file) or configured in a project file.
  const { pandocCrossref } = await pandocBuildOf(ws, doc, cache);
  return crossrefSyntaxOf(factOf(doc, FRONT_MATTER).value, { quarto, quartoCustom: project?.crossrefCustom ?? [], pandocCrossref });
}
