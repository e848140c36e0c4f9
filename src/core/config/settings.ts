/**
 * The one schema of the `mlsysPapers.*` settings (zod) and the one reading of it, {@link Settings}:
 * the VS Code client's `Config` (`features/config.ts`) is that reading, and the language server
 * hands the citation service the same reading of a scope, {@link ScopeSettings}, with what is not a
 * setting beside it (which values a workspace set, the display language). Nothing reshapes it: a
 * value derived from settings is computed here, by one function each ({@link topicLabelsOf},
 * {@link writesOutsideAllowed}), from values passed in. Each setting's schema, default and scope
 * are the ones `package.json`'s `contributes.configuration` declares (a unit test holds them
 * together; VS Code's "Contribution Points: configuration" documents the fields).
 *
 * Reading is lenient per setting, as VS Code is with a hand-edited `settings.json`: a value that
 * does not fit its schema gives the default, and one bad setting never costs the others.
 */
import * as z from 'zod/mini';
import { LATEX_COMMANDS, MARKDOWN_STYLES } from '../cite/citationForms.js';
import { DEFAULT_MAX_FILE_MB } from './fileLimits.js';
import { LEVELS } from '../corpus/schema.js';
import { TOPIC_SCOPES } from '../corpus/browse.js';
import type { TopicLabels } from '../text/l10n.js';

/** The settings' section: every key is `mlsysPapers.<name>`. */
export const SETTINGS_SECTION = 'mlsysPapers';

/** Where a setting may be set (package.json `scope`): the user's only, per window, or per folder. */
export type SettingScope = 'application' | 'window' | 'resource';

/** One setting: the schema of its value as package.json declares it, its default, and its scope. */
export interface SettingSpec<T> {
  readonly schema: z.ZodMiniType<T>;
  readonly default: T;
  readonly scope: SettingScope;
}

const setting = <T>(schema: z.ZodMiniType<T>, dflt: T, scope: SettingScope): SettingSpec<T> => ({ schema, default: dflt, scope });

/** The severities of `mlsysPapers.recordChecks` and `recordChecksInDocuments` (LSP's `DiagnosticSeverity` by name), or `off`. */
export const CHECK_SEVERITIES = ['off', 'hint', 'information', 'warning', 'error'] as const;
export type CheckSeverity = (typeof CHECK_SEVERITIES)[number];

/** The values of `mlsysPapers.topicLabels`. */
export const TOPIC_LABEL_SETTINGS = ['auto', 'english', 'chinese', 'both'] as const;

/** Every `mlsysPapers.*` setting (see the file comment). */
export const SETTINGS = {
  /** The command Insert Citation writes in LaTeX. */
  latexCommand: setting(z.enum(LATEX_COMMANDS), 'cite', 'resource'),
  /** How a citation is written in Markdown. */
  markdownStyle: setting(z.enum(MARKDOWN_STYLES), 'pandoc', 'resource'),
  /** Workspace-relative or absolute paths (globs allowed) of user corpus YAML files. */
  corpusFiles: setting(z.array(z.string()), [], 'window'),
  /** The user's libraries (`.bib`, CSL-JSON, CSL-YAML): paths, globs, `~/…`. */
  libraries: setting(z.array(z.string()), [], 'window'),
  /** A bibliography whose real path leaves the workspace folders may be written (user settings only). */
  allowWritesOutsideWorkspace: setting(z.boolean(), false, 'application'),
  /** The largest file read, in MB (`fileLimits.ts` clamps it to its range). */
  maxFileSizeMB: setting(z.number(), DEFAULT_MAX_FILE_MB, 'window'),
  /** Open documents' bibliographies join the libraries. */
  includeDocumentBibliography: setting(z.boolean(), true, 'window'),
  /** Cite a corpus entry by its corpus key even when a library has the same work. */
  preferCorpusKeys: setting(z.boolean(), false, 'window'),
  /** Levels shown in the tree; entries with no level always show. */
  levels: setting(z.array(z.enum(LEVELS)), [...LEVELS], 'window'),
  /** What the Topics view shows: the reading list only, or the field's other works too (under each topic's "More in this topic"). */
  topicsShow: setting(z.enum(TOPIC_SCOPES), 'everything', 'window'),
  /** Which topic labels the views show (`auto` follows the display language). */
  topicLabels: setting(z.enum(TOPIC_LABEL_SETTINGS), 'auto', 'window'),
  /** The older switch for both labels (`topicLabels` wins when set). */
  showChineseLabels: setting(z.boolean(), false, 'window'),
  /** Add cited entries to the document's bibliography. */
  syncBibliography: setting(z.boolean(), true, 'resource'),
  /** The LaTeX root file for documents without `% !TEX root`, relative to the workspace folder ('' when unset). */
  latexRoot: setting(z.string(), '', 'resource'),
  /** A bundled CSL style name or the path of a `.csl` file. */
  citationStyle: setting(z.string(), 'apa', 'resource'),
  /** The record checks in bibliographies and libraries (a preprint with a version of record, fields that disagree): their severity, or off. */
  recordChecks: setting(z.enum(CHECK_SEVERITIES), 'information', 'resource'),
  /** The same checks where a LaTeX or Markdown document cites such an entry: their severity, or off. */
  recordChecksInDocuments: setting(z.enum(CHECK_SEVERITIES), 'off', 'resource'),
  /** A hint on the first prose mention of a system the corpus knows by name, with no citation in its sentence. */
  namedSystemHints: setting(z.boolean(), true, 'resource'),
  /** The folder of literature notes, relative to the workspace folder (inside it). */
  notesFolder: setting(z.string(), 'notes', 'resource'),
  /** A Markdown file (workspace-relative) to make new notes from ('': the built-in template). */
  noteTemplate: setting(z.string(), '', 'resource'),
} as const;

