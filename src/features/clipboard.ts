/**
 * What the entry commands put on the clipboard (the web workbench's clipboard too, through
 * `vscode.env.clipboard`).
 */
import * as vscode from 'vscode';
import { toBibtexAll } from '../core/cite/writeBibtex.js';
import type { Entry } from '../core/corpus/schema.js';
import type { CorpusClient } from './corpusClient.js';

/**
 * Copies the entries' BibTeX (as `Copy BibTeX` and the search's button do): a corpus entry's as we
 * write it, a library entry's as the library has it (asked from the server, which keeps the text).
 */
export async function copyBibtex(corpus: Pick<CorpusClient, 'fetchEntry'>, entries: readonly Entry[]): Promise<void> {
  const copied = await Promise.all(entries.map(async (e) => (e.library && !e.library.bibtex ? (await corpus.fetchEntry(e.key)).entry ?? e : e)));
  await vscode.env.clipboard.writeText(toBibtexAll(copied));
  void vscode.window.setStatusBarMessage(vscode.l10n.t('MLSys Papers: copied BibTeX of {0}', entries.map((e) => e.key).join(', ')), 4000);
}
