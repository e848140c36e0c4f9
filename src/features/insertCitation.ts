/**
 * Inserting citations into the active editor as an undoable `WorkspaceEdit`.
 */
import * as vscode from 'vscode';
import { planCitation } from '../core/cite/insert.js';
import { isCitingLanguage } from '../core/context.js';
import type { Entry } from '../core/schema.js';
import type { Config } from './config.js';
import type { Bibliographies } from './bibliography.js';

/** Whether citations in this editor are LaTeX or Pandoc citations (rather than plain text). */
export function isCitingEditor(editor: vscode.TextEditor | undefined): boolean {
  return isCitingLanguage(editor?.document.languageId ?? '');
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
    void vscode.window.setStatusBarMessage(`MLSys Papers: ${entries.map((e) => e.key).join(', ')} already cited here`, 4000);
    return [];
  }
  const start = doc.positionAt(plan.offset);
  const range = new vscode.Range(start, doc.positionAt(plan.offset + plan.length));
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, range, plan.text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`MLSys Papers: could not insert the citation into ${vscode.workspace.asRelativePath(doc.uri)}.`);
    return [];
  }
  const end = doc.positionAt(plan.offset + plan.text.length);
  editor.selection = new vscode.Selection(end, end);
  return plan.added;
}

/**
 * Cites entries where the user writes and keeps the document's bibliography in step: a work the
 * bibliography already has under another key is cited by that key; missing entries are added to
 * the bibliography (setting `mlsysPapers.syncBibliography`).
 *
 * @returns the keys inserted into the document
 */
export async function citeEntries(editor: vscode.TextEditor, entries: readonly Entry[], config: Config, bibs: Bibliographies): Promise<string[]> {
  if (!config.syncBibliography || !isCitingEditor(editor)) return insertCitations(editor, entries, config);
  const doc = editor.document;
  const { bib, plan } = await bibs.prepare(doc, entries);
  const cited = entries.map((e) => ({ ...e, key: plan.citeAs.get(e.key) ?? e.key }));
  const added = await insertCitations(editor, cited, config);
  await bibs.complete(bib, plan);
  return added;
}
