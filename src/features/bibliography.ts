/**
 * A document's bibliography in VS Code: the core resolver (`core/bib/resolve.ts`) over VS Code's
 * workspace (open documents first, then disk), and its plans applied so that nothing but the
 * added text changes on disk.
 *
 * How an addition reaches a file (the planner always plans on the exact text it is applied to):
 * - a document open with unsaved changes: a `WorkspaceEdit` on the editor's text, left unsaved;
 * - a file whose line endings VS Code keeps as they are (all LF or all CRLF): a `WorkspaceEdit` on
 *   its document, then saved, so the user can undo it in the editor;
 * - a file with mixed or lone-CR line endings, which VS Code would normalise when it saves: the
 *   file's own bytes plus the insertion, written directly, so every original byte stays;
 * - a file that is not valid UTF-8 and not open: not written (VS Code would replace its bytes).
 */
import * as vscode from 'vscode';
import { URI } from 'vscode-uri';
import { editorText, eolOf } from '../core/bib/bibfile.js';
import { planLatexBibDeclaration, planMarkdownBibDeclaration } from '../core/bib/locate.js';
import {
  BibCache, inWorkspace, planBibliographyUpdate, planCitationSync, resolveBibliography,
  type BibWorkspace, type DocumentBibliography, type ResolvedSource,
} from '../core/bib/resolve.js';
import { planBibAddition, planBibSync, readBibSource, type BibSyncPlan } from '../core/bib/sync.js';
import { LATEX_LANGUAGES } from '../core/context.js';
import type { Entry } from '../core/schema.js';
import { Settings } from '../ids.js';
import type { Logger } from '../core/log.js';

export type { DocumentBibliography, ResolvedSource };

/** A `vscode-uri` URI as VS Code's own. */
export function toVsUri(uri: URI): vscode.Uri {
  return vscode.Uri.parse(uri.toString(), true);
}

function fromVsUri(uri: vscode.Uri): URI {
  return URI.parse(uri.toString(), true);
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
}

/** VS Code's workspace as the core resolver's host. */
class VsCodeBibWorkspace implements BibWorkspace {
  constructor(private readonly log: Logger) {}

  get folders(): URI[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => fromVsUri(f.uri));
  }

  async readText(uri: URI): Promise<string | undefined> {
    const vs = toVsUri(uri);
    const open = openDocument(vs);
    if (open) return open.getText();
    try {
      return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(vs));
    } catch (e) {
      if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound')) this.log.warn(`cannot read ${vs.toString(true)}: ${String(e)}`);
      return undefined;
    }
  }

  async stamp(uri: URI): Promise<string | undefined> {
    const vs = toVsUri(uri);
    const open = openDocument(vs);
    if (open) return `v${open.version}`;
    const st = await this.stat(vs);
    return st && `m${st.mtime}:${st.size}`;
  }

  async exists(uri: URI): Promise<boolean> {
    return !!(await this.stat(toVsUri(uri)));
  }

  private async stat(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
    try {
      return await vscode.workspace.fs.stat(uri);
    } catch {
      // Not there: the caller's answer is "missing"; nothing to log.
      return undefined;
    }
  }
}

function displayPath(uri: vscode.Uri | URI): string {
  return vscode.workspace.asRelativePath(uri instanceof vscode.Uri ? uri : toVsUri(uri), false);
}

/**
 * Owns the bibliography reading of every feature (completion, checks, citing): one bounded cache
 * of parsed files, and the one way additions are written.
 */
export class Bibliographies implements vscode.Disposable {
  private readonly ws: VsCodeBibWorkspace;
  private readonly cache = new BibCache(64);
  private readonly sub: vscode.Disposable;

  constructor(private readonly log: Logger) {
    this.ws = new VsCodeBibWorkspace(log);
    this.sub = vscode.workspace.onDidChangeWorkspaceFolders(() => this.cache.clear());
  }

