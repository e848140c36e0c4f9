/**
 * A document's bibliography in VS Code: the language server plans (`core/service/`: which file,
 * which entries, where they go, planned on the exact text they are applied to); this applies the
 * plans so that nothing but the added text changes on disk, and asks the user where a choice is
 * theirs.
 *
 * How an addition reaches a file:
 * - a document open with unsaved changes: a `WorkspaceEdit` on the editor's text (the version the
 *   server planned on), left unsaved;
 * - a file whose line endings VS Code keeps as they are (all LF or all CRLF): a `WorkspaceEdit` on
 *   its document, then saved, so the user can undo it in the editor;
 * - a file with mixed or lone-CR line endings, which VS Code would normalise when it saves: the
 *   file's own bytes plus the insertion, written directly, so every original byte stays;
 * - a file that is not valid UTF-8 and not open: not written (VS Code would replace its bytes).
 * Before writing, the file's text is checked against the one the plan was made on (length and hash).
 */
import * as vscode from 'vscode';
import { refusalText } from '../core/bibliography/refusal.js';
import { applySplices } from '../core/bibliography/fileEdit.js';
import { textHash, type BibChange, type CitePlan, type SameWorkInBibliography } from '../core/service/types.js';
import type { Logger } from '../core/config/logger.js';
import { decodeUtf8 } from '../core/text/utf8.js';
import type { ServerApi } from './client/serverApi.js';

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
}

function displayPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

const BOM = '\uFEFF';
const changedWhilePlanned = () => vscode.l10n.t('it changed while the addition was planned; cite again');

/** Asks the server for citation and bibliography plans, and applies them. */
export class Bibliographies {
  constructor(private readonly server: ServerApi, private readonly log: Logger) {}

  /** Plans citing `keys` at `position` in `doc` (the server must have the document open: a citing language). */
  planCitation(doc: vscode.TextDocument, position: vscode.Position, keys: readonly string[]): Promise<CitePlan> {
    return this.server.planCitation({ uri: doc.uri.toString(), position: { line: position.line, character: position.character }, keys: [...keys] });
  }

  /** Adds corpus entries the document cites to its bibliography (the "Add to bibliography" quick fix). */
  async addCited(doc: vscode.TextDocument, keys: readonly string[]): Promise<void> {
    const plan = await this.server.planBibliography({ uri: doc.uri.toString(), keys: [...keys] });
    await this.complete(plan.reused, plan.bibliography);
  }

