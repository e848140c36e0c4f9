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
import type { CodeAction, CodeLens, CompletionItem, CompletionList, Diagnostic, Hover, Location, Position, Range } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { distinctKeys, documentCitationsIn } from '../cite/citations.js';
import { fileKind, isBibliography, isCiting, isMarkdown } from '../workspace/fileKind.js';
import { codeActions } from './codeActions.js';
import { diagnostics } from './citationDiagnostics.js';
import { complete, resolveCompletion } from './completion.js';
import { definition, entryDocument } from './definition.js';
import { hover } from './hover.js';
import { planBibliographyAddition, planCitationAt, planDeclaration, planInsertion } from './plans.js';
import { previewCitations, type PreviewCitations } from './previewCitations.js';
import { bibDocument, createServiceContext, type CitationServiceOptions } from './serviceContext.js';
import type { BibChange, Cancellation, CitePlan } from './types.js';
import type { DocumentBibliography } from '../bibliography/resolve.js';
import { entryHover, entryLenses } from './entryLens.js';
import { references } from './keyReferences.js';
import { createProjectScope } from './projectScope.js';
import { prepareKeyRename, renameKey, type EditAbilities, type RenameAnswer } from './renameKey.js';
import { unusedEntryActions, unusedEntryDiagnostics } from './unusedEntries.js';

export { COMPLETION_LIMIT } from './completion.js';
export type { EditAbilities, RenameAnswer } from './renameKey.js';
export type { PreviewCitations } from './previewCitations.js';
export type { CitationServiceOptions } from './serviceContext.js';

/** A document's diagnostics and the files they read ({@link CitationService.check}). */
export interface DocumentCheck {
  diagnostics: Diagnostic[];
  /**
   * The files a citing document's diagnostics were read from: the bibliography files it declares
   * that exist, readable or not (what {@link CitationService.bibliographyFiles} gives), and for a
   * LaTeX document the document, its roots and the files the project finds they reach (whose
   * declarations are its); [] for other documents.
   */
  files: URI[];
}

/**
 * The files of a resolved bibliography, the document's own front matter references aside (no
 * file); one that does not parse as a whole too (the library reader reads its good entries).
 */
const declaredFiles = (bib: DocumentBibliography | undefined): URI[] => bib?.files.filter((f) => !f.inline).map((f) => f.uri) ?? [];

