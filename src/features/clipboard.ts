/**
 * What the entry commands put on the clipboard (the web workbench's clipboard too, through
 * `vscode.env.clipboard`).
 */
import * as vscode from 'vscode';
import { toBibtexAll } from '../core/cite/bibtex.js';
import type { Entry } from '../core/schema.js';

/** Copies the entries' BibTeX (as `Copy BibTeX` and the search's button do). */
export async function copyBibtex(entries: readonly Entry[]): Promise<void> {
  await vscode.env.clipboard.writeText(toBibtexAll(entries));
  void vscode.window.setStatusBarMessage(`MLSys Papers: copied BibTeX of ${entries.map((e) => e.key).join(', ')}`, 4000);
}
