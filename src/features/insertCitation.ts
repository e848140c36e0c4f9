/**
 * Insert Citation: cites entries at the cursor of the editor being written in, as one undoable
 * `WorkspaceEdit`, and keeps the document's bibliography in step.
 */
import * as vscode from 'vscode';
import { planCitation } from '../core/cite/insert.js';
import { fileKind, isCiting } from '../core/workspace/fileKind.js';
import type { Entry } from '../core/corpus/schema.js';
import type { Config } from './config.js';
import type { Bibliographies } from './bibliography.js';
import { copyBibtex } from './clipboard.js';
import { commandOnEntries } from './entryArgs.js';
import type { Ctx } from './client/ctx.js';
import { Commands } from '../ids.js';

/** Whether citations in this editor are LaTeX or Pandoc citations (rather than plain text). */
export function isCitingEditor(editor: vscode.TextEditor | undefined): boolean {
  return !!editor && isCiting(fileKind(editor.document.uri.path, editor.document.languageId));
}

/** The editor to insert into: the active one, else the last visible LaTeX/Markdown editor. */
export function targetEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active) return active;
  return vscode.window.visibleTextEditors.find(isCitingEditor);
}

/**
 * Inserts citations of `entries` at the editor's cursor (the primary selection's active end).
 * Keys already in the citation under the cursor are not added twice.
 *
 * @returns the keys added (empty when there was nothing to add or the edit was refused)
 */
export async function insertCitations(editor: vscode.TextEditor, entries: readonly Entry[], config: Config): Promise<string[]> {
  const doc = editor.document;
  const pos = editor.selection.active;
  const plan = planCitation(doc.getText(), doc.offsetAt(pos), doc.languageId, entries, config);
  if (!plan.added.length) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('MLSys Papers: {0} already cited here', entries.map((e) => e.key).join(', ')), 4000);
    return [];
  }
  const start = doc.positionAt(plan.offset);
  const range = new vscode.Range(start, doc.positionAt(plan.offset + plan.length));
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, range, plan.text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: could not insert the citation into {0}.', vscode.workspace.asRelativePath(doc.uri)));
    return [];
  }
  const end = doc.positionAt(plan.offset + plan.text.length);
  editor.selection = new vscode.Selection(end, end);
  return plan.added;
}

/**
 * Cites entries where the user writes and keeps the document's bibliography in step: the language
 * server plans both (a work the bibliography already has under another key is cited by that key;
 * missing entries are added to the bibliography unless `mlsysPapers.syncBibliography` is off).
 * In editors of other languages, a plain-text reference goes in at the cursor.
 *
 * @returns the keys inserted into the document
 */
export async function citeEntries(editor: vscode.TextEditor, entries: readonly Entry[], config: Config, bibs: Bibliographies): Promise<string[]> {
  if (!isCitingEditor(editor)) return insertCitations(editor, entries, config);
  const doc = editor.document;
  const keys = entries.map((e) => e.key);
  let plan = await bibs.planCitation(doc, editor.selection.active, keys);
  // Typed while the plan was made: plan again on the new text.
  if (plan.version !== doc.version) plan = await bibs.planCitation(doc, editor.selection.active, keys);
  if (plan.version !== doc.version) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: the document kept changing while the citation was planned; cite again.'));
    return [];
  }
  if (!plan.edit) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('MLSys Papers: {0} already cited here', keys.join(', ')), 4000);
    return [];
  }
  const { offset, length, text } = plan.edit;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + length)), text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: could not insert the citation into {0}.', vscode.workspace.asRelativePath(doc.uri)));
    return [];
  }
  const end = doc.positionAt(offset + text.length);
  editor.selection = new vscode.Selection(end, end);
  await bibs.complete(plan.reused, plan.bibliography);
  return plan.added;
}

/** Registers Insert Citation (from the tree, the search, the palette or a keybinding). */
export function registerInsertCitation(ctx: Ctx): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.insertCitation, commandOnEntries(ctx, async (entries) => {
    const editor = targetEditor();
    if (!editor) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: open a LaTeX or Markdown file to insert a citation; the BibTeX was copied instead.'));
      await copyBibtex(ctx.corpus, entries);
      return;
    }
    await citeEntries(editor, entries, ctx.config.for(editor.document.uri), ctx.bibs);
  }));
}