/** The citation language service; see {@link createCitationService}. */
export interface CitationService {
  /** Citation keys at a position inside a LaTeX citation command or a Pandoc citation; undefined elsewhere. */
  complete(doc: TextDocument, position: Position, token?: Cancellation): Promise<CompletionList | undefined>;
  /** Adds the documentation (entry card and formatted reference) to a completion item of {@link complete}. */
  resolveCompletion(item: CompletionItem, token?: Cancellation): Promise<CompletionItem>;
  /** The entry behind the cited key under the cursor, and whether the bibliography has it; in a bibliography file, how often the entry under the cursor is cited. */
  hover(doc: TextDocument, position: Position, token?: Cancellation): Promise<Hover | undefined>;
  /** The key's entry in the bibliography file; else the corpus entry's BibTeX at `mlsys-papers:/<key>.bib`. */
  definition(doc: TextDocument, position: Position, token?: Cancellation): Promise<Location | undefined>;
  /** Unknown keys and keys missing from the bibliography (LaTeX, Markdown); duplicate keys (`.bib`); unused entries (bibliography files). */
  diagnostics(doc: TextDocument, token?: Cancellation): Promise<Diagnostic[]>;
  /**
   * {@link diagnostics}, with the bibliography files they were checked against (what
   * {@link bibliographyFiles} gives), from one resolution of the document's bibliography: what the
   * server's diagnostics remember a document depends on.
   */
  check(doc: TextDocument, token?: Cancellation): Promise<DocumentCheck>;
  /**
   * Quick fixes for the service's diagnostics, and "Open Note" on a cited key (in an editor with our UI);
   * in a bibliography file, those of its unused-entry hints (remove one, remove all), which read the file's readers.
   */
  codeActions(doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]>;
  /** Every citation of the key under the cursor (a citation's or an entry's) across its scope; with `includeDeclaration`, its entries too. */
  references(doc: TextDocument, position: Position, includeDeclaration: boolean, token?: Cancellation): Promise<Location[] | undefined>;
  /** The key under the cursor and its range, or why it cannot be renamed; undefined off a key. */
  prepareRename(doc: TextDocument, position: Position): Promise<{ range: Range; placeholder: string } | { refusal: string } | undefined>;
  /** Renames the key under the cursor across its scope: citations and entries, one workspace edit; or why not. */
  rename(doc: TextDocument, position: Position, newName: string, can: EditAbilities): Promise<RenameAnswer | undefined>;
  /** A bibliography file's code lenses: how often each entry is cited; why unused entries are not marked, when they are not. */
  codeLenses(doc: TextDocument, token?: Cancellation): Promise<CodeLens[]>;
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
  /**
   * The keys a document cites, in order, each once (ignoring case); cross-references written as
   * citations are not keys (a `.qmd` file's or a Quarto project's `@fig-x`; `@fig:x` where the
   * document or its build runs pandoc-crossref).
   */
  citedKeys(doc: TextDocument): Promise<string[]>;
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
  const scope = opts.scope && createProjectScope(ctx, opts.scope);
  const isBib = (doc: TextDocument) => isBibliography(fileKind(URI.parse(doc.uri), doc.languageId));
  /** A LaTeX document's project files its bibliography was read from: itself, its roots and what they reach. */
  const latexFiles = (doc: TextDocument, bib: DocumentBibliography | undefined): URI[] => {
    if (!bib || fileKind(URI.parse(doc.uri), doc.languageId) !== 'latex') return [];
    const roots = bib.roots ?? [bib.root];
    return [URI.parse(doc.uri), ...roots, ...roots.flatMap((r) => opts.project?.filesOf?.(r) ?? [])];
  };
  const check = async (doc: TextDocument, token?: Cancellation): Promise<DocumentCheck> => {
    const { diagnostics: found, bib } = await diagnostics(ctx, doc, token);
    return {
      diagnostics: scope && isBib(doc) ? [...found, ...(await unusedEntryDiagnostics(ctx, scope, doc, token))] : found,
      files: [...declaredFiles(bib), ...latexFiles(doc, bib)],
    };
  };
  return {
    complete: (doc, position, token) => complete(ctx, doc, position, token),
    resolveCompletion: (item) => resolveCompletion(ctx, item),
    hover: (doc, position, token) => (isBib(doc) ? (scope ? entryHover(ctx, scope, doc, position, token) : Promise.resolve(undefined)) : hover(ctx, doc, position, token)),
    definition: (doc, position, token) => definition(ctx, doc, position, token),
    check,
    diagnostics: async (doc, token) => (await check(doc, token)).diagnostics,
    async codeActions(doc, range, diags) {
      const fixes = await codeActions(ctx, doc, range, diags);
      return scope && isBib(doc) ? [...fixes, ...(await unusedEntryActions(ctx, scope, doc, diags))] : fixes;
    },
    references: async (doc, position, includeDeclaration, token) => (scope ? references(ctx, scope, doc, position, includeDeclaration, token) : undefined),
    prepareRename: async (doc, position) => (scope ? prepareKeyRename(ctx, scope, doc, position) : undefined),
    rename: async (doc, position, newName, can) => (scope ? renameKey(ctx, scope, doc, position, newName, can) : undefined),
    codeLenses: async (doc, token) => (scope && isBib(doc) ? entryLenses(ctx, scope, doc, token) : []),
    entryDocument: (uri) => entryDocument(ctx, uri),
    planCitation: (doc, position, keys) => planCitationAt(ctx, doc, position, keys),
    planBibliography: (doc, keys) => planBibliographyAddition(ctx, doc, keys),
    planInsertion: (file, keys) => planInsertion(ctx, file, keys),
    planDeclaration,
    previewCitations: (doc) => previewCitations(ctx, doc),

    async citedKeys(doc) {
      return distinctKeys(documentCitationsIn(bibDocument(doc), await ctx.crossrefsOf(doc)));
    },

    clearCache() {
      ctx.cache.clear();
    },

    async bibliographyFiles(doc) {
      if (!isCiting(fileKind(URI.parse(doc.uri), doc.languageId))) return [];
      return declaredFiles(await ctx.bibliographyOf(doc));
    },
  };
}
