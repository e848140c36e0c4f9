/**
 * "MLSys Papers: Show Details": an entry's details in a webview, one panel reused for every entry.
 * Reached from the tree, the search (entry actions) and hovers (a command link).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { toBibtex } from '../core/cite/bibtex.js';
import { detailsHtml } from '../core/details.js';
import { isWebLink } from '../core/links.js';
import type { Entry } from '../core/schema.js';
import { Commands, Settings } from '../ids.js';
import type { CorpusClient } from './corpusClient.js';
import { entriesFromArgs } from './entryArgs.js';
import type { Logger } from '../core/log.js';
import type { ReadState } from './readState.js';
import type { SearchUi } from './search.js';

/** The details panel: created on first use, then reused and revealed. */
class DetailsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private entry: Entry | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly corpus: CorpusClient, private readonly read: ReadState, private readonly log: Logger) {
    this.subs.push(read.onDidChange(() => void this.render()));
  }

  show(entry: Entry): void {
    this.entry = entry;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('mlsysPapers.details', entry.title, vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => { this.panel = undefined; }, null, this.subs);
      this.panel.webview.onDidReceiveMessage((m: { type: string; what?: string; url?: string }) => void this.onMessage(m), null, this.subs);
    }
    this.panel.title = entry.title;
    void this.render();
    this.panel.reveal(undefined, true);
  }

  /** The entry's formatted reference; undefined when the style cannot be used (the formatting commands say why). */
  private async formatted(e: Entry): Promise<string | undefined> {
    try {
      return (await this.corpus.format([e]))[0];
    } catch (err) {
      this.log.warn(`details of ${e.key}: no formatted reference: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private async render(): Promise<void> {
    const entry = this.entry;
    if (!this.panel || !entry) return;
    const style = vscode.workspace.getConfiguration(Settings.section).get<string>(Settings.citationStyle, 'apa');
    const formatted = await this.formatted(entry);
    if (!this.panel || this.entry !== entry) return;
    this.panel.webview.html = detailsHtml(this.corpus.corpus, entry, {
      nonce: randomBytes(16).toString('base64'),
      cspSource: this.panel.webview.cspSource,
      read: this.read.isRead(entry.key),
      formatted,
      styleName: style,
    });
  }

  private async onMessage(m: { type: string; what?: string; url?: string }): Promise<void> {
    const e = this.entry;
    if (!e) return;
    if (m.type === 'copy') {
      const text = m.what === 'bibtex' ? toBibtex(e) : m.what === 'key' ? e.key : await this.formatted(e);
      if (text) await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage(`MLSys Papers: copied ${m.what === 'bibtex' ? 'BibTeX' : m.what === 'key' ? 'the key' : 'the reference'}`, 3000);
    } else if (m.type === 'open' && isWebLink(m.url)) {
      // Only http(s): the page can ask, but it cannot open anything else.
      await vscode.env.openExternal(vscode.Uri.parse(m.url, true));
    } else if (m.type === 'toggleRead') {
      await this.read.set([e.key], !this.read.isRead(e.key));
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** Registers "Show Details". */
export function registerDetails(corpus: CorpusClient, read: ReadState, search: SearchUi, log: Logger): vscode.Disposable {
  const panel = new DetailsPanel(corpus, read, log);
  return vscode.Disposable.from(
    panel,
    vscode.commands.registerCommand(Commands.showDetails, async (arg?: unknown) => {
      await corpus.ready;
      let [entry] = entriesFromArgs(corpus.corpus, arg);
      if (!entry) [entry] = await search.pick('MLSys Papers: Show Details');
      if (entry) panel.show(entry);
    }),
  );
}
