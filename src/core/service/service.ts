/**
 * The citation language service: everything the editor asks about citations, answered from the
 * corpus and the document's bibliography, whatever the editor. The language server serves it over
 * LSP (`src/server/`); unit tests run it on in-memory workspaces.
 *
 * Positions are LSP positions (line and UTF-16 character, both 0-based); results are LSP types
 * (`vscode-languageserver-types`). Files are read only through the host's `WorkspaceFiles`; the
 * service imports neither `vscode` nor `node:`.
 *
 * This module wires one provider per feature, as `vscode-markdown-languageservice` does:
 * `completion.ts`, `hover.ts`, `definition.ts`, `citationDiagnostics.ts`, `codeActions.ts` and
 * `plans.ts`, over the shared state of `serviceContext.ts`.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CompletionItem, CompletionList, Diagnostic, Hover, Location, Position, Range } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { citedKeys } from '../cite/citations.js';
import { fileKind, isCiting, isMarkdown } from '../workspace/fileKind.js';
import { codeActions } from './codeActions.js';
import { diagnostics } from './citationDiagnostics.js';
import { complete, resolveCompletion } from './completion.js';
import { definition, entryDocument } from './definition.js';
import { hover } from './hover.js';
import { planBibliographyAddition, planCitationAt, planDeclaration, planInsertion } from './plans.js';
import { previewCitations, type PreviewCitations } from './previewCitations.js';
import { createServiceContext, type CitationServiceOptions } from './serviceContext.js';
import type { BibChange, Cancellation, CitePlan } from './types.js';

export { COMPLETION_LIMIT } from './completion.js';
export type { PreviewCitations } from './previewCitations.js';
export type { CitationServiceOptions } from './serviceContext.js';

/** The citation language service; see {@link createCitationService}. */
export interface CitationService {
  /** Citation keys at a position inside a LaTeX citation command or a Pandoc citation; undefined elsewhere. */
  complete(doc: TextDocument, position: Position, token?: Cancellation): Promise<CompletionList | undefined>;
  /** Adds the documentation (entry card and formatted reference) to a completion item of {@link complete}. */
  resolveCompletion(item: CompletionItem, token?: Cancellation): Promise<CompletionItem>;
  /** The entry behind the cited key under the cursor, and whether the bibliography has it. */
  hover(doc: TextDocument, position: Position, token?: Cancellation): Promise<Hover | undefined>;
  /** The key's entry in the bibliography file; else the corpus entry's BibTeX at `mlsys-papers:/<key>.bib`. */
  definition(doc: TextDocument, position: Position, token?: Cancellation): Promise<Location | undefined>;
  /** Unknown keys and keys missing from the bibliography (LaTeX, Markdown); duplicate keys (`.bib`). */
  diagnostics(doc: TextDocument, token?: Cancellation): Promise<Diagnostic[]>;
  /** Quick fixes for the service's diagnostics, and "Open Note" on a cited key (in an editor with our UI). */
  codeActions(doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]>;
  /** The BibTeX shown for `mlsys-papers:/<key>.bib`. */
  entryDocument(uri: string): string;
  /**
   * Plans citing corpus entries at a position: the citation's edit, and what the bibliography
   * gains. A work the bibliography has under another key is cited by that key.
   *
   * @param keys - corpus keys; unknown ones are left out
   */
  planCitation(doc: TextDocument, position: Position, keys: readonly string[]): Promise<CitePlan>;
  /** Plans adding corpus entries that the document cites to its bibliography (the "Add to bibliography" fix). */
  planBibliography(doc: TextDocument, keys: readonly string[]): Promise<{ reused: CitePlan['reused']; bibliography: BibChange }>;
  /**
   * Plans adding corpus entries to a given bibliography file in the workspace: the ones it lacks,
   * or a new file with them when it does not exist.
   */
  planInsertion(file: URI, keys: readonly string[]): Promise<BibChange>;
  /**
   * Plans declaring a new bibliography file in a document (`\\bibliography`, `\\addbibresource`,
   * or the front matter's `bibliography:`), in the document's own line ending.
   *
   * @param file - the file's name relative to the document (`references.bib`)
   * @returns the insertions, or undefined for a LaTeX document without `\\end{document}`
   */
  planDeclaration(doc: TextDocument, file: string): { version: number; insertions: { offset: number; text: string }[] } | undefined;
  /** The keys a document cites, in order, each once (ignoring case). */
  citedKeys(doc: TextDocument): string[];
  /** A Markdown document's citations and their CSL items, for the Markdown preview (`previewCitations.ts`). */
  previewCitations(doc: TextDocument): Promise<PreviewCitations>;
  /** Forgets every cached file (the workspace folders changed). */
  clearCache(): void;
  /** The bibliography files a document declares that exist, readable or not (for `includeDocumentBibliography`). */
  bibliographyFiles(doc: TextDocument): Promise<URI[]>;
}

/**
 * Creates the citation language service.
 *
 * @param opts - the host: workspace, corpus, settings, logger and optional formatting
 */
export function createCitationService(opts: CitationServiceOptions): CitationService {
  const ctx = createServiceContext(opts);
  return {
    complete: (doc, position, token) => complete(ctx, doc, position, token),
    resolveCompletion: (item) => resolveCompletion(ctx, item),
    hover: (doc, position, token) => hover(ctx, doc, position, token),
    definition: (doc, position, token) => definition(ctx, doc, position, token),
    diagnostics: (doc, token) => diagnostics(ctx, doc, token),
    codeActions: (doc, range, diags) => codeActions(ctx, doc, range, diags),
    entryDocument: (uri) => entryDocument(ctx, uri),
    planCitation: (doc, position, keys) => planCitationAt(ctx, doc, position, keys),
    planBibliography: (doc, keys) => planBibliographyAddition(ctx, doc, keys),
    planInsertion: (file, keys) => planInsertion(ctx, file, keys),
    planDeclaration,
    previewCitations: (doc) => previewCitations(ctx, doc),

    citedKeys(doc) {
      const kind = fileKind(URI.parse(doc.uri), doc.languageId);
      return citedKeys(doc.getText(), doc.languageId, isMarkdown(kind) ? { quarto: kind === 'quarto' } : undefined);
    },

    clearCache() {
      ctx.cache.clear();
    },

    async bibliographyFiles(doc) {
      if (!isCiting(fileKind(URI.parse(doc.uri), doc.languageId))) return [];
      const bib = await ctx.bibliographyOf(doc);
      // One that does not parse as a whole joins too: the library reader reads its good entries.
      return bib?.files.map((f) => f.uri) ?? [];
    },
  };
}
