/**
 * The "MLSys Papers: Search" command: pick entries, then cite them where the user writes, or
 * offer their actions when no LaTeX or Markdown editor is active.
 */
import * as vscode from 'vscode';
import { Commands } from '../ids.js';
import { showEntryActions } from './entryActions.js';
import type { EntryServices } from './entryArgs.js';
import { citeEntries, isCitingEditor } from './insertCitation.js';

export function registerSearch(s: EntryServices): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.search, async (initial?: unknown) => {
    const editor = vscode.window.activeTextEditor;
    const entries = await s.picker.pick(vscode.l10n.t('MLSys Papers: Search'), typeof initial === 'string' ? initial : '');
    if (!entries.length) return;
    if (editor && isCitingEditor(editor)) await citeEntries(editor, entries, s.config.for(editor.document.uri), s.bibs);
    else await showEntryActions(s, entries);
  });
}
