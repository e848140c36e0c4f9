/**
 * The libraries' status-bar item: while a library loads, how far (`$(sync~spin) Libraries 12,000 /
 * 100,000`); when done, how many entries; a library that cannot be read, a warning. Hidden when no
 * library is configured or joined. Clicking it shows the Topics view's "Libraries".
 */
import * as vscode from 'vscode';
import { Commands } from '../ids.js';
import type { LibraryFileStatus } from '../server/protocol.js';
import type { CorpusClient } from './corpusClient.js';

/** The item's text and tooltip for a status; undefined when there is no library. */
export function libraryStatusText(files: readonly LibraryFileStatus[]): { text: string; tooltip: string } | undefined {
  if (!files.length) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  const loading = files.filter((f) => f.state === 'loading');
  const failed = files.filter((f) => f.state === 'error');
  const entries = files.reduce((sum, f) => sum + f.entries, 0);
  const lines = files.map((f) => `${f.name}: ${f.state === 'loading' ? `loading, ${n(f.done)} of about ${n(f.total)}`
    : f.state === 'error' ? `cannot be read (${f.message ?? 'unknown reason'})`
      : `${n(f.entries)} entries${f.problems ? `, ${f.problems} problem${f.problems === 1 ? '' : 's'}` : ''}${f.cached ? ' (from the cache)' : ''}`}`);
  const text = loading.length
    ? `$(sync~spin) Libraries ${n(loading.reduce((s, f) => s + f.done, 0))} / ${n(loading.reduce((s, f) => s + f.total, 0))}`
    : failed.length ? `$(warning) Libraries ${n(entries)}` : `$(library) ${n(entries)}`;
  return { text, tooltip: `MLSys Papers libraries\n${lines.join('\n')}` };
}

/** Registers the status-bar item. */
export function registerLibraryStatus(corpus: CorpusClient): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mlsysPapers.libraries', vscode.StatusBarAlignment.Left, 10);
  item.name = 'MLSys Papers Libraries';
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
