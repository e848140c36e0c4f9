/**
 * Formatted references in a CSL style (setting `mlsysPapers.citationStyle`, formatted by the
 * language server with citeproc-js): Copy Formatted Reference, Insert Formatted Reference, and
 * Insert Bibliography (every corpus entry a document cites, in citation order).
 */
import * as vscode from 'vscode';
import type { Entry } from '../core/corpus/schema.js';
import { Commands } from '../ids.js';
import { citedInActiveEditor } from './corpusClient.js';
import type { Ctx } from './client/ctx.js';
import { resolveEntries } from './entryArgs.js';

async function insertAtCursor(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: no editor is open; the text was copied to the clipboard.'));
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.insert(editor.document.uri, editor.selection.active, text);
  await vscode.workspace.applyEdit(edit);
}

/** Registers the formatted-reference commands. */
export function registerFormattedReferences({ corpus, picker }: Ctx): vscode.Disposable {
  const entriesOr = async (arg: unknown, selection: unknown): Promise<Entry[]> => {
    const given = await resolveEntries(corpus, arg, selection);
    return given.length ? given : picker.pick();
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.copyFormattedReference, async (arg?: unknown, selection?: unknown) => {
      const refs = await corpus.tryFormat(await entriesOr(arg, selection), vscode.window.activeTextEditor?.document.uri);
      if (!refs.length) return;
      await vscode.env.clipboard.writeText(refs.join('\n'));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('MLSys Papers: copied {0} formatted reference(s)', refs.length), 4000);
    }),
    vscode.commands.registerCommand(Commands.insertFormattedReference, async (arg?: unknown, selection?: unknown) => {
      const refs = await corpus.tryFormat(await entriesOr(arg, selection), vscode.window.activeTextEditor?.document.uri);
      if (refs.length) await insertAtCursor(refs.join('\n'));
    }),
    vscode.commands.registerCommand(Commands.insertBibliography, async () => {
      const cited = await citedInActiveEditor(corpus);
      if (!cited) return;
      const refs = await corpus.tryFormat(cited.entries, cited.editor.document.uri);
      if (refs.length) await insertAtCursor(`${refs.join('\n\n')}\n`);
    }),
  );
}
