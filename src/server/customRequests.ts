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
import { type EntryResult, type FormatResult, type LibraryEntriesResult, type LibraryGroupsResult, type PlanDeclarationResult, type SearchResult } from './protocol.js';
import type { References } from './references.js';
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
  gate.onRequest(connection, 'search', (p): SearchResult => {
    const { invalid } = parseQuery(p.query);
    const v = sources.view();
    const hits = p.query.trim() ? v.index.search(p.query, p.limit ?? 60).map((h) => h.entry) : firstEntries(v.corpus, p.limit ?? 60);
    const sameWorkInLibraries: SearchResult['sameWorkInLibraries'] = {};
    for (const e of hits) {
      const t = !e.library ? sources.catalog.sameWorkInLibrary(e.key) : undefined;
      if (t) sameWorkInLibraries[e.key] = { key: t.key, library: t.library!.name };
    }
    return { keys: hits.map((e) => e.key), invalid, entries: hits, sameWorkInLibraries };
  });
  gate.onRequest(connection, 'entry', (p): EntryResult => {
    const e = sources.view().entry(p.key);
    if (!e) return {};
    return { entry: e, fields: e.library ? libraries.fields(e) : undefined, sameWorkInLibrary: e.library ? undefined : sources.catalog.sameWorkInLibrary(e.key) };
  });
  gate.onRequest(connection, 'libraryStatus', () => ({ files: libraries.status() }));
  gate.onRequest(connection, 'libraryGroups', (p): LibraryGroupsResult => ({ groups: libraries.groups(p.uri) ?? [] }));
  gate.onRequest(connection, 'libraryEntries', (p): LibraryEntriesResult => {
    const r = libraries.groupEntries(p.uri, p.group);
    return { entries: r?.entries ?? [], total: r?.total ?? 0, limit: GROUP_LIMIT };
  });
  gate.onRequest(connection, 'entryDocument', (p) => service.entryDocument(p.uri));
  gate.onRequest(connection, 'planCitation', async (p) => service.planCitation(await workspace.mustBeOpen(p.uri), p.position, p.keys));
  gate.onRequest(connection, 'planBibliography', async (p) => service.planBibliography(await workspace.mustBeOpen(p.uri), p.keys));
  gate.onRequest(connection, 'planDeclaration', async (p): Promise<PlanDeclarationResult> =>
    service.planDeclaration(await workspace.mustBeOpen(p.uri), p.file) ?? null);
  gate.onRequest(connection, 'citedKeys', async (p): Promise<string[]> => {
    const doc = await workspace.openDocument(p.uri);
    return doc ? await service.citedKeys(doc) : [];
  });
  gate.onRequest(connection, 'planInsertion', (p) => service.planInsertion(URI.parse(p.uri), p.keys));
  gate.onRequest(connection, 'format', async (p): Promise<FormatResult> => {
    const v = sources.view();
    const entries = p.keys.map((k) => v.entry(k)).filter((e): e is Entry => !!e);
    try {
      return { references: await references.format(entries, p.scope ? URI.parse(p.scope) : undefined) };
    } catch (e) {
      log.warn(e instanceof Error ? e.message : String(e));
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
  gate.onNotification(connection, 'readState', (p) => {
    read.clear();
    for (const k of p.keys) read.add(k.toLowerCase());
  });
}
