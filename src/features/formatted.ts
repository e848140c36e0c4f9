/**
 * Formatted references in a CSL style (setting `mlsysPapers.citationStyle`, formatted by the
 * language server with citeproc-js): copy, insert, a Markdown bibliography of every key a document
 * cites, and exports of BibTeX / CSL-JSON.
 */
import * as vscode from 'vscode';
import { toBibtexAll } from '../core/cite/bibtex.js';
import { toCslJson } from '../core/cite/format.js';
import type { Entry } from '../core/schema.js';
import { Commands } from '../ids.js';
import type { CorpusClient } from './corpusClient.js';
import { entriesFromArgs } from './entryArgs.js';
import type { SearchUi } from './search.js';

async function insertAtCursor(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage('MLSys Papers: no editor is open; the text was copied to the clipboard.');
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.insert(editor.document.uri, editor.selection.active, text);
  await vscode.workspace.applyEdit(edit);
}

async function saveAs(content: string, name: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, saveLabel: 'Export' });
  if (!uri) return;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  void vscode.window.showInformationMessage(`MLSys Papers: exported to ${vscode.workspace.asRelativePath(uri, false)}.`);
}

/** Entries a document cites, in citation order, each once (keys the corpus does not know are left out). */
export async function citedEntries(doc: vscode.TextDocument, corpus: CorpusClient): Promise<Entry[]> {
  // Keys are matched ignoring case, so two spellings of one key are one entry.
  const keys = await corpus.citedKeys(doc);
  return [...new Set(keys.map((k) => corpus.corpus.entry(k)))].filter((e): e is Entry => !!e);
}

/** Registers the formatted-reference and export commands. */
export function registerFormatted(corpus: CorpusClient, search: SearchUi): vscode.Disposable {
  const entriesOr = async (arg: unknown, selection: unknown): Promise<Entry[]> => {
    await corpus.ready;
    const given = entriesFromArgs(corpus.corpus, arg, selection);
    return given.length ? given : search.pick();
  };
  const exportEntries = async (entries: readonly Entry[], name: string) => {
    if (!entries.length) return;
    const format = await vscode.window.showQuickPick([
      { label: 'BibTeX', ext: 'bib', content: () => toBibtexAll(entries) },
      { label: 'CSL-JSON', ext: 'json', content: () => `${JSON.stringify(entries.map(toCslJson), null, 2)}\n` },
    ], { title: `Export ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`, placeHolder: 'Format' });
    if (format) await saveAs(format.content(), `${name}.${format.ext}`);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.copyFormattedReference, async (arg?: unknown, selection?: unknown) => {
      const refs = await corpus.tryFormat(await entriesOr(arg, selection), vscode.window.activeTextEditor?.document.uri);
      if (!refs.length) return;
      await vscode.env.clipboard.writeText(refs.join('\n'));
      void vscode.window.setStatusBarMessage(`MLSys Papers: copied ${refs.length} formatted reference(s)`, 4000);
    }),
    vscode.commands.registerCommand(Commands.insertFormattedReference, async (arg?: unknown, selection?: unknown) => {
      const refs = await corpus.tryFormat(await entriesOr(arg, selection), vscode.window.activeTextEditor?.document.uri);
      if (refs.length) await insertAtCursor(refs.join('\n'));
    }),
    vscode.commands.registerCommand(Commands.insertBibliography, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const entries = await citedEntries(editor.document, corpus);
      if (!entries.length) {
        void vscode.window.showInformationMessage('MLSys Papers: this document cites no entry of the corpus.');
        return;
      }
      const refs = await corpus.tryFormat(entries, editor.document.uri);
      if (refs.length) await insertAtCursor(`${refs.join('\n\n')}\n`);
    }),
    vscode.commands.registerCommand(Commands.exportEntries, async (arg?: unknown, selection?: unknown) => {
      // From the tree: a topic exports everything under it; entries export themselves.
      const node = (Array.isArray(selection) && selection.length ? selection : [arg]) as { kind?: string; id?: string }[];
      const topics = node.filter((n) => n?.kind === 'topic' && n.id).map((n) => n.id!);
      const entries = topics.length
        ? [...new Map(topics.flatMap((t) => corpus.corpus.entriesUnder(t)).map((e) => [e.key, e])).values()]
        : await entriesOr(arg, selection);
      await exportEntries(entries, topics.length === 1 ? topics[0]! : 'mlsys-papers');
    }),
    vscode.commands.registerCommand(Commands.exportCited, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      // Not 'references': the default name must not be the bibliography the document already uses.
      await exportEntries(await citedEntries(editor.document, corpus), 'cited-references');
    }),
  );
}
