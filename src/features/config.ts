/**
 * The extension's settings as one typed snapshot, re-read on `onDidChangeConfiguration` in one place.
 */
import * as vscode from 'vscode';
import { LATEX_COMMANDS, MARKDOWN_STYLES, type LatexCommand, type MarkdownStyle } from '../core/cite/insert.js';
import { LEVELS, type Level } from '../core/schema.js';
import { oneOf } from '../core/service/types.js';
import { Settings } from '../ids.js';

/** A snapshot of `mlsysPapers.*` settings, validated (unknown values fall back to defaults). */
export interface Config {
  latexCommand: LatexCommand;
  markdownStyle: MarkdownStyle;
  /** Workspace-relative or absolute paths (globs allowed) of user corpus YAML files. */
  corpusFiles: string[];
  /** Levels shown in the tree; entries with no level always show. */
  levels: Level[];
  showChineseLabels: boolean;
  /** Add cited entries to the document's bibliography. */
  syncBibliography: boolean;
}

/** Reads the current settings. */
export function readConfig(): Config {
  const c = vscode.workspace.getConfiguration(Settings.section);
  const levels = c.get<string[]>(Settings.levels, [...LEVELS]).filter((l): l is Level => (LEVELS as readonly string[]).includes(l));
  return {
    latexCommand: oneOf(c.get(Settings.latexCommand), LATEX_COMMANDS, 'cite'),
    markdownStyle: oneOf(c.get(Settings.markdownStyle), MARKDOWN_STYLES, 'pandoc'),
    corpusFiles: c.get<string[]>(Settings.corpusFiles, []).filter((s) => typeof s === 'string' && s.trim()),
    levels: levels.length ? levels : [...LEVELS],
    showChineseLabels: c.get<boolean>(Settings.showChineseLabels, false),
    syncBibliography: c.get<boolean>(Settings.syncBibliography, true),
  };
}

/**
 * Whether a setting's effective value comes from a workspace's settings (`.vscode/settings.json`
 * or a `.code-workspace` file) rather than the user's. Files named by workspace settings are read
 * only inside the workspace folders: opening a folder must not let it read the user's other files.
 *
 * @param key - the setting's name without the `mlsysPapers.` section
 * @param scope - the resource whose folder's settings apply
 */
export function fromWorkspaceSettings(key: string, scope?: vscode.Uri): boolean {
  const i = vscode.workspace.getConfiguration(Settings.section, scope).inspect(key);
  return i?.workspaceFolderValue !== undefined || i?.workspaceValue !== undefined;
}

/** Holds the current {@link Config} and tells listeners when one of its values changes. */
export class ConfigStore implements vscode.Disposable {
  private current = readConfig();
  private readonly emitter = new vscode.EventEmitter<Config>();
  private readonly sub: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor() {
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(Settings.section)) return;
      // Only a change of what we read counts: editing settings.json fires for every write (and for
      // settings read elsewhere, such as the citation style), and each event would rebuild the tree.
      const next = readConfig();
      if (JSON.stringify(next) === JSON.stringify(this.current)) return;
      this.current = next;
      this.emitter.fire(next);
    });
  }

  get value(): Config {
    return this.current;
  }

  /** Updates a setting in the user's global settings. */
  async update<K extends keyof Config>(key: K, value: Config[K]): Promise<void> {
    await vscode.workspace.getConfiguration(Settings.section).update(key, value, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}
