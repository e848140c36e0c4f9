/**
 * Every `mlsysPapers.*` setting as one typed, validated snapshot, read in one place (after
 * rust-analyzer's `editors/code/src/config.ts`). Settings that depend on the document
 * (`scope: "resource"` in package.json) are read with the document's URI, so a folder of a
 * multi-root workspace can set its own; the rest are the window's.
 */
import * as vscode from 'vscode';
import { LATEX_COMMANDS, MARKDOWN_STYLES, type LatexCommand, type MarkdownStyle } from '../core/cite/insert.js';
import type { TopicLabels } from '../core/l10n.js';
import { LEVELS, type Level } from '../core/schema.js';
import { DEFAULT_CITATION_STYLE, DEFAULT_DOCUMENT_SETTINGS, oneOf } from '../core/service/types.js';
import { Settings } from '../ids.js';
import { Disposable } from './dispose.js';

/** A snapshot of the `mlsysPapers.*` settings, validated (unknown values fall back to defaults). */
export interface Config {
  /** Resource scope: the command Insert Citation writes in LaTeX. */
  latexCommand: LatexCommand;
  /** Resource scope: how a citation is written in Markdown. */
  markdownStyle: MarkdownStyle;
  /** Resource scope: add cited entries to the document's bibliography. */
  syncBibliography: boolean;
  /** Resource scope: the LaTeX root file for documents without `% !TEX root` ('' when unset). */
  latexRoot: string;
  /** Resource scope: a bundled CSL style name or the path of a `.csl` file. */
  citationStyle: string;
  /** Window scope: workspace-relative or absolute paths (globs allowed) of user corpus YAML files. */
  corpusFiles: string[];
  /** Window scope: the user's libraries (`.bib`, CSL-JSON, CSL-YAML): paths, globs, `~/…`. */
  libraries: string[];
  /** Window scope: open documents' bibliographies join the libraries. */
  includeDocumentBibliography: boolean;
  /** Window scope: cite a corpus entry by its corpus key even when a library has the same work. */
  preferCorpusKeys: boolean;
  /** Window scope: levels shown in the tree; entries with no level always show. */
  levels: Level[];
  /**
   * Window scope: which topic labels the views show. The setting `topicLabels` (`auto`, `english`,
   * `chinese`, `both`); `auto` follows VS Code's display language (`vscode.env.language`: Chinese
   * labels when it is `zh-*`), except that the older `showChineseLabels: true` means both.
   */
  topicLabels: TopicLabels;
}

/** The settings of {@link Config} that name files (read only inside the workspace when a workspace sets them). */
export const FILE_SETTINGS = [Settings.corpusFiles, Settings.libraries, Settings.citationStyle, Settings.latexRoot] as const;

const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v.trim() || fallback : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

/**
 * Reads every setting.
 *
 * @param scope - the document whose folder's settings apply to resource-scoped settings; the
 *   window's settings when absent
 */
export function readConfig(scope?: vscode.Uri): Config {
  const c = vscode.workspace.getConfiguration(Settings.section, scope);
  const levelsSetting = c.get<unknown>(Settings.levels);
  const levels = Array.isArray(levelsSetting) ? levelsSetting.filter((l): l is Level => (LEVELS as readonly unknown[]).includes(l)) : [];
  const paths = (key: string) => {
    const v = c.get<unknown>(key);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && !!s.trim()) : [];
  };
  const d = DEFAULT_DOCUMENT_SETTINGS;
  return {
    latexCommand: oneOf(c.get(Settings.latexCommand), LATEX_COMMANDS, d.latexCommand),
    markdownStyle: oneOf(c.get(Settings.markdownStyle), MARKDOWN_STYLES, d.markdownStyle),
    syncBibliography: bool(c.get(Settings.syncBibliography), d.syncBibliography),
    latexRoot: str(c.get(Settings.latexRoot), ''),
    citationStyle: str(c.get(Settings.citationStyle), DEFAULT_CITATION_STYLE),
    corpusFiles: paths(Settings.corpusFiles),
    libraries: paths(Settings.libraries),
    includeDocumentBibliography: bool(c.get(Settings.includeDocumentBibliography), true),
    preferCorpusKeys: bool(c.get(Settings.preferCorpusKeys), false),
    levels: levels.length ? levels : [...LEVELS],
    topicLabels: topicLabelsOf(c.get(Settings.topicLabels), c.get(Settings.showChineseLabels), vscode.env.language),
  };
}

/**
 * Which topic labels to show (see {@link Config.topicLabels}).
 *
 * @param setting - the value of `mlsysPapers.topicLabels`
 * @param showChinese - the value of the older `mlsysPapers.showChineseLabels`
 * @param language - VS Code's display language (`en`, `zh-cn`, `zh-tw`, …)
 */
export function topicLabelsOf(setting: unknown, showChinese: unknown, language: string): TopicLabels {
  if (setting === 'english') return 'en';
  if (setting === 'chinese') return 'zh';
  if (setting === 'both') return 'both';
  if (showChinese === true) return 'both';
  return /^zh\b/i.test(language) ? 'zh' : 'en';
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

  constructor() {
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

  /** The settings for a document: its folder's values of resource-scoped settings. */
  for(uri: vscode.Uri): Config {
    return readConfig(uri);
  }

  /** Updates a setting in the user's global settings. */
  async update<K extends keyof Config>(key: K, value: Config[K]): Promise<void> {
    await vscode.workspace.getConfiguration(Settings.section).update(key, value, vscode.ConfigurationTarget.Global);
  }
}
