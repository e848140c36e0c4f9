/**
 * Where entries come from: the corpus (bundled plus `mlsysPapers.corpusFiles`, `corpusStore.ts`)
 * and the user's libraries (`mlsysPapers.libraries` and open documents' bibliographies,
 * `libraryStore.ts`), loaded when the settings or the files change, and seen by the citation
 * service as one {@link CorpusView}: the core's {@link Catalog}, which the store feeds.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import { BibCache } from '../core/bibliography/bibCache.js';
import { inWorkspaceReal, sameFile } from '../core/workspace/paths.js';
import { fileKind, isBibliography } from '../core/workspace/fileKind.js';
import { Catalog } from '../core/library/catalog.js';
import type { CorpusView } from '../core/service/types.js';
import type { ServerContext } from './serverContext.js';
import { CorpusStore } from './corpusStore.js';
import { LibraryStore, type LibraryCache } from './libraryStore.js';
import { ServerNotifications, ServerRequests, type LibraryFileStatus } from './protocol.js';
import { isGlob, type ServerSettings } from './serverSettings.js';
import type { Watching } from './watching.js';
import type { ServerWorkspace } from './serverWorkspace.js';
import type { FileChange, WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/** The pause before the libraries are reloaded after something that may change them, in ms. */
export const RELOAD_DELAY_MS = 200;
/** The pause in typing before an edited open library is read again, in ms. */
export const LIBRARY_EDIT_DELAY_MS = 300;
/** How many files the bibliography cache keeps. */
const BIB_CACHE_FILES = 64;

/** Which store found a file's problems. */
export type FileProblemOwner = 'library' | 'corpus';

/** What the server's entries depend on, and what they changed. */
export interface SourcesEvents {
  /** Answers that depend on the entries may have changed (diagnostics above all). */
  changed(): void;
  /**
   * The problems the library store or the corpus store found in their files, per file URI (a file
   * whose problems went away, or that stopped being read, maps to []): `diagnostics.ts` sends them,
   * the one owner of a file's diagnostics.
   */
  problems(owner: FileProblemOwner, byUri: ReadonlyMap<string, Diagnostic[]>): void;
  /** The bibliography files an open document declares (`includeDocumentBibliography`). */
  documentBibliographies(doc: TextDocument): Promise<URI[]>;
}

/** The corpus and the libraries (see the file comment). */
export class Sources implements WorkspaceChangeListener {
  readonly corpus: CorpusStore;
  readonly libraries: LibraryStore;
  /** The corpus plus the libraries: lookup, the same work in a library, search, the text citing copies. */
  readonly catalog: Catalog;
  /**
   * The one cache of bibliography files the citation service reads: the library store publishes
   * its BibTeX libraries' readings into it and is asked before a `.bib` is parsed (issue 22).
   */
  readonly bibCache: BibCache;
  /** Set in `initialize` from the host and the client's `cacheDir`. */
  libraryCache: LibraryCache | undefined;
  private corpusGlobs = false;
  private libraryGlobs = false;
  private corpusSet = false;
  /** The files `mlsysPapers.libraries` named at the last reload (globs resolved). */
  private configuredLibraries: URI[] = [];
  /** The reload of the libraries under way, and whether another was asked for meanwhile. */
  private libraryReload: Promise<void> | undefined;
  private libraryReloadAgain = false;
  /** After a pause in typing: one timer per document. */
  private readonly libraryEditPause;
  /** Reloads the libraries after {@link RELOAD_DELAY_MS}; each call restarts the wait. */
  readonly reloadLibrariesSoon: () => void;

  constructor(private readonly ctx: ServerContext, private readonly settings: ServerSettings, private readonly workspace: ServerWorkspace, private readonly watching: Watching, private readonly events: SourcesEvents) {
    const { log, connection } = ctx;
    this.corpus = new CorpusStore(log, (uri) => workspace.readForStore(uri, { openFirst: false, stripBom: true }));
    this.catalog = new Catalog(this.corpus.view);
    const self = this;
    this.libraries = new LibraryStore(log, {
      read: (uri) => workspace.readForStore(uri, { openFirst: true, stripBom: false }),
      stamp: (uri) => workspace.fileStamp(uri),
      hash: ctx.host.hash,
      get cache() { return self.libraryCache; },
      yield: ctx.yield,
      now: () => ctx.clock.now(),
      publish: (uri, stamp, reading) => self.bibCache.publish(uri, stamp, reading),
    }, (files: LibraryFileStatus[]) => ctx.tell(() => connection.sendNotification(ServerNotifications.libraryStatusChanged, { files })), () => {
      events.problems('library', this.libraries.diagnostics());
      ctx.tell(() => connection.sendNotification(ServerNotifications.librariesChanged, { version: this.libraries.version }));
      events.changed();
    }, this.catalog);
    // A CSL bibliography is read in slices between requests (a 50,000-item CSL-YAML file held the server for 43 s read at once).
    this.bibCache = new BibCache(BIB_CACHE_FILES, this.libraries, ctx.yield);
    this.libraryEditPause = ctx.timerPerUri();
    this.reloadLibrariesSoon = ctx.debounce(RELOAD_DELAY_MS, () => this.reloadLibrariesNow());
  }

