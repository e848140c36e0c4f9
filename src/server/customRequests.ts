/**
 * The `mlsysPapers/*` requests and notifications the server answers (`protocol.ts`): search,
 * entries and library groups for the client's views (the corpus's topics: `topicRequests.ts`), the citation and bibliography plans,
 * formatted references, and the read state. Every handler goes through the request gate
 * (`requests.ts`).
 */
import { URI } from 'vscode-uri';
import type { Entry } from '../core/corpus/schema.js';
import { firstEntries } from '../core/search/corpus/corpusIndex.js';
import { parseQuery } from '../core/search/queryLanguage.js';
import type { CitationService } from '../core/service/service.js';
import type { ServerContext } from './serverContext.js';
import { GROUP_LIMIT } from './libraryStore.js';
import {
  Methods, type CitedKeysParams, type EntryDocumentParams, type EntryParams, type EntryResult, type FormatParams, type FormatResult,
  type LibraryEntriesParams, type LibraryEntriesResult, type LibraryGroupsParams, type LibraryGroupsResult, type PlanBibliographyParams, type PlanCitationParams,
  type PlanDeclarationParams, type PlanDeclarationResult, type PlanInsertionParams, type ReadStateParams, type SearchParams, type SearchResult,
} from './protocol.js';
import type { References } from './references.js';
import { Params } from './requests.js';
import type { Sources } from './sources.js';
import type { ServerWorkspace } from './serverWorkspace.js';

/** What the custom requests answer from. */
export interface CustomRequestsDeps {
  workspace: ServerWorkspace;
  sources: Sources;
  references: References;
  service: CitationService;
  /** Keys (lower case) the user marked read, for the service's `isRead`. */
  read: Set<string>;
}

/** Registers the `mlsysPapers/*` handlers on the connection. */
export function registerCustomRequests(ctx: ServerContext, { workspace, sources, references, service, read }: CustomRequestsDeps): void {
  const { connection, gate, log } = ctx;
  const libraries = sources.libraries;
  connection.onRequest(Methods.search, gate.answer(Methods.search, Params.search, (p: SearchParams): SearchResult => {
    const { invalid } = parseQuery(p.query);
    const v = sources.view();
    const hits = p.query.trim() ? v.index.search(p.query, p.limit ?? 60).map((h) => h.entry) : firstEntries(v.corpus, p.limit ?? 60);
    const sameWorkInLibraries: SearchResult['sameWorkInLibraries'] = {};
    for (const e of hits) {
      const t = !e.library ? sources.catalog.sameWorkInLibrary(e.key) : undefined;
      if (t) sameWorkInLibraries[e.key] = { key: t.key, library: t.library!.name };
    }
    return { keys: hits.map((e) => e.key), invalid, entries: hits, sameWorkInLibraries };
  }));
  connection.onRequest(Methods.entry, gate.answer(Methods.entry, Params.entry, (p: EntryParams): EntryResult => {
    const e = sources.view().entry(p.key);
    if (!e) return {};
    return { entry: e, fields: e.library ? libraries.fields(e) : undefined, sameWorkInLibrary: e.library ? undefined : sources.catalog.sameWorkInLibrary(e.key) };
  }));
  connection.onRequest(Methods.libraryStatus, gate.answer(Methods.libraryStatus, undefined, () => ({ files: libraries.status() })));
  connection.onRequest(Methods.libraryGroups, gate.answer(Methods.libraryGroups, Params.libraryGroups, (p: LibraryGroupsParams): LibraryGroupsResult => ({ groups: libraries.groups(p.uri) ?? [] })));
  connection.onRequest(Methods.libraryEntries, gate.answer(Methods.libraryEntries, Params.libraryEntries, (p: LibraryEntriesParams): LibraryEntriesResult => {
    const r = libraries.groupEntries(p.uri, p.group);
    return { entries: r?.entries ?? [], total: r?.total ?? 0, limit: GROUP_LIMIT };
  }));
  connection.onRequest(Methods.entryDocument, gate.answer(Methods.entryDocument, Params.entryDocument, (p: EntryDocumentParams) => service.entryDocument(p.uri)));
  connection.onRequest(Methods.planCitation, gate.answer(Methods.planCitation, Params.planCitation, async (p: PlanCitationParams) => service.planCitation(await workspace.mustBeOpen(p.uri), p.position, p.keys)));
  connection.onRequest(Methods.planBibliography, gate.answer(Methods.planBibliography, Params.planBibliography, async (p: PlanBibliographyParams) => service.planBibliography(await workspace.mustBeOpen(p.uri), p.keys)));
  connection.onRequest(Methods.planDeclaration, gate.answer(Methods.planDeclaration, Params.planDeclaration, async (p: PlanDeclarationParams): Promise<PlanDeclarationResult> =>
    service.planDeclaration(await workspace.mustBeOpen(p.uri), p.file) ?? null));
  connection.onRequest(Methods.citedKeys, gate.answer(Methods.citedKeys, Params.citedKeys, async (p: CitedKeysParams): Promise<string[]> => {
    const doc = await workspace.openDocument(p.uri);
    return doc ? await service.citedKeys(doc) : [];
  }));
  connection.onRequest(Methods.planInsertion, gate.answer(Methods.planInsertion, Params.planInsertion, (p: PlanInsertionParams) => service.planInsertion(URI.parse(p.uri), p.keys)));
  connection.onRequest(Methods.format, gate.answer(Methods.format, Params.format, async (p: FormatParams): Promise<FormatResult> => {
    const v = sources.view();
    const entries = p.keys.map((k) => v.entry(k)).filter((e): e is Entry => !!e);
    try {
      return { references: await references.format(entries, p.scope ? URI.parse(p.scope) : undefined) };
    } catch (e) {
      log.warn(e instanceof Error ? e.message : String(e));
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }));
  connection.onNotification(Methods.readState, gate.heed(Methods.readState, Params.readState, (p: ReadStateParams) => {
    read.clear();
    for (const k of p.keys) read.add(k.toLowerCase());
  }));
}
