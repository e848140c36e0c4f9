/**
 * What the language server's quick fixes and go to definition need from VS Code: the commands of
 * the quick fixes ("Add … to the bibliography", "Search MLSys Papers for a replacement"), and the
 * read-only documents that show a corpus entry's BibTeX (`mlsys-papers:/<key>.bib`).
 * Diagnostics, hover, completion and definition themselves come from the server.
 */
import * as vscode from 'vscode';
import { ENTRY_SCHEME, ServiceCommands } from '../core/service/types.js';
import type { Ctx } from './client/ctx.js';

/** A URI from a command argument: VS Code passes `Uri`s, the server's code actions pass strings. */
function uriOf(arg: vscode.Uri | string): vscode.Uri {
  return typeof arg === 'string' ? vscode.Uri.parse(arg, true) : arg;
}

/** A range from a command argument: a `Range`, or an LSP range from the server. */
function rangeOf(arg: vscode.Range | { start: { line: number; character: number }; end: { line: number; character: number } }): vscode.Range {
  return arg instanceof vscode.Range ? arg : new vscode.Range(arg.start.line, arg.start.character, arg.end.line, arg.end.character);
}

/** A location from a command argument: an LSP location from the server. */
function locationOf(arg: { uri: string; range: Parameters<typeof rangeOf>[0] }): vscode.Location {
  return new vscode.Location(uriOf(arg.uri), rangeOf(arg.range));
}

/**
 * Registers the quick fixes' commands, the entry lens's "show citations" (the server's
 * `[documentUri, position, locations]` shown in VS Code's references peek), the entry documents (and the copy of a library entry's
 * version of record, which is never written into the library). The replacement key is asked for
 * with the search, pre-filled with the unknown key.
 */
export function registerCitationFixes({ server, bibs, picker }: Ctx): vscode.Disposable {
  const pick = async (query: string) => (await picker.pick(vscode.l10n.t('MLSys Papers: Replace citation key'), query)).map((e) => e.key);
  const entries: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: (uri, token) => server.entryDocument({ uri: uri.toString() }, token),
  };
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(ENTRY_SCHEME, entries),
    vscode.commands.registerCommand(ServiceCommands.addToBibliography, async (uri: vscode.Uri | string, key: string) => {
      const doc = await vscode.workspace.openTextDocument(uriOf(uri));
      await bibs.addCited(doc, [key]);
    }),
    vscode.commands.registerCommand(ServiceCommands.copyEntryText, async (text: string) => {
      await vscode.env.clipboard.writeText(text);
      void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: the entry as the verified record has it is on the clipboard; your library was not changed.'));
    }),
    vscode.commands.registerCommand(ServiceCommands.replaceKey, async (uri: vscode.Uri | string, range: vscode.Range, key: string) => {
      const [replacement] = await pick(key);
      if (!replacement) return;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uriOf(uri), rangeOf(range), replacement);
      if (await vscode.workspace.applyEdit(edit)) await vscode.commands.executeCommand(ServiceCommands.addToBibliography, uriOf(uri), replacement);
    }),
    vscode.commands.registerCommand(ServiceCommands.showCitations, async (uri: vscode.Uri | string, at: { line: number; character: number }, locations: { uri: string; range: Parameters<typeof rangeOf>[0] }[]) => {
      await vscode.commands.executeCommand('editor.action.showReferences', uriOf(uri), new vscode.Position(at.line, at.character), locations.map(locationOf));
    }),
  );
}