/** The name of a setting (without the section). */
export type SettingName = keyof typeof SETTINGS;

/** Every setting's value, read and validated. */
export type Settings = { -readonly [K in SettingName]: (typeof SETTINGS)[K] extends SettingSpec<infer T> ? T : never };

/**
 * One setting's value: an array keeps its items that fit (of strings, the non-blank ones) and is
 * the default when none does; a string is trimmed and is the default when blank; any other
 * value that does not fit is the default.
 */
function valueOf<T>(spec: SettingSpec<T>, raw: unknown): T {
  let v = raw;
  if (Array.isArray(v)) {
    const def = spec.schema._zod.def as { type: string; element?: z.ZodMiniType };
    if (def.type === 'array' && def.element) {
      const element = def.element;
      v = v.filter((item) => element.safeParse(item).success && (typeof item !== 'string' || !!item.trim()));
      if (!(v as unknown[]).length) return spec.default;
    }
  } else if (typeof v === 'string') {
    v = v.trim();
    if (!v) return spec.default;
  }
  const r = spec.schema.safeParse(v);
  return r.success ? r.data : spec.default;
}

/**
 * Reads the `mlsysPapers` section as an editor sends it (`workspace/configuration`, VS Code's
 * `WorkspaceConfiguration.get` per key).
 *
 * @param raw - the section's object (names without the section); anything else counts as empty
 * @returns every setting, each its value or, when absent or not fitting, its default (never throws)
 */
export function readSettings(raw: unknown): Settings {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec<unknown>][]) out[name] = valueOf(spec, s[name]);
  return out as Settings;
}

/**
 * Which topic labels to show: the setting `topicLabels` (`english`, `chinese`, `both`); `auto`
 * follows the display language (Chinese labels when it is `zh-*`), except that the older
 * `showChineseLabels: true` means both.
 *
 * The one place this is decided: the client's views and details page and the service's hovers
 * and completion documentation all call it, with the display language as a value.
 *
 * @param s - the settings read ({@link readSettings})
 * @param language - the display language (`vscode.env.language`, LSP's `InitializeParams.locale`:
 *   `en`, `zh-cn`, `zh-tw`, …); absent counts as English
 */
export function topicLabelsOf(s: Pick<Settings, 'topicLabels' | 'showChineseLabels'>, language = 'en'): TopicLabels {
  if (s.topicLabels === 'english') return 'en';
  if (s.topicLabels === 'chinese') return 'zh';
  if (s.topicLabels === 'both') return 'both';
  if (s.showChineseLabels) return 'both';
  return /^zh\b/i.test(language) ? 'zh' : 'en';
}

/**
 * The settings of one scope (a document's folder, or the window) as the citation service reads
 * them: the values read ({@link readSettings}), unchanged, and beside them what is not a setting.
 */
export interface ScopeSettings {
  /** Every setting's value in the scope. */
  readonly settings: Settings;
  /**
   * The settings whose values come from a workspace's settings (`.vscode/settings.json`, a
   * `.code-workspace` file) rather than the user's: a file such a value names is read only inside
   * the workspace, and such an `allowWritesOutsideWorkspace` is ignored. The VS Code client says
   * which (`FROM_WORKSPACE` of `server/protocol.ts`); other clients say none.
   */
  readonly fromWorkspace: readonly SettingName[];
  /**
   * The display language (`vscode.env.language`, LSP's `InitializeParams.locale`: `en`, `zh-cn`,
   * …), which `auto` topic labels follow; absent: English (the CLI, a client that gives no locale).
   */
  readonly language?: string;
}

/**
 * A scope's settings from the section an editor sends ({@link readSettings}) and the values beside it.
 *
 * @param raw - the `mlsysPapers` section's object; anything else counts as empty (every default)
 * @param fromWorkspace - the settings a workspace set ({@link ScopeSettings.fromWorkspace}); names
 *   that are not settings are dropped
 * @param language - the display language ({@link ScopeSettings.language})
 */
export function scopeSettings(raw: unknown, fromWorkspace: readonly unknown[] = [], language?: string): ScopeSettings {
  const names = fromWorkspace.filter((k): k is SettingName => typeof k === 'string' && Object.hasOwn(SETTINGS, k));
  return { settings: readSettings(raw), fromWorkspace: names, ...(language === undefined ? {} : { language }) };
}

/**
 * Whether a bibliography whose real path leaves the workspace folders (a symlink to a shared
 * `.bib`) may be written: `allowWritesOutsideWorkspace` is on and not set by a workspace. VS Code
 * reads this application-scoped setting from the user's settings only; a client that says a
 * workspace set it is held to the same rule, so a folder cannot open its own way out. Libraries
 * are never written, whatever this says.
 */
export function writesOutsideAllowed(s: ScopeSettings): boolean {
  return s.settings.allowWritesOutsideWorkspace && !s.fromWorkspace.includes('allowWritesOutsideWorkspace');
}
