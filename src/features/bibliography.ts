/**
 * A document's bibliography in VS Code: finding its files (open editors first, then disk), and
 * adding cited entries to it as undoable `WorkspaceEdit`s that touch nothing else.
 */
import * as vscode from 'vscode';
import { eolOf } from '../core/bib/bibfile.js';
import {
  latexBibliographies, markdownBibliographies, planLatexBibDeclaration, planMarkdownBibDeclaration, texRootOf,
} from '../core/bib/locate.js';
import { planBibAddition, planBibSync, readBibSource, type BibSource, type BibSyncPlan } from '../core/bib/sync.js';
import { LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../core/context.js';
import type { Entry } from '../core/schema.js';
import { Settings } from '../ids.js';

/** The text of a file: from its open document when there is one (unsaved changes included), else from disk. */
export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** The bibliography a document declares: where it lives and what it holds. */
export interface DocumentBibliography {
  /** The document whose declarations count: the LaTeX root file, or the Markdown document. */
  root: vscode.Uri;
  /** Declared files that exist and could be read (or could not be parsed: see `error`). */
  sources: (BibSource & { uri: vscode.Uri })[];
  /** Declared files that do not exist yet. */
  missing: vscode.Uri[];
}

/**
 * Finds the bibliography of a LaTeX or Markdown document. For LaTeX the root file is the one named
 * by `% !TEX root =`, else the setting `mlsysPapers.latexRoot` (workspace-relative), else the document.
 *
 * @returns undefined for other languages
 */
export async function documentBibliography(doc: vscode.TextDocument): Promise<DocumentBibliography | undefined> {
  const lang = doc.languageId;
  let root = doc.uri;
  let rootText = doc.getText();
  let decls;
  if (LATEX_LANGUAGES.has(lang)) {
    const magic = texRootOf(rootText);
    const setting = vscode.workspace.getConfiguration(Settings.section, doc.uri).get<string>(Settings.latexRoot, '');
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri;
    const rootUri = magic ? vscode.Uri.joinPath(doc.uri, '..', magic) : setting && folder ? vscode.Uri.joinPath(folder, setting) : undefined;
    if (rootUri && rootUri.toString() !== doc.uri.toString()) {
      const text = await readCached(rootUri, 'text', (t) => t);
      if (text !== null) { root = rootUri; rootText = text; }
    }
    decls = latexBibliographies(rootText);
  } else if (MARKDOWN_LANGUAGES.has(lang)) {
    decls = markdownBibliographies(rootText);
  } else return undefined;
  const sources: DocumentBibliography['sources'] = [];
  const missing: vscode.Uri[] = [];
  for (const d of decls) {
    const uri = d.path.startsWith('/') ? vscode.Uri.file(d.path) : vscode.Uri.joinPath(root, '..', d.path);
    const source = await readCached(uri, 'bib', (text) => readBibSource(d.path, text));
    if (source === null) missing.push(uri);
    else if (source) sources.push({ ...source, uri });
  }
  return { root, sources, missing };
}

/**
 * What a file's text gave last time, keyed by URI and by what would change it: the open document's
 * version, else the file's modification time and size. Completion and diagnostics ask on every
 * change of a document; a large .bib (or a LaTeX root file) is read and parsed once per change of
 * that file, not once per keystroke.
 */
const fileCache = new Map<string, { stamp: string; value: unknown }>();

/** @returns `make(text)` for the file's current text, or null when the file does not exist */
async function readCached<T>(uri: vscode.Uri, kind: string, make: (text: string) => T): Promise<T | null> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  let stamp: string;
  if (open) stamp = `v${open.version}`;
  else {
    try {
      const st = await vscode.workspace.fs.stat(uri);
      stamp = `m${st.mtime}:${st.size}`;
    } catch {
      return null;
    }
  }
  const id = `${kind}:${uri.toString()}`;
  const cached = fileCache.get(id);
  if (cached?.stamp === stamp) return cached.value as T;
  const text = await readText(uri);
  if (text === undefined) return null;
  const value = make(text);
  fileCache.set(id, { stamp, value });
  return value;
}

function displayPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** Inserts text into a file as a `WorkspaceEdit`; saves it when the file had no unsaved changes before. */
async function insertInto(uri: vscode.Uri, offset: number, text: string): Promise<boolean> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const wasDirty = doc.isDirty;
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, doc.positionAt(offset), text);
  if (!(await vscode.workspace.applyEdit(edit))) return false;
  // A file the user is editing keeps its unsaved state; one we alone changed is saved, so that
  // the document compiles with the new entry.
  if (!wasDirty) await doc.save();
  return true;
}

async function showProblemAt(uri: vscode.Uri, line: number, column: number, message: string): Promise<void> {
  const open = 'Show';
  const choice = await vscode.window.showErrorMessage(message, open);
  if (choice === open) {
    const editor = await vscode.window.showTextDocument(uri);
    const pos = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos));
  }
}

/**
 * Before citing: decides which keys to cite (a work the bibliography has under another key is
 * cited by that key) and what to add.
 */
