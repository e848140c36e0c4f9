/**
 * Formatted references in a CSL style (setting `mlsysPapers.citationStyle`): copy, insert, a
 * Markdown bibliography of every key a document cites, and exports of BibTeX / CSL-JSON.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { toBibtexAll } from '../core/cite/bibtex.js';
import { BUNDLED_STYLES, type BundledStyle } from '../core/cite/styles.js';
import type * as CslModule from '../core/cite/csl.js';
import { toCslJson } from '../core/cite/format.js';
import { citedKeys } from '../core/citations.js';
import type { Entry } from '../core/schema.js';
import { Commands, Settings } from '../ids.js';
import { fromWorkspaceSettings, inWorkspaceFolders } from './config.js';
import type { CorpusService } from './corpusService.js';
import { entriesFromArgs } from './entryArgs.js';
import type { SearchUi } from './search.js';

let csl: typeof CslModule | undefined;
/**
 * citeproc-js is about 400 kB minified: it is built into its own file (`dist/csl.js`, see
 * scripts/build.mjs) and loaded on the first formatted reference, not at activation.
 */
function loadCsl(): typeof CslModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (csl ??= require('./csl.js') as typeof CslModule);
}

/**
 * Formats entries in the configured style, reading styles and locales from the extension's `csl/`.
 * Hover and completion format on every look, so the style file is read again only when its path
 * or modification time changes, and each locale once.
 */
export class Formatter {
  private style?: { path: string; mtime: number; xml: string };
  private readonly locales = new Map<string, string | undefined>();

  constructor(private readonly extensionPath: string) {}

  /** The configured style's XML: a bundled style id, or a path to a `.csl` file (workspace-relative or absolute). */
  private styleXml(): string {
    const setting = vscode.workspace.getConfiguration(Settings.section).get<string>(Settings.citationStyle, 'apa').trim() || 'apa';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const bundled = setting in BUNDLED_STYLES;
    const path = bundled ? join(this.extensionPath, 'csl/styles', BUNDLED_STYLES[setting as BundledStyle])
      : isAbsolute(setting) || !folder ? setting : join(folder, setting);
    if (!bundled && fromWorkspaceSettings(Settings.citationStyle) && !inWorkspaceFolders(vscode.Uri.file(path))) {
      throw new Error(`MLSys Papers: the CSL style "${setting}" named by the workspace settings (${Settings.section}.${Settings.citationStyle}) is outside the workspace folders, so it is not read. Name it in your user settings to use it.`);
    }
    try {
      const mtime = statSync(path).mtimeMs;
      if (this.style?.path !== path || this.style.mtime !== mtime) this.style = { path, mtime, xml: readFileSync(path, 'utf8') };
      return this.style.xml;
    } catch (e) {
      throw new Error(`MLSys Papers: cannot read the CSL style "${setting}" (setting ${Settings.section}.${Settings.citationStyle}): ${(e as Error).message}`);
    }
  }

  private locale(lang: string): string | undefined {
    if (!this.locales.has(lang)) {
      let xml: string | undefined;
      try {
        xml = readFileSync(join(this.extensionPath, 'csl/locales', `locales-${lang}.xml`), 'utf8');
      } catch {
        xml = undefined;
      }
      this.locales.set(lang, xml);
    }
    return this.locales.get(lang);
  }

  /** Formatted references, one per entry, as plain text. @throws Error naming the style when it cannot be used */
  format(entries: readonly Entry[]): string[] {
    return loadCsl().formatBibliography(entries, this.styleXml(), (lang) => this.locale(lang), 'text');
  }

  /** Like {@link format}, but reports a problem to the user and returns []. */
  tryFormat(entries: readonly Entry[]): string[] {
    try {
      return this.format(entries);
    } catch (e) {
      void vscode.window.showErrorMessage((e as Error).message);
      return [];
    }
  }
}

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
export function citedEntries(doc: vscode.TextDocument, corpus: CorpusService): Entry[] {
  // Keys are matched ignoring case, so two spellings of one key are one entry.
  return [...new Set(citedKeys(doc.getText(), doc.languageId).map((k) => corpus.corpus.entry(k)))].filter((e): e is Entry => !!e);
}

/** Registers the formatted-reference and export commands. */
export function registerFormatted(corpus: CorpusService, search: SearchUi, formatter: Formatter): vscode.Disposable {
  const entriesOr = async (arg: unknown, selection: unknown): Promise<Entry[]> => {
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
      const refs = formatter.tryFormat(await entriesOr(arg, selection));
      if (!refs.length) return;
      await vscode.env.clipboard.writeText(refs.join('\n'));
      void vscode.window.setStatusBarMessage(`MLSys Papers: copied ${refs.length} formatted reference(s)`, 4000);
    }),
    vscode.commands.registerCommand(Commands.insertFormattedReference, async (arg?: unknown, selection?: unknown) => {
      const refs = formatter.tryFormat(await entriesOr(arg, selection));
      if (refs.length) await insertAtCursor(refs.join('\n'));
    }),
    vscode.commands.registerCommand(Commands.insertBibliography, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const entries = citedEntries(editor.document, corpus);
      if (!entries.length) {
        void vscode.window.showInformationMessage('MLSys Papers: this document cites no entry of the corpus.');
        return;
      }
      const refs = formatter.tryFormat(entries);
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
      await exportEntries(citedEntries(editor.document, corpus), 'cited-references');
    }),
  );
}
