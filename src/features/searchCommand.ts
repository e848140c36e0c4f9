/**
 * The "MLSys Papers: Search" command: pick entries, then cite them where the user writes, or
 * offer their actions when no LaTeX or Markdown editor is active.
 */
import * as vscode from 'vscode';
import { Commands } from '../ids.js';
import { showEntryActions } from './entryActions.js';
import type { Ctx } from './client/ctx.js';
import { citeEntries, isCitingEditor } from './insertCitation.js';

export function registerSearch(ctx: Ctx): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.search, async (initial?: unknown) => {
    const editor = vscode.window.activeTextEditor;
    const entries = await ctx.picker.pick(vscode.l10n.t('MLSys Papers: Search'), typeof initial === 'string' ? initial : '');
    if (!entries.length) return;
    if (editor && isCitingEditor(editor)) await citeEntries(editor, entries, ctx.config.for(editor.document.uri), ctx.bibs);
    else await showEntryActions(ctx, entries);
  });
}