  /**
   * The bibliography of a LaTeX or Markdown document. The setting `mlsysPapers.latexRoot` is read
   * in the document's scope; from a workspace's settings it may only name a file in the workspace.
   *
   * @returns undefined for documents of other languages
   */
  async of(doc: vscode.TextDocument): Promise<DocumentBibliography | undefined> {
    const conf = vscode.workspace.getConfiguration(Settings.section, doc.uri);
    const root = conf.inspect<string>(Settings.latexRoot);
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri;
    return resolveBibliography(this.ws, { uri: fromVsUri(doc.uri), languageId: doc.languageId, text: doc.getText() }, {
      latexRoot: conf.get<string>(Settings.latexRoot, '') || undefined,
      latexRootBase: folder && fromVsUri(folder),
      latexRootFromWorkspace: root?.workspaceFolderValue !== undefined || root?.workspaceValue !== undefined,
      cache: this.cache,
    });
  }

  /**
   * Before citing: decides which keys to cite (a work the bibliography has under another key is
   * cited by that key) and what to add.
   */
  async prepare(doc: vscode.TextDocument, entries: readonly Entry[]): Promise<{ bib?: DocumentBibliography; plan: BibSyncPlan }> {
    const bib = await this.of(doc);
    return { bib, plan: planCitationSync(bib, entries) };
  }

  /**
   * After citing: adds the planned entries to the bibliography, creates a declared file that does
   * not exist yet, or offers to create and declare `references.bib` when the document declares
   * none. Tells the user about works cited under their existing key, and why a file was not changed.
   */
  async complete(bib: DocumentBibliography | undefined, plan: BibSyncPlan): Promise<void> {
    for (const r of plan.reused) {
      void vscode.window.showInformationMessage(`MLSys Papers: ${displayPath(vscode.Uri.joinPath(toVsUri(bib!.root), '..', r.path))} already has "${r.entry.title}" as ${r.key}; cited that key.`);
    }
    const update = await planBibliographyUpdate(this.ws, bib, plan);
    switch (update.kind) {
      case 'none':
        return;
      case 'refuse': {
        const uri = toVsUri(update.uri);
        this.log.warn(`${uri.toString(true)} ${update.message}`);
        void this.showProblem(uri, `MLSys Papers: ${displayPath(uri)} ${update.message}.`, update.line, update.column);
        return;
      }
      case 'append':
        await this.append(toVsUri(update.uri), update.entries);
        return;
      case 'create':
        await this.create(toVsUri(update.uri), update.text, update.entries);
        return;
      case 'declare':
        // Not awaited: the citation is in; the offer waits for the user without holding the command.
        void this.offerToCreate(bib!, update.entries);
    }
  }

