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
import type { CorpusService } from './corpusService.js';
import { entriesFromArgs } from './entryArgs.js';
import type { Formatter } from './formatted.js';
import type { ReadState } from './readState.js';
import type { SearchUi } from './search.js';

/** The details panel: created on first use, then reused and revealed. */
class DetailsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private entry: Entry | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly corpus: CorpusService, private readonly read: ReadState, private readonly formatter: Formatter) {
    this.subs.push(read.onDidChange(() => this.render()));
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
    this.render();
    this.panel.reveal(undefined, true);
  }

  private formatted(e: Entry): string | undefined {
    try {
      return this.formatter.format([e])[0];
    } catch {
      return undefined;
    }
  }

  private render(): void {
    if (!this.panel || !this.entry) return;
    const style = vscode.workspace.getConfiguration(Settings.section).get<string>(Settings.citationStyle, 'apa');
    this.panel.webview.html = detailsHtml(this.corpus.corpus, this.entry, {
      nonce: randomBytes(16).toString('base64'),
      cspSource: this.panel.webview.cspSource,
      read: this.read.isRead(this.entry.key),
      formatted: this.formatted(this.entry),
      styleName: style,
    });
  }

  private async onMessage(m: { type: string; what?: string; url?: string }): Promise<void> {
    const e = this.entry;
    if (!e) return;
    if (m.type === 'copy') {
      const text = m.what === 'bibtex' ? toBibtex(e) : m.what === 'key' ? e.key : this.formatted(e);
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
export function registerDetails(corpus: CorpusService, read: ReadState, formatter: Formatter, search: SearchUi): vscode.Disposable {
  const panel = new DetailsPanel(corpus, read, formatter);
  return vscode.Disposable.from(
    panel,
    vscode.commands.registerCommand(Commands.showDetails, async (arg?: unknown) => {
      let [entry] = entriesFromArgs(corpus.corpus, arg);
      if (!entry) [entry] = await search.pick('MLSys Papers: Show Details');
      if (entry) panel.show(entry);
    }),
  );
}
