/**
 * What every provider of the citation service shares: the host's options, the cache of parsed
 * bibliography files, and the few look-ups each feature makes (the document's bibliography, its
 * cross-reference syntax, an entry by key). Each feature module (`completion.ts`, `hover.ts`,
 * `definition.ts`, `citationDiagnostics.ts`, `codeActions.ts`, `plans.ts`) takes one
 * {@link ServiceContext}; `service.ts` creates it once per service and wires the features, the
 * way `vscode-markdown-languageservice` gives each provider its workspace and parser.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Range } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import { BibCache } from '../bibliography/bibCache.js';
import { resolveBibliography, type BibDocument, type DocumentBibliography, type ResolveOptions } from '../bibliography/resolve.js';
import type { FactSource } from '../text/textFacts.js';
import { isInside } from '../workspace/paths.js';
import type { LatexProject } from '../latex/project.js';
import type { CrossrefSyntax } from '../markdown/crossref.js';
import { documentCrossrefs } from '../bibliography/documentCrossrefs.js';
import type { Logger } from '../config/logger.js';
import type { Entry } from '../corpus/schema.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import type { CorpusView } from './types.js';
import { writesOutsideAllowed, type ScopeSettings } from '../config/settings.js';
import type { ScopeHost } from './citationScope.js';

/** What `createCitationService` needs. */
export interface CitationServiceOptions {
  workspace: WorkspaceFiles;
  /** The current corpus and index (asked on every request, so a reloaded corpus counts at once). */
  corpus: () => CorpusView;
  /**
   * The settings in a document's scope, as read (`readSettings`), with which of them a workspace set
   * and the display language beside them (`scopeSettings` of `core/config/settings.ts`).
   */
  config: (uri: URI) => ScopeSettings | Promise<ScopeSettings>;
  logger: Logger;
  /**
   * Formats entries as references in the configured CSL style, for hovers and completion
   * documentation. Absent or failing: the cards show without it (the formatting commands report why).
   */
  formatReferences?: (entries: readonly Entry[], scope: URI) => Promise<string[]>;
  /** Whether the user marked an entry read. */
  isRead?: (key: string) => boolean;
  /** How many parsed files to keep (default 64), when the service makes its own cache. */
  cacheSize?: number;
  /**
   * The bibliography cache to read and fill, shared with a host that reads the same files (the
   * language server's library store publishes its BibTeX libraries' readings into it, and is asked
   * before a `.bib` is parsed); absent: the service makes its own of `cacheSize` files.
   */
  cache?: BibCache;
  /**
   * Whether the editor has our own UI (the VS Code extension): then hovers link to the details
   * page, code actions offer the search for a replacement key, and definitions may point at
   * `mlsys-papers:/<key>.bib`. Other editors get none of these, which they could not open.
   */
  clientUi?: () => boolean;
  /** The workspace's LaTeX project: the roots of a LaTeX file that names none, and their `\bibitem`s (see `resolveBibliography`). */
  project?: Pick<LatexProject, 'rootsOf' | 'declarationsOf'> & Partial<Pick<LatexProject, 'thebibliographyOf' | 'indexing' | 'filesOf'>>;
  /**
   * The workspace's citing files and the LaTeX project's graph, for the features that follow a key
   * across documents (`citationScope.ts`: rename, find all citations, the entries' counts, unused
   * entries); absent: those features answer nothing.
   */
  scope?: ScopeHost;
}

/** One entry of a document's bibliography with the file it came from. */
export interface OwnEntry {
  entry: BibEntry;
  source: DocumentBibliography['files'][number];
}

