/**
 * "Export Entries" and "Export Cited Entries": entries of the corpus written as BibTeX or CSL-JSON
 * to a file the user picks in the save dialog.
 */
import * as vscode from 'vscode';
import { toBibtexAll } from '../core/cite/writeBibtex.js';
import { toCslJson } from '../core/cite/formatCitation.js';
import type { Entry } from '../core/corpus/schema.js';
import { Commands } from '../ids.js';
import { citedInActiveEditor } from './corpusClient.js';
import type { Ctx } from './client/ctx.js';
import { resolveEntries } from './entryArgs.js';
import { topicFilterOf } from './config.js';

async function saveAs(content: string, name: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, saveLabel: vscode.l10n.t('Export') });
  if (!uri) return;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: exported to {0}.', vscode.workspace.asRelativePath(uri, false)));
}

async function exportEntries(entries: readonly Entry[], name: string): Promise<void> {
  if (!entries.length) return;
  const format = await vscode.window.showQuickPick([
    { label: 'BibTeX', ext: 'bib', content: () => toBibtexAll(entries) },
    { label: 'CSL-JSON', ext: 'json', content: () => `${JSON.stringify(entries.map(toCslJson), null, 2)}\n` },
  ], { title: entries.length === 1 ? vscode.l10n.t('Export 1 entry') : vscode.l10n.t('Export {0} entries', entries.length), placeHolder: vscode.l10n.t('Format') });
  if (format) await saveAs(format.content(), `${name}.${format.ext}`);
}

/** Registers Export Entries (from the tree, the search or the palette) and Export Cited Entries. */
export function registerExport({ corpus, picker, config }: Ctx): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.exportEntries, async (arg?: unknown, selection?: unknown) => {
      // From the tree: a topic exports everything under it that the view shows; entries export themselves.
      const nodes = (Array.isArray(selection) && selection.length ? selection : [arg]) as { nodeType?: string; id?: string }[];
      const topics = nodes.filter((n) => n?.nodeType === 'topic' && n.id).map((n) => n.id!);
      if (topics.length) {
        await exportEntries(await corpus.topicEntries(topics, topicFilterOf(config.value)), topics.length === 1 ? topics[0]! : 'mlsys-papers');
        return;
      }
      const given = await resolveEntries(corpus, arg, selection);
      await exportEntries(given.length ? given : await picker.pick(), 'mlsys-papers');
    }),
    vscode.commands.registerCommand(Commands.exportCited, async () => {
      const cited = await citedInActiveEditor(corpus);
      // Not 'references': the default name must not be the bibliography the document already uses.
      if (cited) await exportEntries(cited.entries, 'cited-references');
    }),
  );
}
