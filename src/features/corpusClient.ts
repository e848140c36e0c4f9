/**
 * The corpus as the VS Code layer sees it: the language server owns it (the bundled corpus plus
 * the user's corpus files, validated and indexed off the editor's thread, 3,000+ entries). The
 * client keeps its taxonomy (topic labels and paths), asks for what a view shows when it shows it
 * (the Topics view's rows with their counts, search hits, entries by key), and keeps the entries
 * it was shown, so that the commands on them need not ask again. Nothing is built per entry at
 * activation.
 *
 * The user's libraries stay in the server too (they may hold 100,000 entries): their status for
 * the status bar, and a library's groups and entries when the tree opens them.
 */
import * as vscode from 'vscode';
import { buildTaxonomy, type Taxonomy } from '../core/corpus/model.js';
import type { Entry } from '../core/corpus/schema.js';
import type { BrowseNode, BrowseParent } from '../core/corpus/browse.js';
import { fileKind, isCiting } from '../core/workspace/fileKind.js';
import { Disposable } from './dispose.js';
import type { ServerApi } from './client/serverApi.js';
import type { EntryResult, LibraryEntriesResult, LibraryFileStatus, LibraryGroup, TopicFilter } from '../server/protocol.js';

/** Entries the client keeps (the ones it was shown last). */
const SEEN_LIMIT = 5000;

/** The result of {@link CorpusClient.search}. */
export interface SearchAnswer {
  entries: Entry[];
  /** Filters of the query that were not understood (`year:soon`). */
  invalid: string[];
  /** Corpus entries among them that a library has too: the key citing uses, and the library's name. */
  sameWorkInLibraries: Record<string, { key: string; library: string }>;
}

/**
 * The active editor and the entries its document cites, in citation order, for the commands over
 * them (Insert Bibliography, Export Cited Entries).
 *
 * @returns undefined, after telling the user why, when no editor is open or its document cites no
 *   entry the corpus or a library has
 */
export async function citedInActiveEditor(corpus: CorpusClient): Promise<{ editor: vscode.TextEditor; entries: Entry[] } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: open a LaTeX or Markdown document that cites entries first.'));
    return undefined;
  }
  const entries = await corpus.citedEntries(editor.document);
  if (!entries.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: this document cites no entry of the corpus.'));
    return undefined;
  }
  return { editor, entries };
}

/** What the client knows of the server's corpus (see the module comment); fires when the server reloads it. */
export class CorpusClient extends Disposable {
  private model: Taxonomy = buildTaxonomy([]);
  private version = -1;
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  /**
   * Settles when the corpus's taxonomy first arrived from the server. A first request that fails
   * (the server did not start) does not settle it: a command awaiting it would act on nothing; the
   * taxonomy asked for again when the server runs settles it.
   */
  readonly ready: Promise<void>;
  private settleReady!: () => void;
  /** Entries seen in answers (corpus and library), by lower-case key (bounded, oldest out first). */
  private readonly seen = new Map<string, Entry>();
  private statusList: LibraryFileStatus[] = [];
  private readonly libraryEmitter = this._register(new vscode.EventEmitter<void>());
  /** The libraries' status or entries changed. */
  readonly onDidChangeLibraries = this.libraryEmitter.event;
  private readonly statusEmitter = this._register(new vscode.EventEmitter<void>());
  /** The libraries' status changed (loading progress too). */
  readonly onDidChangeLibraryStatus = this.statusEmitter.event;

  constructor(private readonly server: ServerApi, private readonly log: vscode.LogOutputChannel) {
    super();
    this._register(server.onCorpusChanged(() => void this.refresh()));
    this._register(server.onLibraryStatusChanged((p) => this.setStatus(p.files)));
    this._register(server.onLibrariesChanged(() => { this.forget((e) => !!e.library); this.libraryEmitter.fire(); }));
    // A server that (re)starts has its corpus anew: after a crash the client restarts it, and a
    // request sent while it was starting may have failed.
    let starts = 0;
    this._register(server.onDidStart(() => {
      // The first start: only if the first request did not get the corpus. A restart: always.
      if (starts++ > 0) this.version = -1;
      if (this.version < 0) void this.refresh();
      void this.server.libraryStatus().then((p) => this.setStatus(p.files),
        (e: unknown) => this.log.warn(`cannot get the libraries' status: ${e instanceof Error ? e.message : String(e)}`));
    }));
    this.ready = new Promise<void>((resolve) => { this.settleReady = resolve; });
    void this.refresh();
  }

  /** The corpus's topics (empty until {@link ready}). */
  get taxonomy(): Taxonomy {
    return this.model;
  }

  /** An entry this client was shown (a tree row, a search hit, an entry asked for), by key ignoring case. */
  entry(key: string): Entry | undefined {
    return this.seen.get(key.toLowerCase());
  }

  /**
   * Entries by key, in the order asked, each once (keys ignoring case): the ones this client was
   * shown, the others asked from the server in one request. Keys neither the corpus nor a library
   * has are left out.
   */
  async entries(keys: readonly string[], token?: vscode.CancellationToken): Promise<Entry[]> {
    const unknown = [...new Set(keys.filter((k) => !this.entry(k)))];
    if (unknown.length) this.remember((await this.server.entries({ keys: unknown }, token)).entries);
    return [...new Set(keys.map((k) => this.entry(k)))].filter((e): e is Entry => !!e);
  }