  /** The corpus and the libraries, as the service sees them (the catalog, on the corpus as it is now). */
  view(): CorpusView {
    const catalog = this.catalog;
    catalog.setCorpus(this.corpus.view);
    return {
      corpus: catalog.corpus,
      index: { search: (query, limit) => catalog.search(query, limit) },
      entry: (key) => catalog.entry(key),
      toCite: (key) => catalog.toCite(key),
      prepare: (entries) => catalog.prepare(entries),
      isLibrary: (uri) => this.isLibraryFile(URI.parse(uri)),
      isLibraryReady: (uri) => this.libraries.isReady(uri),
      isLibraryFile: (uri) => this.libraries.has(uri),
      sameWorkInLibrary: (key) => catalog.sameWorkInLibrary(key),
    };
  }

  /** Changes whenever an entry may have: the corpus's and the libraries' versions. */
  version(): string {
    return `${this.corpus.version}.${this.libraries.version}`;
  }

  /** Reads the user's corpus files (`mlsysPapers.corpusFiles`) again. */
  async reloadCorpus(): Promise<void> {
    const { connection } = this.ctx;
    const { settings: s, fromWorkspace } = await this.settings.scope();
    const patterns = s.corpusFiles;
    this.corpusGlobs = patterns.some(isGlob);
    const uris = await this.resolveFiles('corpusFiles', patterns, fromWorkspace.includes('corpusFiles'));
    this.watching.set('corpus', uris);
    const changed = await this.corpus.loadUserFiles(uris);
    this.events.problems('corpus', this.corpus.fileDiagnostics);
    if (changed || !this.corpusSet) { this.corpusSet = true; this.catalog.setCorpus(this.corpus.view); }
    if (changed) {
      void connection.sendNotification(ServerNotifications.corpusChanged, { version: this.corpus.version });
      this.events.changed();
    }
  }

  /** Reloads the corpus now and the libraries after a pause (the settings or the folders changed). */
  reloadSoon(): void {
    void this.reloadCorpus().catch(this.ctx.fail);
    this.reloadLibrariesSoon();
  }

  /**
   * Reloads the libraries now, or, when a reload is under way, once more after it. Reloads never
   * overlap: one may wait long (for a document's bibliography, which waits for a library's load)
   * while documents open and close, and an earlier one ending last would set the files it saw,
   * leaving out a bibliography that joined meanwhile.
   */
  private reloadLibrariesNow(): void {
    if (this.ctx.closed) return;
    if (this.libraryReload) { this.libraryReloadAgain = true; return; }
    this.libraryReload = this.reloadLibraries().catch(this.ctx.fail).finally(() => {
      this.libraryReload = undefined;
      if (!this.libraryReloadAgain) return;
      this.libraryReloadAgain = false;
      this.reloadLibrariesNow();
    });
  }

  /**
   * Files named by `mlsysPapers.libraries`, and the bibliographies of open documents
   * (`includeDocumentBibliography`), one reload at a time ({@link reloadLibrariesNow}). The order of the
   * libraries (which one a key is taken from, which one a duplicate key is reported on) is the
   * settings' order, then the documents' bibliographies by URI: not the order documents opened in.
   */
  private async reloadLibraries(): Promise<void> {
    const { settings: s, fromWorkspace } = await this.settings.scope();
    if (this.catalog.preferCorpusKeys !== s.preferCorpusKeys) {
      this.catalog.preferCorpusKeys = s.preferCorpusKeys;
      this.events.changed();
    }
    const patterns = s.libraries;
    this.libraryGlobs = patterns.some(isGlob);
    const wanted = new Map<string, { uri: URI; fromDocument: boolean }>();
    for (const u of await this.resolveFiles('libraries', patterns, fromWorkspace.includes('libraries'))) wanted.set(u.toString(), { uri: u, fromDocument: false });
    this.configuredLibraries = [...wanted.values()].map((w) => w.uri);
    if (s.includeDocumentBibliography) {
      const declared = new Map<string, URI>();
      for (const doc of this.workspace.documents.all()) {
        for (const u of await this.events.documentBibliographies(doc).catch((e: unknown) => { this.ctx.log.warn(`bibliography of ${doc.uri}: ${String(e)}`); return []; })) {
          declared.set(u.toString(), u);
        }
      }
      for (const [id, u] of [...declared].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) if (!wanted.has(id)) wanted.set(id, { uri: u, fromDocument: true });
    }
    this.libraries.setFiles(wanted);
    this.watching.set('libraries', [...wanted.values()].map((w) => w.uri));
  }

