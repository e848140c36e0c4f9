/**
 * Diagnostics for citing documents: pulled (`textDocument/diagnostic`) by clients that can, pushed
 * (`textDocument/publishDiagnostics`) to the others, and a `workspace/diagnostic/refresh` when
 * something a document's answers depend on changed (a bibliography, a library, the settings).
 */
import { DiagnosticRefreshRequest, DocumentDiagnosticReportKind, type DocumentDiagnosticParams, type DocumentDiagnosticReport, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isCitingLanguage } from '../core/context.js';
import type { CitationService } from '../core/service/service.js';
import type { ServerContext } from './context.js';
import { Params } from './requests.js';

/** The pause after a change before a refresh is asked for, in ms (changes within it are one refresh). */
export const REFRESH_DELAY_MS = 200;
/** The pause in typing before a pushing client gets a document's diagnostics, in ms. */
export const PUSH_DELAY_MS = 300;
/** How long a change of a citing document may go without a pull before a refresh, in ms. */
export const PULL_WATCH_MS = 2000;

/** Pull, push and refresh of the citation service's diagnostics. */
export class Diagnostics {
  private readonly pushPause;
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
  private readonly scheduleRefresh: () => void;

  constructor(private readonly ctx: ServerContext, private readonly documents: TextDocuments<TextDocument>, private readonly service: CitationService) {
    this.pushPause = ctx.timerPerUri();
    this.pullWatch = ctx.timerPerUri();
    this.scheduleRefresh = ctx.debounce(REFRESH_DELAY_MS, () => ctx.tell(() => ctx.connection.sendRequest(DiagnosticRefreshRequest.type)
      .catch((e: unknown) => ctx.log.warn(`diagnostic refresh: ${String(e)}`))));
  }

  /** Registers `textDocument/diagnostic`. */
  register(): void {
    const { connection, gate } = this.ctx;
    connection.languages.diagnostics.on(gate.answer('textDocument/diagnostic', Params.textDocument, async (p: DocumentDiagnosticParams, token) => {
      const doc = this.documents.get(p.textDocument.uri);
      if (doc) this.pulledVersion.set(doc.uri, doc.version);
      const items = doc ? await this.service.diagnostics(doc, token) : [];
      return { kind: DocumentDiagnosticReportKind.Full, items } satisfies DocumentDiagnosticReport;
    }));
  }

  /** Every document's diagnostics may have changed: pushed again, or a refresh asked for. */
  refresh(): void {
    if (this.ctx.can.pushDiagnostics) { this.pushAll(); return; }
    if (!this.ctx.can.refresh) return;
    this.scheduleRefresh();
  }

  /** A citing document changed. */
  documentChanged(document: TextDocument): void {
    if (this.ctx.can.pushDiagnostics) this.push(document.uri);
    else this.watchPull(document);
  }

  /** A document closed: nothing pending for it, and a pushing client's list for it emptied. */
  documentClosed(uri: string): void {
    this.pulledVersion.delete(uri);
    this.pushPause.cancel(uri);
    this.pullWatch.cancel(uri);
    if (this.ctx.can.pushDiagnostics) void this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private push(uri: string): void {
    this.pushPause.start(uri, PUSH_DELAY_MS, () => {
      const doc = this.documents.get(uri);
      if (!doc) return;
      this.service.diagnostics(doc).then((diagnostics) => this.ctx.connection.sendDiagnostics({ uri, version: doc.version, diagnostics }), this.ctx.fail);
    });
  }

  private pushAll(): void {
    for (const d of this.documents.all()) this.push(d.uri);
  }

  private watchPull(document: TextDocument): void {
    if (!this.ctx.can.refresh || !isCitingLanguage(document.languageId)) return;
    const uri = document.uri;
    this.pullWatch.start(uri, PULL_WATCH_MS, () => {
      const doc = this.documents.get(uri);
      if (!doc || (this.pulledVersion.get(uri) ?? -1) >= doc.version) return;
      this.ctx.log.info(`diagnostics: no pull for ${uri} (version ${doc.version}) followed its change; asking the client to refresh`);
      this.refresh();
    });
  }
}
