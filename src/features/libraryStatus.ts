/**
 * The libraries' status-bar item: while a library loads, how far (`$(sync~spin) Libraries 12,000 /
 * 100,000`); when done, how many entries; a library that cannot be read, a warning. Hidden when no
 * library is configured or joined. Clicking it shows the Topics view's "Libraries".
 */
import * as vscode from 'vscode';
import { Commands } from '../ids.js';
import type { LibraryFileStatus } from '../server/protocol.js';
import type { Ctx } from './client/ctx.js';

/** The item's text and tooltip for a status; undefined when there is no library. */
export function libraryStatusText(files: readonly LibraryFileStatus[]): { text: string; tooltip: string } | undefined {
  if (!files.length) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  const loading = files.filter((f) => f.state === 'loading');
  const failed = files.filter((f) => f.state === 'error');
  const entries = files.reduce((sum, f) => sum + f.entries, 0);
  const state = (f: LibraryFileStatus) => {
    if (f.state === 'loading') return vscode.l10n.t('loading, {0} of about {1}', n(f.done), n(f.total));
    if (f.state === 'error') return vscode.l10n.t('cannot be read ({0})', f.message ?? vscode.l10n.t('unknown reason'));
    const count = f.entries === 1 ? vscode.l10n.t('1 entry') : vscode.l10n.t('{0} entries', n(f.entries));
    const problems = !f.problems ? '' : f.problems === 1 ? vscode.l10n.t(', 1 problem') : vscode.l10n.t(', {0} problems', f.problems);
    return `${count}${problems}${f.cached ? vscode.l10n.t(' (from the cache)') : ''}`;
  };
  const lines = files.map((f) => `${f.name}: ${state(f)}`);
  const text = loading.length
    ? `$(sync~spin) ${vscode.l10n.t('Libraries {0} / {1}', n(loading.reduce((s, f) => s + f.done, 0)), n(loading.reduce((s, f) => s + f.total, 0)))}`
    : failed.length ? `$(warning) ${vscode.l10n.t('Libraries {0}', n(entries))}` : `$(library) ${n(entries)}`;
  return { text, tooltip: `${vscode.l10n.t('MLSys Papers libraries')}\n${lines.join('\n')}` };
}

/** Registers the status-bar item. */
export function registerLibraryStatus({ corpus }: Ctx): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mlsysPapers.libraries', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('MLSys Papers Libraries');
  item.command = Commands.showLibraries;
  const update = () => {
    const s = libraryStatusText(corpus.libraryStatus);
    if (!s) { item.hide(); return; }
    item.text = s.text;
    item.tooltip = s.tooltip;
    item.accessibilityInformation = { label: s.tooltip };
    item.show();
  };
  update();
  return vscode.Disposable.from(item, corpus.onDidChangeLibraryStatus(update));
}