/** The state and look-ups the service's features share; see {@link createServiceContext}. */
export interface ServiceContext {
  /** The host's options, as given to `createCitationService`. */
  readonly opts: CitationServiceOptions;
  readonly ws: WorkspaceFiles;
  readonly log: Logger;
  /** Parsed bibliography files and Quarto projects, by URI and stamp (the host's, when it gives one). */
  readonly cache: BibCache;
  /** Whether the user marked an entry read (false when the host does not say). */
  isRead(key: string): boolean;
  /** Whether the editor has our own UI (`CitationServiceOptions.clientUi`; false when the host does not say). */
  clientUi(): boolean;
  /** A path as the user sees it: relative to the workspace folder that holds the file, else the full path or URI. */
  displayPath(uri: URI): string;
  /** How a document's bibliography is resolved, from the settings in its scope (plus `allowOutside`, for plans). */
  resolveOptions(uri: URI): Promise<ResolveOptions & { allowOutside?: boolean }>;
  /** The document's bibliography; undefined when it declares none. */
  bibliographyOf(doc: TextDocument): Promise<DocumentBibliography | undefined>;
  /**
   * A Markdown document's cross-reference syntax: Quarto's in `.qmd` files and in documents of a
   * Quarto project (with the project's custom types), and what its front matter adds; undefined
   * for other languages.
   */
  crossrefsOf(doc: TextDocument): Promise<CrossrefSyntax | undefined>;
  /** An entry's reference in the configured CSL style; undefined without a formatter or when it fails (logged). */
  formatted(entry: Entry, scope: string): Promise<string | undefined>;
  /** An entry of the corpus or of a library by key. */
  lookup(key: string): Entry | undefined;
  /** The entries citing `keys` cites (the library entry that is the same work as a corpus entry, when there is one), ready to copy. */
  entriesOf(keys: readonly string[]): Entry[];
}

/**
 * Every entry of a document's bibliography, in file order, with its file.
 *
 * @param bib - the resolved bibliography; undefined gives none
 */
export function bibEntries(bib: DocumentBibliography | undefined): OwnEntry[] {
  return bib?.files.flatMap((s) => s.entries.map((entry) => ({ entry, source: s }))) ?? [];
}

/**
 * A document as the core's readers take it: its text read only when asked for, and its facts when
 * it keeps them (the server's open documents: `text/textFacts.ts`), so that what they cover is not
 * scanned from the whole text again.
 */
export function bibDocument(doc: TextDocument): BibDocument {
  const facts = 'fact' in doc && typeof (doc as Partial<FactSource>).fact === 'function' ? (doc as TextDocument & FactSource) : undefined;
  return { uri: URI.parse(doc.uri), languageId: doc.languageId, get text() { return doc.getText(); }, ...(facts ? { facts } : {}) };
}

/**
 * The LSP range of a span of a document.
 *
 * @param c - the span: UTF-16 offset and length in the document's text
 */
export function rangeOf(doc: TextDocument, c: { offset: number; length: number }): Range {
  return Range.create(doc.positionAt(c.offset), doc.positionAt(c.offset + c.length));
}

/**
 * Creates the shared state of one citation service: one bibliography cache (`opts.cache`, else
 * one of `opts.cacheSize` files, default 64) and the look-ups over it.
 *
 * @param opts - the host: workspace, corpus, settings, logger and optional formatting
 */
export function createServiceContext(opts: CitationServiceOptions): ServiceContext {
  const ws = opts.workspace;
  const log = opts.logger;
  const cache = opts.cache ?? new BibCache(opts.cacheSize ?? 64);
  const isRead = opts.isRead ?? (() => false);
  const clientUi = opts.clientUi ?? (() => false);

  const displayPath = (uri: URI): string => {
    const folder = ws.folders.find((f) => isInside(f, uri));
    if (folder) return uri.path.slice(folder.path.replace(/\/$/, '').length + 1);
    return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
  };

  const resolveOptions = async (uri: URI) => {
    const scope = await opts.config(uri);
    const folder = ws.folders.find((f) => isInside(f, uri));
    return {
      latexRoot: scope.settings.latexRoot || undefined,
      latexRootBase: folder,
      latexRootFromWorkspace: scope.fromWorkspace.includes('latexRoot'),
      cache,
      project: opts.project,
      allowOutside: writesOutsideAllowed(scope),
    };
  };

  return {
    opts, ws, log, cache, isRead, clientUi, displayPath, resolveOptions,

    async bibliographyOf(doc) {
      const uri = URI.parse(doc.uri);
      const { allowOutside: _, ...resolve } = await resolveOptions(uri);
      return resolveBibliography(ws, bibDocument(doc), resolve);
    },

    crossrefsOf(doc) {
      return documentCrossrefs(ws, bibDocument(doc), cache);
    },

    async formatted(entry, scope) {
      if (!opts.formatReferences) return undefined;
      try {
        return (await opts.formatReferences([entry], URI.parse(scope)))[0];
      } catch (e) {
        // A broken custom style is reported by the formatting commands; here the card shows without it.
        log.warn(`formatting ${entry.key} for a hover: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    },

    lookup(key) {
      const v = opts.corpus();
      return v.entry(key);
    },

    entriesOf(keys) {
      const v = opts.corpus();
      return v.prepare([...new Set(keys.map((k) => v.toCite(k)).filter((e): e is Entry => !!e))]);
    },
  };
}
