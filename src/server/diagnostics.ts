/**
 * Every file's diagnostics, from this one module (issue 27, move 3: one owner of a file's
 * diagnostics). Two sources: the citation service's, for open documents (citing documents and
 * bibliographies), and the problems the library and corpus stores found in their files
 * ({@link Diagnostics.fileProblems}). A file holds one list: an open document's is the service's
 * and its file's problems together (a library file's reader problems are its store's alone), pulled or pushed; a file not open gets its file's
 * problems pushed. A pulling client's list of an open document is its pull, so nothing is pushed
 * for it while it is open.
 *
 * The service's diagnostics of citing documents: pulled (`textDocument/diagnostic`) by clients that can, pushed
 * (`textDocument/publishDiagnostics`) to the others. When something every document's answers
 * depend on changes (a library loaded, changed or dropped, an open document's bibliography joined,
 * the corpus, the settings, the LaTeX project indexed again), every open document's diagnostics are computed
 * again, once per burst of changes ({@link REFRESH_DELAY_MS} on the server's clock): a pulling
 * client gets one `workspace/diagnostic/refresh` (LSP 3.17), a pushing one a new push of every
 * open document. So the last diagnostics a client holds do not depend on the order in which
 * documents opened or libraries finished loading.
 */
import { DiagnosticRefreshRequest, DocumentDiagnosticReportKind, type Diagnostic, type DocumentDiagnosticParams, type DocumentDiagnosticReport, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { fileKind, isBibliography, isCiting } from '../core/workspace/fileKind.js';
import type { CitationService } from '../core/service/service.js';
import type { ServerContext } from './serverContext.js';
import { Params } from './requests.js';
import type { FileProblemOwner } from './sources.js';
import type { WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/** The pause after a change before every document is computed again (a refresh, or a push of each), in ms; changes within it are one. */
export const REFRESH_DELAY_MS = 200;
/** The pause in typing before a pushing client gets a document's diagnostics, in ms. */
export const PUSH_DELAY_MS = 300;
/** How long a change of a citing document may go without a pull before a refresh, in ms. */
export const PULL_WATCH_MS = 2000;

/** Pull, push and refresh of the citation service's diagnostics. */
export class Diagnostics implements WorkspaceChangeListener {
  private readonly pushPause;
  /**
   * The latest push computation started for each document. Computations may end out of order (one
   * waits for a library's load, a later one does not): only the latest is sent, so an answer
   * computed before a change never replaces one computed after it.
   */
  private readonly pushing = new Map<string, number>();
  private pushes = 0;
  /**
   * The version of each document last pulled. A pulling client asks for a citing document's
   * diagnostics after each change. VS Code's client (vscode-languageclient 9) can lose track of a
   * document when its tab closes and reopens while a pull is in flight (the answer is dropped as
   * out of date, and a document it does not track is never pulled on change): its problems then
   * stay empty however the user types. So a change that no pull follows within
   * {@link PULL_WATCH_MS} gets a `workspace/diagnostic/refresh`, which makes the client pull every
   * visible document again, and track this one anew.
   */
  private readonly pulledVersion = new Map<string, number>();
  private readonly pullWatch;
  /** Computes every open document again after {@link REFRESH_DELAY_MS}; each call restarts the wait. */
  private readonly scheduleAll: () => void;
  /** The problems the stores found in their files, per file URI and store. */
  private readonly problems = new Map<string, Map<FileProblemOwner, Diagnostic[]>>();
  /** For a pushing client, the service's diagnostics last sent for each open document (and its version): sent again with its file's new problems. */
  private readonly sent = new Map<string, { version: number; diagnostics: Diagnostic[] }>();
  /** Files whose problems were pushed while not open, and not emptied since. */
  private readonly pushedProblems = new Set<string>();
  /**
   * The files (URIs) each open citing document's last computation read (`CitationService.check`):
   * its bibliography files and, for LaTeX, its roots' project files; what its diagnostics depend
   * on beside everyone's.
   */
  private readonly reads = new Map<string, Set<string>>();
  /** Counts changes; {@link allAt}: the last that every document depends on, {@link touchedAt}: per document, the last it depends on. */
  private tick = 0;
  private allAt = 0;
  private readonly touchedAt = new Map<string, number>();
  /** For a pushing client, the result id ({@link resultId}) each document's latest push was computed at. */
  private readonly pushedId = new Map<string, string>();

  /**
   * @param storeFile - whether a file's changes on disk reach the answers through its store (a
   *   corpus file, a library: the store reads it again, and its change refreshes once read)
   * @param storeEdit - whether an edit of a file's open document reaches the answers through its
   *   store (a library loaded or loading: the store reads the edit after a pause, and its change
   *   refreshes every document once read)
   */
  constructor(private readonly ctx: ServerContext, private readonly documents: TextDocuments<TextDocument>, private readonly service: CitationService, private readonly storeFile: (uri: string) => boolean = () => false, private readonly storeEdit: (uri: string) => boolean = () => false) {
    this.pushPause = ctx.timerPerUri();
    this.pullWatch = ctx.timerPerUri();
    this.scheduleAll = ctx.debounce(REFRESH_DELAY_MS, () => this.all());
  }

  /**
   * The workspace changed: an opened, edited or closed document; a bibliography (or a `.bbl`) changed
   * on disk, whose citing documents' answers may have changed; the settings.
   */
  workspaceChanged(change: WorkspaceChange): void {
    if (change.settings) this.refresh();
    const bibliographies: string[] = [];
    let every = false;
    for (const f of change.files) {
      if (f.how === 'closed') this.documentClosed(f.uri);
      else if (f.document) {
        if (f.how === 'opened') this.documentOpened(f.uri);
        // An edited bibliography changes the answers for the documents that cite from it; an edited
        // library's store reads the edit and refreshes once read: one round, none before the reload.
        if (isBibliography(f.kind)) { if (f.how !== 'edited' || !this.storeEdit(f.uri)) bibliographies.push(f.uri); }
        else {
          this.documentChanged(f.document);
          // An open bibliography's unused entries follow its readers' citations (a pulling client re-pulls it: interFileDependencies).
          this.citingChanged();
        }
      // A file a store holds is read again by it, and its change refreshes once read: no refresh before the reload.
      } else if (this.storeFile(f.uri)) continue;
      // A file created may be one a document declared that did not exist: not among the files its last computation read.
      else if (isBibliography(f.kind)) { if (f.how === 'created') every = true; else bibliographies.push(f.uri); }
      // A .bbl is a document's thebibliography (`\input{main.bbl}`, an arXiv source's references): not among its bibliography files.
      else if (f.kind === 'bbl') every = true;
    }
    if (every) this.refresh();
    else if (bibliographies.length) this.refresh(bibliographies);
  }

  /** Whether a bibliography is open. */
  bibliographyOpen(): boolean {
    return this.documents.all().some((d) => isBibliography(fileKind(URI.parse(d.uri), d.languageId)));
  }

  /** Registers `textDocument/diagnostic`. */
  register(): void {
    const { connection, gate } = this.ctx;
    connection.languages.diagnostics.on(gate.answer('textDocument/diagnostic', Params.textDocument, async (p: DocumentDiagnosticParams, token) => {
      const doc = this.documents.get(p.textDocument.uri);
      if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] } satisfies DocumentDiagnosticReport;
      this.pulledVersion.set(doc.uri, doc.version);
      // Read before the computation: a change during it gives the document a new result id, so the client's next pull computes again.
      const resultId = this.resultId(doc);
      if (p.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId } satisfies DocumentDiagnosticReport;
      const items = [...await this.compute(doc, token), ...this.fileProblems(doc.uri)];
      return { kind: DocumentDiagnosticReportKind.Full, resultId, items } satisfies DocumentDiagnosticReport;
    }));
  }

  /**
   * Something documents' diagnostics depend on changed: `changed` files (URIs), so only the open
   * documents that depend on one of them ({@link dependsOn}), unless one is a file no open document
   * read (it may be one a document declares but could not read); or, without `changed`, what every
   * document depends on (the settings, the corpus, a library's entries; the LaTeX project indexed again). Those
   * documents' result ids change at once (a pull of one computes again); after
   * {@link REFRESH_DELAY_MS} (calls within it are one) a pushing client gets each of them pushed
   * again, a pulling one one `workspace/diagnostic/refresh` (its pulls of the others are answered
   * `unchanged`). A pulling client without `refreshSupport` cannot be told; it pulls when it pulls.
   * Nothing is sent when no open document depends on the files.
   */
  refresh(changed?: readonly string[]): void {
    this.tick++;
    const files = changed && new Set(changed.map((u) => URI.parse(u).toString()));
    // A file no open document read may be one a document declares but could not read (over the size cap, not UTF-8): everyone's.
    const read = [...this.reads.values()];
    const all = !files || [...files].some((f) => !read.some((r) => r.has(f)));
    let any = all;
    if (all) this.allAt = this.tick;
    else for (const d of this.documents.all()) if (this.dependsOn(d, files)) { this.touchedAt.set(d.uri, this.tick); any = true; }
    if (any) this.schedule();
  }

  /**
   * The LaTeX project changed (`latexIndexer.ts`): `files`, the LaTeX files whose answers may have
   * changed, so only the open documents that depend on one of them ({@link dependsOn}: a LaTeX
   * document whose last computation read one, before the change; or one of them itself, after it)
   * and the documents that are not LaTeX documents and depend on every file (a bibliography: its
   * unused entries follow its readers); a Markdown document does not depend on the project. Without
   * `files`, every document.
   */
  projectChanged(files?: readonly string[]): void {
    if (!files) { this.refresh(); return; }
    this.tick++;
    const changed = new Set(files.map((u) => URI.parse(u).toString()));
    let any = false;
    for (const d of this.documents.all()) {
      const kind = fileKind(URI.parse(d.uri), d.languageId);
      if (isCiting(kind) && kind !== 'latex') continue;
      if (this.dependsOn(d, changed)) { this.touchedAt.set(d.uri, this.tick); any = true; }
    }
    if (any) this.schedule();
  }

  /** Computes the documents whose result changed after {@link REFRESH_DELAY_MS}, for a client that can be told. */
  private schedule(): void {
    if (this.ctx.can.pushDiagnostics || this.ctx.can.refresh) this.scheduleAll();
  }

  /**
   * Whether an open document's diagnostics depend on one of `files`: a citing document's do on the
   * files its last computation read (`CitationService.check`: bibliography files, a LaTeX
   * document's project files); one not computed yet, or that read none, and any
   * other document (a bibliography: its unused entries follow its readers, across their files) on
   * every file.
   */
  private dependsOn(doc: TextDocument, files: ReadonlySet<string>): boolean {
    if (files.has(doc.uri)) return true;
    const read = isCiting(fileKind(URI.parse(doc.uri), doc.languageId)) ? this.reads.get(doc.uri) : undefined;
    if (!read?.size) return true;
    for (const f of files) if (read.has(f)) return true;
    return false;
  }

  /**
   * A citing document changed: the open bibliographies' diagnostics (their unused entries) follow
   * their readers' citations. A pushing client gets them pushed again; a pulling client pulls them
   * again itself (`interFileDependencies`), so only their result ids change.
   */
  private citingChanged(): void {
    let any = false;
    for (const d of this.documents.all()) {
      if (isCiting(fileKind(URI.parse(d.uri), d.languageId))) continue;
      this.touchedAt.set(d.uri, ++this.tick);
      any = true;
    }
    if (any && this.ctx.can.pushDiagnostics) this.schedule();
  }

  /**
   * A document's result id (LSP 3.17 `resultId`): its version and the last change it depends on. A
   * pull whose `previousResultId` is the current one is answered `unchanged`, without computing.
   */
  private resultId(doc: TextDocument): string {
    return `${doc.version}.${Math.max(this.allAt, this.touchedAt.get(doc.uri) ?? 0)}`;
  }

  /** Computes a document's diagnostics, and remembers the bibliography files it read ({@link dependsOn}): one resolution of its bibliography for both. */
  private async compute(doc: TextDocument, token?: Parameters<CitationService['check']>[1]): Promise<Diagnostic[]> {
    const { diagnostics, files } = await this.service.check(doc, token);
    if (isCiting(fileKind(URI.parse(doc.uri), doc.languageId)) && this.documents.get(doc.uri)) this.reads.set(doc.uri, new Set(files.map((u) => u.toString())));
    return diagnostics;
  }

  /**
   * The problems a store found in its files changed (`sources.ts`): each file's list is sent again,
   * with its open document's diagnostics when it is open (pushing client), else alone; a pulling
   * client's open document gets them in its next pull (the store's change refreshes).
   *
   * @param byUri - per file URI, the store's problems now ([] when they went away)
   */
  fileProblemsChanged(owner: FileProblemOwner, byUri: ReadonlyMap<string, Diagnostic[]>): void {
    for (const [uri, list] of byUri) {
      let mine = this.problems.get(uri);
      if (!mine) this.problems.set(uri, mine = new Map());
      if (list.length) mine.set(owner, list);
      else mine.delete(owner);
      if (!mine.size) this.problems.delete(uri);
      if (!this.documents.get(uri)) this.sendFileProblems(uri);
      else if (!this.ctx.can.pushDiagnostics) this.touchedAt.set(uri, ++this.tick);
      else {
        const sent = this.sent.get(uri);
        if (sent) this.send(uri, sent.version, sent.diagnostics);
      }
    }
  }

  /** A document opened: a pulling client gets its file's problems in its pull, so the list pushed for the file is emptied. */
  private documentOpened(uri: string): void {
    if (this.ctx.can.pushDiagnostics || !this.pushedProblems.delete(uri)) return;
    this.ctx.tell(() => this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] }));
  }

  /**
   * The problems the stores found in a file, the library store's first. None is one the service
   * reports too: a library file's reader problems are its store's alone (`citationDiagnostics.ts`,
   * `readerProblems`), so a document's list is the service's and these, each once.
   */
  private fileProblems(uri: string): Diagnostic[] {
    const mine = this.problems.get(uri);
    return mine ? [...(mine.get('library') ?? []), ...(mine.get('corpus') ?? [])] : [];
  }

  /** Pushes a file's problems alone (it is not open, or it just closed). */
  private sendFileProblems(uri: string): void {
    const diagnostics = this.fileProblems(uri);
    if (diagnostics.length) this.pushedProblems.add(uri);
    else this.pushedProblems.delete(uri);
    this.ctx.tell(() => this.ctx.connection.sendDiagnostics({ uri, diagnostics }));
  }

  /** Pushes an open document's diagnostics with its file's problems. */
  private send(uri: string, version: number, diagnostics: Diagnostic[]): void {
    this.sent.set(uri, { version, diagnostics });
    this.ctx.tell(() => this.ctx.connection.sendDiagnostics({ uri, version, diagnostics: [...diagnostics, ...this.fileProblems(uri)] }));
  }

  /** A citing document changed. */
  private documentChanged(document: TextDocument): void {
    if (this.ctx.can.pushDiagnostics) this.pushPause.start(document.uri, PUSH_DELAY_MS, () => this.push(document.uri));
    else this.watchPull(document);
  }

  /**
   * A document closed: nothing pending for it, and the file's list is its file's problems alone (a
   * pushing client's list loses the document's diagnostics; a pulling client drops its pulled list,
   * so the file's problems are pushed).
   */
  private documentClosed(uri: string): void {
    this.pulledVersion.delete(uri);
    this.reads.delete(uri);
    this.touchedAt.delete(uri);
    this.pushedId.delete(uri);
    this.pushPause.cancel(uri);
    this.pushing.delete(uri);
    this.sent.delete(uri);
    this.pullWatch.cancel(uri);
    if (this.ctx.can.pushDiagnostics || this.problems.has(uri)) this.sendFileProblems(uri);
  }

  /** The open documents whose result changed since they were last pushed, now: pushed, or one refresh asked for. */
  private all(): void {
    const { ctx } = this;
    if (!ctx.can.pushDiagnostics) {
      ctx.tell(() => ctx.connection.sendRequest(DiagnosticRefreshRequest.type).catch((e: unknown) => ctx.log.warn(`diagnostic refresh: ${String(e)}`)));
      return;
    }
    for (const d of this.documents.all()) {
      if (this.pushedId.get(d.uri) === this.resultId(d)) continue;
      this.pushPause.cancel(d.uri);
      this.push(d.uri);
    }
  }

  /** Computes a document's diagnostics and sends them, unless a newer computation started meanwhile or the document closed. */
  private push(uri: string): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    const mine = ++this.pushes;
    this.pushing.set(uri, mine);
    // The version the computation reads (the document object is updated in place by later changes).
    const version = doc.version;
    this.pushedId.set(uri, this.resultId(doc));
    this.compute(doc).then((diagnostics) => {
      if (this.pushing.get(uri) !== mine || !this.documents.get(uri)) return;
      this.send(uri, version, diagnostics);
    }, this.ctx.fail);
  }

  private watchPull(document: TextDocument): void {
    if (!this.ctx.can.refresh || !isCiting(fileKind(URI.parse(document.uri), document.languageId))) return;
    const uri = document.uri;
    this.pullWatch.start(uri, PULL_WATCH_MS, () => {
      const doc = this.documents.get(uri);
      if (!doc || (this.pulledVersion.get(uri) ?? -1) >= doc.version) return;
      this.ctx.log.info(`diagnostics: no pull for ${uri} (version ${doc.version}) followed its change; asking the client to refresh`);
      // Its new version is a new result id: the others' pulls are answered `unchanged`.
      this.schedule();
    });
  }
}