  /**
   * After citing: tells the user about works cited under their existing key, then applies the
   * bibliography's change: adds the entries, creates a declared file that does not exist yet, or
   * offers to create and declare `references.bib` when the document declares none.
   */
  async complete(reused: readonly SameWorkInBibliography[], change: BibChange): Promise<void> {
    for (const r of reused) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: {0} already has "{1}" as {2}; cited that key.', displayPath(vscode.Uri.parse(r.file, true)), r.title, r.citeAs));
    }
    switch (change.kind) {
      case 'none':
        return;
      case 'refuse': {
        const uri = vscode.Uri.parse(change.uri, true);
        const why = refusalText(change);
        this.log.warn(`${uri.toString(true)} ${change.reason}: ${why}`);
        void this.showProblem(uri, vscode.l10n.t('MLSys Papers: {0} {1}.', displayPath(uri), why), change.line, change.column);
        return;
      }
      case 'insert':
        await this.insert(change);
        return;
      case 'create':
        await this.create(vscode.Uri.parse(change.uri, true), change.text, change.keys);
        return;
      case 'declare':
        // Not awaited: the citation is in; the offer waits for the user without holding the command.
        void this.offerToCreate(vscode.Uri.parse(change.root, true), change.keys);
    }
  }

  /**
   * Applies an insertion planned by the server (see the module comment).
   *
   * @returns whether the entries were added
   */
  private async insert(change: Extract<BibChange, { kind: 'insert' }>): Promise<boolean> {
    const uri = vscode.Uri.parse(change.uri, true);
    const keys = change.keys.join(', ');
    const fail = (why: string) => {
      this.log.warn(`not added to ${uri.toString(true)}: ${why}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: could not add {0} to {1}: {2}. It was not changed.', keys, displayPath(uri), why));
      return false;
    };
    const open = openDocument(uri);
    const onDocument = async (save: boolean) => {
      const d = change.document;
      if (!open || !d) return fail(vscode.l10n.t('its text cannot be added to safely'));
      if (open.version !== d.version) return fail(changedWhilePlanned());
      return (await this.editDocument(open, d.offset, d.text, change.keys, save)) || fail(vscode.l10n.t('the edit was refused'));
    };
    if (open?.isDirty) return onDocument(false);
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch (e) {
      this.log.warn(`${uri.toString(true)}: ${String(e)}`);
      return fail(vscode.l10n.t('it cannot be read'));
    }
    const raw = decodeUtf8(bytes);
    if (raw === undefined) {
      if (open) return onDocument(false);
      return fail(vscode.l10n.t('it is not UTF-8 text, and rewriting it would change its other characters'));
    }
    const disk = change.disk;
    if (!disk) return fail(vscode.l10n.t('its shape cannot be added to without rewriting it'));
    if (raw.length !== disk.length || textHash(raw) !== disk.hash) return fail(changedWhilePlanned());
    if (disk.editorSafe) {
      const doc = open ?? (await vscode.workspace.openTextDocument(uri));
      const bom = raw.startsWith(BOM) ? 1 : 0;
      if (doc.getText().length !== raw.length - bom) return fail(vscode.l10n.t('its text in the editor differs from the file'));
      return (await this.editDocument(doc, disk.offset - bom, disk.text, change.keys, true)) || fail(vscode.l10n.t('the edit was refused'));
    }
    // Mixed or lone-CR line endings: VS Code would normalise them all on save. Write the file's
    // own text plus the insertion instead; an open (unmodified) editor reloads it.
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(applySplices(raw, [{ offset: disk.offset, length: 0, text: disk.text }])));
    this.log.info(`added ${keys} to ${uri.toString(true)} (written directly to keep its mixed line endings)`);
    return true;
  }

  /** Applies an insertion as an undoable edit; saves when asked. */
  private async editDocument(doc: vscode.TextDocument, offset: number, text: string, keys: readonly string[], save: boolean): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.positionAt(offset), text);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    // A file the user is editing keeps its unsaved state; one we alone changed is saved, so that
    // the document compiles with the new entry.
    if (save) await doc.save();
    this.log.info(`added ${keys.join(', ')} to ${doc.uri.toString(true)}`);
    return true;
  }

  private async create(uri: vscode.Uri, text: string, keys: readonly string[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.log.warn(`could not create ${uri.toString(true)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: could not create {0}.', displayPath(uri)));
      return false;
    }
    this.log.info(`created ${uri.toString(true)} with ${keys.join(', ')}`);
    return true;
  }

  private async showProblem(uri: vscode.Uri, message: string, line?: number, column?: number): Promise<void> {
    const show = vscode.l10n.t('Show');
    const choice = await (line ? vscode.window.showErrorMessage(message, show) : vscode.window.showErrorMessage(message));
    if (choice !== show || !line) return;
    const editor = await vscode.window.showTextDocument(uri);
    const pos = new vscode.Position(Math.max(0, line - 1), Math.max(0, (column ?? 1) - 1));
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos));
  }

  /**
   * Offers to create `references.bib` beside the root document with the entries (or, when such a
   * file exists but is not declared, to add them to it) and to declare it in the document.
   */
  private async offerToCreate(rootUri: vscode.Uri, keys: readonly string[]): Promise<void> {
    const fileUri = vscode.Uri.joinPath(rootUri, '..', 'references.bib');
    const plan = await this.server.planInsertion({ uri: fileUri.toString(), keys: [...keys] });
    if (plan.kind === 'refuse' && !plan.line) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: {0} declares no bibliography, and references.bib beside it {1}, so none was created.', displayPath(rootUri), refusalText(plan)));
      return;
    }
    const exists = plan.kind !== 'create';
    const action = exists ? vscode.l10n.t('Use references.bib') : vscode.l10n.t('Create references.bib');
    const list = keys.join(', ');
    const choice = await vscode.window.showInformationMessage(
      exists
        ? vscode.l10n.t('MLSys Papers: {0} declares no bibliography. Add {1} to the references.bib beside it and declare it?', displayPath(rootUri), list)
        : vscode.l10n.t('MLSys Papers: {0} declares no bibliography. Create references.bib with {1} and declare it?', displayPath(rootUri), list),
      action);
    if (choice !== action) return;
    // Opened, so the server has its current text to plan the declaration on.
    const rootDoc = await vscode.workspace.openTextDocument(rootUri);
    const decl = await this.server.planDeclaration({ uri: rootUri.toString(), file: 'references.bib' });
    if (!decl) {
      void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: {0} has no \\end{document}; declare the bibliography by hand.', displayPath(rootUri)));
      return;
    }
    if (decl.version !== rootDoc.version) {
      void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: {0} changed while the declaration was planned; cite again.', displayPath(rootUri)));
      return;
    }
    if (plan.kind === 'refuse') {
      void this.showProblem(fileUri, vscode.l10n.t('MLSys Papers: {0} {1}.', 'references.bib', refusalText(plan)), plan.line, plan.column);
      return;
    }
    if (plan.kind === 'create' && !(await this.create(fileUri, plan.text, plan.keys))) return;
    if (plan.kind === 'insert' && !(await this.insert(plan))) return;
    const edit = new vscode.WorkspaceEdit();
    for (const i of decl.insertions) edit.insert(rootUri, rootDoc.positionAt(i.offset), i.text);
    await vscode.workspace.applyEdit(edit);
  }
}
