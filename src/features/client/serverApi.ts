/**
 * The one way the VS Code features talk to the language server: a typed method per custom message
 * of `server/protocol.ts` over the `vscode-languageclient` client. A feature never names a method
 * or picks a result type; the protocol's `RequestType`s carry both, so a change of a message's
 * shape fails to compile here rather than at run time. Standard LSP (completion, hover, …) goes
 * through the client itself, not through this.
 */
import type * as vscode from 'vscode';
import { State, type BaseLanguageClient } from 'vscode-languageclient';
import type { BibChange, CitePlan } from '../../core/service/types.js';
import {
  ClientNotifications, ClientRequests, ServerNotifications,
  type CitedKeysParams, type CorpusChangedParams, type CorpusResult, type EntryDocumentParams, type EntryParams, type EntryResult,
  type FormatParams, type FormatResult, type LibrariesChangedParams, type LibraryEntriesParams, type LibraryEntriesResult,
  type LibraryGroupsParams, type LibraryGroupsResult, type LibraryStatusParams, type LibraryStatusResult, type PlanBibliographyParams,
  type PlanBibliographyResult, type PlanCitationParams, type PlanDeclarationParams, type PlanDeclarationResult, type PlanInsertionParams,
  type ReadStateParams, type SearchParams, type SearchResult,
} from '../../server/protocol.js';

/**
 * The language server's custom requests and notifications as methods. Requests sent before the
 * client has started wait for it; each rejects with the server's `ResponseError` (its message is
 * one line, fit for the user) or when `token` is cancelled.
 */
export class ServerApi {
  constructor(private readonly client: BaseLanguageClient) {}

  /** Calls `listener` each time the server is running: its first start and every restart after a crash. */
  onDidStart(listener: () => void): vscode.Disposable {
    return this.client.onDidChangeState((e) => { if (e.newState === State.Running) listener(); });
  }

  // --- Requests to the server ---

  /** `mlsysPapers/corpus`: the corpus and its version. */
  corpus(): Promise<CorpusResult> {
    return this.client.sendRequest(ClientRequests.corpus);
  }

  /** `mlsysPapers/search`: keys in rank order, library hits, twins and the filters not understood. */
  search(params: SearchParams, token?: vscode.CancellationToken): Promise<SearchResult> {
    return this.client.sendRequest(ClientRequests.search, params, token);
  }

  /** `mlsysPapers/entry`: an entry by key, with a library entry's fields as written and a corpus entry's library twin. */
  entry(params: EntryParams, token?: vscode.CancellationToken): Promise<EntryResult> {
    return this.client.sendRequest(ClientRequests.entry, params, token);
  }

  /** `mlsysPapers/entryDocument`: the text of a `mlsys-papers:/<key>.bib` document. */
  entryDocument(params: EntryDocumentParams, token?: vscode.CancellationToken): Promise<string> {
    return this.client.sendRequest(ClientRequests.entryDocument, params, token);
  }

  /** `mlsysPapers/citedKeys`: the keys an open document cites, in order, each once. */
  citedKeys(params: CitedKeysParams, token?: vscode.CancellationToken): Promise<string[]> {
    return this.client.sendRequest(ClientRequests.citedKeys, params, token);
  }

  /** `mlsysPapers/format`: formatted references, one per key, or why the style cannot be used. */
  format(params: FormatParams, token?: vscode.CancellationToken): Promise<FormatResult> {
    return this.client.sendRequest(ClientRequests.format, params, token);
  }

  /** `mlsysPapers/planCitation`: the edit citing keys at a position, and the bibliography's change. */
  planCitation(params: PlanCitationParams): Promise<CitePlan> {
    return this.client.sendRequest(ClientRequests.planCitation, params);
  }

  /** `mlsysPapers/planBibliography`: adding entries a document cites to its bibliography. */
  planBibliography(params: PlanBibliographyParams): Promise<PlanBibliographyResult> {
    return this.client.sendRequest(ClientRequests.planBibliography, params);
  }

  /** `mlsysPapers/planInsertion`: adding entries to a named bibliography file. */
  planInsertion(params: PlanInsertionParams): Promise<BibChange> {
    return this.client.sendRequest(ClientRequests.planInsertion, params);
  }

  /** `mlsysPapers/planDeclaration`: declaring a bibliography file in an open document; null without `\end{document}`. */
  planDeclaration(params: PlanDeclarationParams): Promise<PlanDeclarationResult> {
    return this.client.sendRequest(ClientRequests.planDeclaration, params);
  }

  /** `mlsysPapers/libraryStatus`: every library file's status now. */
  libraryStatus(): Promise<LibraryStatusResult> {
    return this.client.sendRequest(ClientRequests.libraryStatus);
  }

  /** `mlsysPapers/libraryGroups`: a library's groups for the tree. */
  libraryGroups(params: LibraryGroupsParams): Promise<LibraryGroupsResult> {
    return this.client.sendRequest(ClientRequests.libraryGroups, params);
  }

  /** `mlsysPapers/libraryEntries`: the entries of one group of a library, newest first. */
  libraryEntries(params: LibraryEntriesParams): Promise<LibraryEntriesResult> {
    return this.client.sendRequest(ClientRequests.libraryEntries, params);
  }

  // --- Notifications to the server ---

  /** `mlsysPapers/readState`: the whole set of read keys. */
  sendReadState(params: ReadStateParams): Promise<void> {
    return this.client.sendNotification(ClientNotifications.readState, params);
  }

  // --- Notifications from the server ---

  /** `mlsysPapers/corpusChanged`. */
  onCorpusChanged(handler: (params: CorpusChangedParams) => void): vscode.Disposable {
    return this.client.onNotification(ServerNotifications.corpusChanged, handler);
  }

  /** `mlsysPapers/libraryStatusChanged`: every library file's status, whenever one changes. */
  onLibraryStatusChanged(handler: (params: LibraryStatusParams) => void): vscode.Disposable {
    return this.client.onNotification(ServerNotifications.libraryStatusChanged, handler);
  }

  /** `mlsysPapers/librariesChanged`. */
  onLibrariesChanged(handler: (params: LibrariesChangedParams) => void): vscode.Disposable {
    return this.client.onNotification(ServerNotifications.librariesChanged, handler);
  }
}