export async function prepareCitation(doc: vscode.TextDocument, entries: readonly Entry[]): Promise<{ bib?: DocumentBibliography; plan: BibSyncPlan }> {
  const bib = await documentBibliography(doc);
  const readable = bib?.sources.filter((s) => !s.error) ?? [];
  return { bib, plan: planBibSync(entries, readable) };
}

/**
 * After citing: adds the planned entries to the bibliography (the first declared file that can be
 * read; a declared file that does not exist yet is created), or offers to create and declare
 * `references.bib` when the document declares none. Tells the user about works cited under their
 * existing key and about a bibliography that cannot be parsed (which is then not written to).
 */
export async function completeBibliography(doc: vscode.TextDocument, bib: DocumentBibliography | undefined, plan: BibSyncPlan): Promise<void> {
  for (const r of plan.reused) {
    void vscode.window.showInformationMessage(`MLSys Papers: ${displayPath(vscode.Uri.joinPath(bib!.root, '..', r.path))} already has "${r.entry.title}" as ${r.key}; cited that key.`);
  }
  if (!bib || !plan.add.length) return;
  const broken = bib.sources.find((s) => s.error);
  const target = bib.sources[0];
  if (target?.error || (!target && broken)) {
    const b = (target ?? broken)!;
    void showProblemAt(b.uri, b.error!.line, b.error!.column,
      `MLSys Papers: ${displayPath(b.uri)} could not be read at line ${b.error!.line}, column ${b.error!.column} (${b.error!.message}). It was not changed; add ${plan.add.map((e) => e.key).join(', ')} once it is fixed.`);
    return;
  }
  if (target) {
    const ins = planBibAddition(target, plan.add);
    if (!ins || !(await insertInto(target.uri, ins.offset, ins.text))) {
      void vscode.window.showErrorMessage(`MLSys Papers: could not add ${plan.add.map((e) => e.key).join(', ')} to ${displayPath(target.uri)}.`);
    }
    return;
  }
  if (bib.missing.length) {
    await createBibFile(bib.missing[0]!, plan.add);
    return;
  }
  // Not awaited: the citation is in; the offer waits for the user without holding the command.
  void offerToCreate(bib, plan.add);
}

/**
 * Offers to create `references.bib` beside the root document with the entries (or, when such a
 * file exists but is not declared, to add them to it) and to declare it in the document.
 */
async function offerToCreate(bib: DocumentBibliography, add: readonly Entry[]): Promise<void> {
  const fileUri = vscode.Uri.joinPath(bib.root, '..', 'references.bib');
  const existing = await readText(fileUri);
  const action = existing === undefined ? 'Create references.bib' : 'Use references.bib';
  const keys = add.map((e) => e.key).join(', ');
  const choice = await vscode.window.showInformationMessage(
    existing === undefined
      ? `MLSys Papers: ${displayPath(bib.root)} declares no bibliography. Create references.bib with ${keys} and declare it?`
      : `MLSys Papers: ${displayPath(bib.root)} declares no bibliography. Add ${keys} to the references.bib beside it and declare it?`,
    action);
  if (choice !== action) return;
  const rootDoc = await vscode.workspace.openTextDocument(bib.root);
  const text = rootDoc.getText();
  const eol = eolOf(text);
  const decl = LATEX_LANGUAGES.has(rootDoc.languageId)
    ? planLatexBibDeclaration(text, 'references.bib', eol)
    : [planMarkdownBibDeclaration(text, 'references.bib', eol)];
  if (!decl) {
    void vscode.window.showErrorMessage(`MLSys Papers: ${displayPath(bib.root)} has no \\end{document}; declare the bibliography by hand.`);
    return;
  }
  if (existing === undefined) {
    if (!(await createBibFile(fileUri, add))) return;
  } else {
    const source = readBibSource('references.bib', existing);
    if (source?.error) {
      void showProblemAt(fileUri, source.error.line, source.error.column, `MLSys Papers: references.bib could not be read at line ${source.error.line} (${source.error.message}); it was not changed.`);
      return;
    }
    const plan = source && planBibSync(add, [source]);
    const ins = source && plan?.add.length ? planBibAddition(source, plan.add) : undefined;
    if (ins && !(await insertInto(fileUri, ins.offset, ins.text))) return;
  }
  const edit = new vscode.WorkspaceEdit();
  for (const i of decl) edit.insert(bib.root, rootDoc.positionAt(i.offset), i.text);
  await vscode.workspace.applyEdit(edit);
}

async function createBibFile(uri: vscode.Uri, entries: readonly Entry[]): Promise<boolean> {
  const source = readBibSource(uri.path, '');
  const ins = source && planBibAddition(source, entries);
  if (!ins) {
    void vscode.window.showErrorMessage(`MLSys Papers: cannot create ${displayPath(uri)}: unknown bibliography format.`);
    return false;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(ins.text) });
  if (!(await vscode.workspace.applyEdit(edit))) return false;
  return true;
}
