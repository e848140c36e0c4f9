/**
 * "MLSys Papers: Show Details": an entry's details in a webview, one panel reused for every entry.
 * Reached from the tree, the search (entry actions) and hovers (a command link).
 */
import * as vscode from 'vscode';
import { toBibtex } from '../core/cite/writeBibtex.js';
import { detailsHtml } from '../core/service/detailsHtml.js';
import { isWebLink } from '../core/corpus/links.js';
import type { Entry } from '../core/corpus/schema.js';
import { Commands } from '../ids.js';
import type { ConfigStore } from './config.js';
import type { CorpusClient } from './corpusClient.js';
import { resolveEntries } from './entryArgs.js';
import type { Logger } from '../core/config/logger.js';
import type { ReadState } from './readState.js';
import { Disposable } from './dispose.js';
import type { Ctx } from './client/ctx.js';

/** A content-security-policy nonce: 16 random bytes in base64 (Web Crypto, on desktop and in the browser). */
function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The details panel: created on first use, then reused and revealed. */
class DetailsPanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private entry: Entry | undefined;
  /** A library entry's fields as written (from the server). */
  private fields: Record<string, string> | undefined;
  /** The document last written in: its citation style is the one shown (the panel itself has no document). */
  private scope: vscode.Uri | undefined;

  constructor(
    private readonly corpus: CorpusClient, private readonly read: ReadState, private readonly config: ConfigStore, private readonly log: Logger,
  ) {
    super();
    this._register(read.onDidChange(() => void this.render()));
    this._register({ dispose: () => this.panel?.dispose() });
  }

  async show(entry: Entry): Promise<void> {
    this.entry = entry;
    this.fields = undefined;
    if (entry.library) {
      // The server has the entry's text as written: its fields, and the BibTeX citing copies.
      try {
        const r = await this.corpus.fetchEntry(entry.key);
        if (r.entry && this.entry === entry) { this.entry = entry = r.entry; this.fields = r.fields; }
      } catch (e) {
        this.log.warn(`details of ${entry.key}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('mlsysPapers.details', entry.title, vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [],
      });
      const panel = this.panel;
      const onMessage = panel.webview.onDidReceiveMessage((m: { type: string; what?: string; url?: string }) => void this.onMessage(m));
      panel.onDidDispose(() => {
        onMessage.dispose();
        if (this.panel === panel) this.panel = undefined;
      });
    }
    this.panel.title = entry.title;
    void this.render();
    this.panel.reveal(undefined, true);
  }

  /** The entry's formatted reference; undefined when the style cannot be used (the formatting commands say why). */
  private async formatted(e: Entry, scope: vscode.Uri | undefined): Promise<string | undefined> {
    try {
      return (await this.corpus.format([e], scope))[0];
    } catch (err) {
      this.log.warn(`details of ${e.key}: no formatted reference: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private async render(): Promise<void> {
    const entry = this.entry;
    if (!this.panel || !entry) return;
    // The style of the document being written, as the citation commands use it.
    const scope = (this.scope = vscode.window.activeTextEditor?.document.uri ?? this.scope);
    const style = (scope ? this.config.for(scope) : this.config.value).citationStyle;
    const formatted = await this.formatted(entry, scope);
    if (!this.panel || this.entry !== entry) return;
    this.panel.webview.html = detailsHtml(this.corpus.taxonomy, entry, {
      nonce: nonce(),
      cspSource: this.panel.webview.cspSource,
      read: this.read.isRead(entry.key),
      formatted,
      fields: this.fields,
      styleName: style,
      topicLabels: this.config.topicLabels,
    });
  }

  private async onMessage(m: { type: string; what?: string; url?: string }): Promise<void> {
    const e = this.entry;
    if (!e) return;
    if (m.type === 'openLibrary' && e.library) {
      // The entry where the user keeps it (the file is read-only to us, not to the user).
      const at = new vscode.Position(Math.max(0, e.library.line - 1), 0);
      await vscode.window.showTextDocument(vscode.Uri.parse(e.library.uri), { selection: new vscode.Range(at, at), preview: true });
      return;
    }
    if (m.type === 'copy') {
      const text = m.what === 'bibtex' ? toBibtex(e) : m.what === 'key' ? e.key : await this.formatted(e, this.scope);
      if (text) await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage(m.what === 'bibtex' ? vscode.l10n.t('MLSys Papers: copied BibTeX') : m.what === 'key' ? vscode.l10n.t('MLSys Papers: copied the key') : vscode.l10n.t('MLSys Papers: copied the reference'), 3000);
    } else if (m.type === 'open' && isWebLink(m.url)) {
      // Only http(s): the page can ask, but it cannot open anything else.
      await vscode.env.openExternal(vscode.Uri.parse(m.url, true));
    } else if (m.type === 'toggleRead') {
      await this.read.set([e.key], !this.read.isRead(e.key));
    } else if (m.type === 'openNote') {
      await vscode.commands.executeCommand(Commands.openNote, e.key, this.scope);
    }
  }
}

/** Registers "Show Details". */
export function registerDetails({ corpus, read, config, picker, log }: Ctx): vscode.Disposable {
  const panel = new DetailsPanel(corpus, read, config, log);
  return vscode.Disposable.from(
    panel,
    vscode.commands.registerCommand(Commands.showDetails, async (arg?: unknown) => {
      // A key the client was not shown (a hover's link): the server has it.
      let entry: Entry | undefined = (await resolveEntries(corpus, arg))[0];
      if (!entry) [entry] = await picker.pick(vscode.l10n.t('MLSys Papers: Show Details'));
      if (entry) await panel.show(entry);
    }),
  );
}
