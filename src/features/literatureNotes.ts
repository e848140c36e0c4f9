/**
 * Literature notes: *Open Note* on an entry (tree context menu, details panel, entry actions, and
 * the language server's code action on a citation) opens `<notesFolder>/<key>.md`, creating it from
 * the template when it is missing. The server says where the note is and what a new one holds
 * (`mlsysPapers/planNote`: inside the workspace by real path, the name made safe from the key);
 * here the note is created with one workspace edit (a new file and its text: undoable, and never
 * over a file that appeared meanwhile), saved, and shown. Which entries have a note is
 * `noteIndex.ts`'s `NoteIndex` (`ctx.notes`).
 */
import * as vscode from 'vscode';
import { Commands } from '../ids.js';
import type { Ctx } from './client/ctx.js';
import { commandOnEntries } from './entryArgs.js';

/**
 * Opens an entry's note, creating it from the template when it is missing.
 *
 * @param scope - a document or folder whose workspace folder and settings count (the active editor's by default)
 */
export async function openNote(ctx: Pick<Ctx, 'server' | 'notes' | 'log'>, key: string, scope?: vscode.Uri): Promise<void> {
  const where = scope ?? vscode.window.activeTextEditor?.document.uri;
  const plan = await ctx.server.planNote({ key, ...(where ? { scope: where.toString() } : {}) });
  if ('error' in plan) {
    void vscode.window.showWarningMessage(plan.error);
    return;
  }
  const uri = vscode.Uri.parse(plan.uri, true);
  if (!plan.exists) {
    const edit = new vscode.WorkspaceEdit();
    // Never over a file: if one appeared since the plan, the edit fails and that file is opened.
    edit.createFile(uri, { overwrite: false, ignoreIfExists: false });
    edit.insert(uri, new vscode.Position(0, 0), plan.text);
    if (await vscode.workspace.applyEdit(edit)) {
      const doc = await vscode.workspace.openTextDocument(uri);
      if (!(await doc.save())) ctx.log.warn(`Open Note: ${uri.toString(true)} was created but not saved`);
      ctx.notes.added(uri);
    } else ctx.log.info(`Open Note: ${uri.toString(true)} was not created (it exists now); opening it`);
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}

/**
 * Registers *Open Note*: from the tree, the search or the palette (an entry), from a code action
 * (a key and the document it is cited in), from the details panel (a key).
 */
export function registerLiteratureNotes(ctx: Ctx): vscode.Disposable {
  const onEntries = commandOnEntries(ctx, (entries) => openNote(ctx, entries[0]!.key));
  return vscode.commands.registerCommand(Commands.openNote, async (arg?: unknown, second?: unknown) => {
    if (typeof arg === 'string' && (second === undefined || typeof second === 'string' || second instanceof vscode.Uri)) {
      await openNote(ctx, arg, typeof second === 'string' ? vscode.Uri.parse(second, true) : second);
      return;
    }
    await onEntries(arg, second);
  });
}