  /**
   * Whether a file is one of the libraries the settings name, which are never written: compared by
   * real path ({@link sameFile}), so that `ws/sub/../refs.bib`, `ws/./refs.bib`, `ws//refs.bib`
   * and a symlinked folder all name the one library. The settings' plain paths are read afresh (a
   * citation right after a change of the setting, before the libraries reload, is held too);
   * globs as last resolved.
   */
  async isLibraryFile(uri: URI): Promise<boolean> {
    if (this.libraries.isConfigured(uri.toString())) return true;
    const plain = (await this.settings.scope()).settings.libraries.filter((p) => !isGlob(p));
    for (const lib of [...this.configuredLibraries, ...plain.flatMap((p) => this.workspace.settingUris(p))]) {
      if (await sameFile(this.workspace.service, lib, uri)) return true;
    }
    return false;
  }

  /** The files a setting's paths and globs name; from a workspace's settings, only those inside its folders. */
  private async resolveFiles(setting: 'corpusFiles' | 'libraries', patterns: readonly string[], restricted: boolean): Promise<URI[]> {
    const { ctx } = this;
    const out = new Map<string, URI>();
    for (const p of patterns) {
      if (isGlob(p) && !/^(\/|~\/|[A-Za-z]:[\\/])/.test(p)) {
        if (!ctx.init.fileSystem) { ctx.log.warn(`${setting}: the glob "${p}" needs a client that can find files; name the files instead`); continue; }
        const found = await ctx.connection.sendRequest(ServerRequests.findFiles, { pattern: p }).catch((e: unknown) => { ctx.log.warn(`findFiles ${p}: ${String(e)}`); return []; });
        for (const u of found) out.set(u, URI.parse(u));
      } else for (const u of this.workspace.settingUris(p)) out.set(u.toString(), u);
    }
    const all = [...out.values()];
    if (!restricted) return all;
    const inside = new Set<URI>();
    for (const u of all) if (await inWorkspaceReal(this.workspace.service, u)) inside.add(u);
    const outside = all.filter((u) => !inside.has(u));
    if (outside.length) {
      ctx.log.warn(`mlsysPapers.${setting} in the workspace settings names ${outside.map((u) => u.toString(true)).join(', ')}, outside the workspace folders; not read`);
      const names = outside.map((u) => u.scheme === 'file' ? u.fsPath : u.toString(true)).join(', ');
      void ctx.connection.window.showWarningMessage(setting === 'libraries'
        ? l10n.t('MLSys Papers: the workspace settings name libraries outside the workspace ({0}); they were not read. Name them in your user settings to use them.', names)
        : l10n.t('MLSys Papers: the workspace settings name corpus files outside the workspace ({0}); they were not read. Name them in your user settings to use them.', names));
    }
    return all.filter((u) => inside.has(u));
  }

  /**
   * The workspace changed: the settings or the folders (the corpus reloads now, the libraries after
   * a pause), a document opened or closed (its bibliographies join or leave the libraries), an open
   * library edited, or files changed on disk ({@link filesChanged}).
   */
  workspaceChanged(change: WorkspaceChange): void {
    if (change.settings || change.folders) this.reloadSoon();
    const disk: FileChange[] = [];
    for (const f of change.files) {
      if (f.how === 'opened' || f.how === 'closed') this.reloadLibrariesSoon();
      if (f.how === 'opened' || f.how === 'edited') this.documentChanged(f.uri);
      else if (f.how === 'closed') this.libraryEditPause.cancel(f.uri);
      else disk.push(f);
    }
    if (disk.length) this.filesChanged(disk);
  }

  /** Files changed on disk (`workspace/didChangeWatchedFiles`): a library is read again, a corpus file or a new file a glob may name reloads. */
  private filesChanged(changes: readonly FileChange[]): void {
    let corpus = false;
    let libraryCreated = false;
    for (const c of changes) {
      if (this.libraries.has(c.uri)) this.libraries.fileChanged(c.uri);
      else if (c.how === 'created' && this.libraryGlobs && isBibliography(c.kind)) libraryCreated = true;
      if (this.corpus.isUserFile(c.uri)) corpus = true;
      if (c.how === 'created' && this.corpusGlobs && c.kind === 'csl-yaml') corpus = true;
    }
    if (corpus) this.reloadSoon();
    else if (libraryCreated) this.reloadLibrariesSoon();
  }

  /** An open document changed: an edited library is read again where it changed, after a pause in typing. */
  private documentChanged(uri: string): void {
    if (!this.libraries.has(uri)) return;
    this.libraryEditPause.start(uri, LIBRARY_EDIT_DELAY_MS, () => {
      const d = this.workspace.documents.get(uri);
      if (d) this.libraries.documentChanged(uri, d.getText(), `v${d.version}`);
    });
  }
}
