/**
 * Every `mlsysPapers.*` setting the client reads as one typed, validated snapshot, read in one
 * place (after rust-analyzer's `editors/code/src/config.ts`) by the one schema's `readSettings`
 * and not reshaped. Settings that depend on the document (`scope: "resource"` in package.json)
 * are read with the document's URI, so a folder of a multi-root workspace can set its own; the
 * rest are the window's. What the views derive from them (topic labels) comes from
 * `core/config/settings.ts`'s functions, with VS Code's display language passed as a value.
 */
import * as vscode from 'vscode';
import type { TopicLabels } from '../core/text/l10n.js';
import { readSettings, SETTINGS, topicLabelsOf, type SettingName, type Settings as SettingValues } from '../core/config/settings.js';
import { Settings } from '../ids.js';
import { Disposable } from './dispose.js';
import type { TopicFilter } from '../server/protocol.js';

/** The settings only the language server reads (the file size cap, writes outside the workspace): not in {@link Config}. */
type ServerOnly = 'maxFileSizeMB' | 'allowWritesOutsideWorkspace';

/**
 * A snapshot of the `mlsysPapers.*` settings the client reads: the one schema's `Settings`
 * (`core/config/settings.ts`: unknown values fall back to defaults) as `readSettings` gives them,
 * less the two only the server reads. Resource scope (per document): `latexCommand`,
 * `markdownStyle`, `syncBibliography`, `latexRoot` ('' when unset), `citationStyle`, …; the rest
 * are the window's. Which topic labels the views show is {@link ConfigStore.topicLabels}.
 */
export type Config = Omit<SettingValues, ServerOnly>;

/** What the Topics view shows (`topicsShow`, `levels`), as the server's topic requests take it. */
export function topicFilterOf(c: Pick<Config, 'topicsShow' | 'levels'>): TopicFilter {
  return { scope: c.topicsShow, levels: [...c.levels] };
}

/** The settings of {@link Config} that name files (read only inside the workspace when a workspace sets them). */
export const FILE_SETTINGS = [Settings.corpusFiles, Settings.libraries, Settings.citationStyle, Settings.latexRoot, Settings.noteTemplate] as const;

/**
 * Reads every setting.
 *
 * @param scope - the document whose folder's settings apply to resource-scoped settings; the
 *   window's settings when absent
 */
export function readConfig(scope?: vscode.Uri): Config {
  const c = vscode.workspace.getConfiguration(Settings.section, scope);
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) raw[name] = c.get<unknown>(name);
  const { maxFileSizeMB: _max, allowWritesOutsideWorkspace: _writes, ...config } = readSettings(raw);
  return config;
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

/** Holds the window's {@link Config}, reads a document's, and tells listeners when a value changes. */
export class ConfigStore extends Disposable {
  private current = readConfig();
  private readonly emitter = this._register(new vscode.EventEmitter<Config>());
  readonly onDidChange = this.emitter.event;

  /**
   * @param language - VS Code's display language (`vscode.env.language`: `en`, `zh-cn`, …), fixed
   *   for the life of the extension host; `auto` topic labels follow it
   */
  constructor(private readonly language: string) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(Settings.section)) return;
      // Only a change of a value counts: editing settings.json fires for every write, and each
      // event would rebuild the tree.
      const next = readConfig();
      if (JSON.stringify(next) === JSON.stringify(this.current)) return;
      this.current = next;
      this.emitter.fire(next);
    }));
  }

  /** The window's settings (resource-scoped ones as no particular folder sets them). */
  get value(): Config {
    return this.current;
  }

  /**
   * Which topic labels the views show (`topicLabelsOf` of the window's `topicLabels` and
   * `showChineseLabels` and the display language: the function the language server's hovers use too).
   */
  get topicLabels(): TopicLabels {
    return topicLabelsOf(this.current, this.language);
  }

  /** The settings for a document: its folder's values of resource-scoped settings. */
  for(uri: vscode.Uri): Config {
    return readConfig(uri);
  }

  /** Updates a setting in the user's global settings. */
  async update<K extends keyof Config>(key: K, value: Config[K]): Promise<void> {
    await vscode.workspace.getConfiguration(Settings.section).update(key, value, vscode.ConfigurationTarget.Global);
  }
}