  /**
   * The Topics view's rows under `parent` (see `core/corpus/browse.ts`), as the server lists them
   * for the view's filter; their entries are kept.
   */
  async topicChildren(parent: BrowseParent, filter: TopicFilter): Promise<BrowseNode[]> {
    await this.ready;
    const r = await this.server.topicChildren({ parent, ...filter });
    this.remember(r.nodes.flatMap((n) => (n.kind === 'entry' ? [n.entry] : [])));
    return r.nodes;
  }

  /** Every entry under topics that the Topics view shows with `filter` (Export Entries of a topic). */
  async topicEntries(topics: readonly string[], filter: TopicFilter): Promise<Entry[]> {
    await this.ready;
    return (await this.server.topicEntries({ topics: [...topics], ...filter })).entries;
  }

  /**
   * The libraries the settings name, and how far each has loaded. (Open documents' bibliographies
   * are searched as libraries too, but they come and go with the editors: the Topics view and the
   * status bar show the user's libraries only.)
   */
  get libraryStatus(): readonly LibraryFileStatus[] {
    return this.statusList;
  }

  private setStatus(files: LibraryFileStatus[]): void {
    const signature = (list: readonly LibraryFileStatus[]) => list.map((f) => `${f.uri}:${f.state}:${f.entries}`).join();
    const had = signature(this.statusList);
    this.statusList = files.filter((f) => !f.fromDocument);
    this.statusEmitter.fire();
    if (signature(this.statusList) !== had) this.libraryEmitter.fire();
  }

  private forget(which: (e: Entry) => boolean): void {
    for (const [k, e] of [...this.seen]) if (which(e)) this.seen.delete(k);
  }

  private remember(entries: readonly Entry[]): void {
    for (const e of entries) {
      const k = e.key.toLowerCase();
      this.seen.delete(k);
      this.seen.set(k, e);
    }
    while (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.keys().next().value!);
  }

  /**
   * An entry from the server, with what the client does not keep: a library entry's fields as
   * written and its BibTeX text as citing copies it, the library entry that is a corpus entry's work.
   */
  async fetchEntry(key: string, token?: vscode.CancellationToken): Promise<EntryResult> {
    const r = await this.server.entry({ key }, token);
    if (r.entry) this.remember([r.entry]);
    return r;
  }

  /** A library's groups for the tree. */
  async libraryGroups(uri: string): Promise<LibraryGroup[]> {
    return (await this.server.libraryGroups({ uri })).groups;
  }

  /** The entries of a library's group, newest first (at most `limit` of `total`). */
  async libraryEntries(uri: string, group: string): Promise<LibraryEntriesResult> {
    const r = await this.server.libraryEntries({ uri, group });
    this.remember(r.entries);
    return r;
  }

  private async refresh(): Promise<void> {
    try {
      const r = await this.server.topics();
      if (r.version === this.version) return;
      this.version = r.version;
      this.model = buildTaxonomy(r.topics);
      // Corpus entries shown before the reload may have changed or gone.
      this.forget((e) => !e.library);
      this.settleReady();
      this.emitter.fire();
    } catch (e) {
      this.log.error(`cannot get the corpus from the language server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Searches the corpus and the libraries (ranking: `core/search/`, in the server).
   *
   * @param query - free text and filters (`author:`, `year:`, `venue:`, `topic:`)
   * @param token - cancels the request (the server stops and the promise rejects)
   * @returns the entries in rank order; the reading list's first entries for an empty query
   */
  async search(query: string, limit = 60, token?: vscode.CancellationToken): Promise<SearchAnswer> {
    await this.ready;
    const r = await this.server.search({ query, limit }, token);
    this.remember(r.entries);
    return { entries: r.entries, invalid: r.invalid, sameWorkInLibraries: r.sameWorkInLibraries ?? {} };
  }

  /** The keys a LaTeX or Markdown document cites, in order, each once (read by the server). */
  async citedKeys(doc: vscode.TextDocument, token?: vscode.CancellationToken): Promise<string[]> {
    if (!isCiting(fileKind(doc.uri.path, doc.languageId))) return [];
    return this.server.citedKeys({ uri: doc.uri.toString() }, token);
  }

  /** The entries a document cites, in citation order, each once (keys neither the corpus nor a library has are left out). */
  async citedEntries(doc: vscode.TextDocument, token?: vscode.CancellationToken): Promise<Entry[]> {
    const keys = await this.citedKeys(doc, token);
    await this.ready;
    // Keys are matched ignoring case, so two spellings of one key are one entry.
    return this.entries(keys, token);
  }

  /**
   * Formats entries as references in the configured CSL style (`mlsysPapers.citationStyle`).
   *
   * @param scope - the document whose settings count
   * @param token - cancels the request
   * @throws Error with a message for the user when the style cannot be used
   */
  async format(entries: readonly Entry[], scope?: vscode.Uri, token?: vscode.CancellationToken): Promise<string[]> {
    if (!entries.length) return [];
    const r = await this.server.format({ keys: entries.map((e) => e.key), scope: scope?.toString() }, token);
    if ('error' in r) throw new Error(r.error);
    return r.references;
  }

  /** Like {@link format}, but shows the problem to the user and returns []. */
  async tryFormat(entries: readonly Entry[], scope?: vscode.Uri, token?: vscode.CancellationToken): Promise<string[]> {
    try {
      return await this.format(entries, scope, token);
    } catch (e) {
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
      return [];
    }
  }
}
