/**
 * The corpus as the VS Code layer sees it: the language server owns it (the bundled corpus plus
 * the user's corpus files, validated and indexed off the editor's thread); this keeps the model
 * the tree, the details page and the commands show, and asks the server to search and format.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { buildCorpus, type Corpus } from '../core/model.js';
import type { Entry } from '../core/schema.js';
import { isCitingLanguage } from '../core/context.js';
import { Methods, type CitedKeysParams, type CorpusResult, type FormatResult, type SearchResult } from '../server/protocol.js';

/** The result of {@link CorpusClient.search}. */
export interface SearchAnswer {
  entries: Entry[];
  /** Filters of the query that were not understood (`year:soon`). */
  invalid: string[];
}

/** The server's corpus, mirrored; fires when the server reloads it. */
export class CorpusClient implements vscode.Disposable {
  private model: Corpus = buildCorpus({ topics: [], entries: [] });
  private version = -1;
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subs: vscode.Disposable[] = [this.emitter];
  readonly onDidChange = this.emitter.event;
  /** Settles when the first corpus arrived from the server. */
  readonly ready: Promise<void>;

  constructor(private readonly client: LanguageClient, private readonly log: vscode.LogOutputChannel) {
    this.subs.push(client.onNotification(Methods.corpusChanged, () => void this.refresh()));
    this.ready = this.refresh();
  }

  /** The current corpus (empty until {@link ready}). */
  get corpus(): Corpus {
    return this.model;
  }

  private async refresh(): Promise<void> {
    try {
      const r = await this.client.sendRequest<CorpusResult>(Methods.corpus);
      if (r.version === this.version) return;
      this.version = r.version;
      this.model = buildCorpus(r.data);
      this.emitter.fire();
    } catch (e) {
      this.log.error(`cannot get the corpus from the language server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Searches the corpus (ranking: `core/search.ts`, in the server).
   *
   * @param query - free text and filters (`author:`, `year:`, `venue:`, `topic:`)
   * @returns the entries in rank order; the first entries of the corpus for an empty query
   */
  async search(query: string, limit = 60): Promise<SearchAnswer> {
    await this.ready;
    const r = await this.client.sendRequest<SearchResult>(Methods.search, { query, limit });
    return { entries: r.keys.map((k) => this.model.entry(k)).filter((e): e is Entry => !!e), invalid: r.invalid };
  }

  /** The keys a LaTeX or Markdown document cites, in order, each once (read by the server). */
  async citedKeys(doc: vscode.TextDocument): Promise<string[]> {
    if (!isCitingLanguage(doc.languageId)) return [];
    return this.client.sendRequest<string[]>(Methods.citedKeys, { uri: doc.uri.toString() } satisfies CitedKeysParams);
  }

  /**
   * Formats entries as references in the configured CSL style (`mlsysPapers.citationStyle`).
   *
   * @param scope - the document whose settings count
   * @throws Error with a message for the user when the style cannot be used
   */
  async format(entries: readonly Entry[], scope?: vscode.Uri): Promise<string[]> {
    if (!entries.length) return [];
    const r = await this.client.sendRequest<FormatResult>(Methods.format, { keys: entries.map((e) => e.key), scope: scope?.toString() });
    if ('error' in r) throw new Error(r.error);
    return r.references;
  }

  /** Like {@link format}, but shows the problem to the user and returns []. */
  async tryFormat(entries: readonly Entry[], scope?: vscode.Uri): Promise<string[]> {
    try {
      return await this.format(entries, scope);
    } catch (e) {
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
      return [];
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