  /**
   * Appends entries to an existing bibliography file, planning on the exact text the change is
   * applied to (see the module comment).
   *
   * @returns whether the entries were added
   */
  async append(uri: vscode.Uri, entries: readonly Entry[]): Promise<boolean> {
    const keys = entries.map((e) => e.key).join(', ');
    const fail = (why: string) => {
      this.log.warn(`not added to ${uri.toString(true)}: ${why}`);
      void vscode.window.showErrorMessage(`MLSys Papers: could not add ${keys} to ${displayPath(uri)}: ${why}. It was not changed.`);
      return false;
    };
    const open = openDocument(uri);
    if (open?.isDirty) return this.editDocument(open, entries, false) || fail('its unsaved text cannot be added to safely');
    let raw: string;
    try {
      raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await vscode.workspace.fs.readFile(uri));
    } catch (e) {
      if (open) return this.editDocument(open, entries, false) || fail('its text cannot be added to safely');
      this.log.warn(`${uri.toString(true)}: ${String(e)}`);
      return fail('it is not UTF-8 text, and rewriting it would change its other characters');
    }
    if (editorText(raw) === raw) {
      const doc = open ?? (await vscode.workspace.openTextDocument(uri));
      return (await this.editDocument(doc, entries, true)) || fail('the edit was refused');
    }
    // Mixed or lone-CR line endings: VS Code would normalise them all on save. Write the file's
    // own text plus the insertion instead; an open (unmodified) editor reloads it.
    const source = readBibSource(uri.path, raw);
    const ins = source && planBibAddition(source, entries);
    if (!ins) return fail('its shape cannot be added to without rewriting it');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(raw.slice(0, ins.offset) + ins.text + raw.slice(ins.offset)));
    this.log.info(`added ${keys} to ${uri.toString(true)} (written directly to keep its mixed line endings)`);
    return true;
  }

  /** Plans on the document's text and applies the insertion as an undoable edit; saves when asked. */
  private async editDocument(doc: vscode.TextDocument, entries: readonly Entry[], save: boolean): Promise<boolean> {
    const source = readBibSource(doc.uri.path, doc.getText());
    const ins = source && planBibAddition(source, entries);
    if (!ins) return false;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.positionAt(ins.offset), ins.text);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    // A file the user is editing keeps its unsaved state; one we alone changed is saved, so that
    // the document compiles with the new entry.
    if (save) await doc.save();
    this.log.info(`added ${entries.map((e) => e.key).join(', ')} to ${doc.uri.toString(true)}`);
    return true;
  }

  private async create(uri: vscode.Uri, text: string, entries: readonly Entry[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.log.warn(`could not create ${uri.toString(true)}`);
      void vscode.window.showErrorMessage(`MLSys Papers: could not create ${displayPath(uri)}.`);
      return false;
    }
    this.log.info(`created ${uri.toString(true)} with ${entries.map((e) => e.key).join(', ')}`);
    return true;
  }

  private async showProblem(uri: vscode.Uri, message: string, line?: number, column?: number): Promise<void> {
    const show = 'Show';
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
  private async offerToCreate(bib: DocumentBibliography, add: readonly Entry[]): Promise<void> {
    const rootUri = toVsUri(bib.root);
    const fileUri = vscode.Uri.joinPath(rootUri, '..', 'references.bib');
    if (!inWorkspace(this.ws, fromVsUri(fileUri))) {
      void vscode.window.showInformationMessage(`MLSys Papers: ${displayPath(rootUri)} declares no bibliography, and it is outside the workspace, so none was created.`);
      return;
    }
    const existing = await this.ws.readText(fromVsUri(fileUri));
    const action = existing === undefined ? 'Create references.bib' : 'Use references.bib';
    const keys = add.map((e) => e.key).join(', ');
    const choice = await vscode.window.showInformationMessage(
      existing === undefined
        ? `MLSys Papers: ${displayPath(rootUri)} declares no bibliography. Create references.bib with ${keys} and declare it?`
        : `MLSys Papers: ${displayPath(rootUri)} declares no bibliography. Add ${keys} to the references.bib beside it and declare it?`,
      action);
    if (choice !== action) return;
    const rootDoc = await vscode.workspace.openTextDocument(rootUri);
    const text = rootDoc.getText();
    const eol = eolOf(text) === '\r\n' ? '\r\n' : '\n';
    const decl = LATEX_LANGUAGES.has(rootDoc.languageId)
      ? planLatexBibDeclaration(text, 'references.bib', eol)
      : [planMarkdownBibDeclaration(text, 'references.bib', eol)];
    if (!decl) {
      void vscode.window.showErrorMessage(`MLSys Papers: ${displayPath(rootUri)} has no \\end{document}; declare the bibliography by hand.`);
      return;
    }
    if (existing === undefined) {
      const fresh = readBibSource('references.bib', '');
      const ins = fresh && planBibAddition(fresh, add);
      if (!ins || !(await this.create(fileUri, ins.text, add))) return;
    } else {
      const source = readBibSource('references.bib', existing);
      if (source?.error) {
        void this.showProblem(fileUri, `MLSys Papers: references.bib could not be read at line ${source.error.line} (${source.error.message}); it was not changed.`, source.error.line, source.error.column);
        return;
      }
      const plan = source && planBibSync(add, [source]);
      if (plan?.add.length && !(await this.append(fileUri, plan.add))) return;
    }
    const edit = new vscode.WorkspaceEdit();
    for (const i of decl) edit.insert(rootUri, rootDoc.positionAt(i.offset), i.text);
    await vscode.workspace.applyEdit(edit);
  }

  dispose(): void {
    this.sub.dispose();
    this.cache.clear();
  }
}
