/**
 * Opening an entry's links (paper, PDF, code) in the browser: shared by the entry commands and the
 * search's item buttons.
 */
import * as vscode from 'vscode';
import type { Entry } from '../core/corpus/schema.js';
import { isWebLink } from '../core/corpus/links.js';

/** Opens an http(s) link in the browser; refuses anything else. */
export async function openLink(url: string | undefined, what: 'paper' | 'PDF' | 'code', e: Entry): Promise<void> {
  if (!isWebLink(url)) {
    const message = what === 'paper' ? vscode.l10n.t('MLSys Papers: "{0}" has no paper link.', e.title)
      : what === 'PDF' ? vscode.l10n.t('MLSys Papers: "{0}" has no PDF link.', e.title)
        : vscode.l10n.t('MLSys Papers: "{0}" has no code link.', e.title);
    void vscode.window.showInformationMessage(message);
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
