/**
 * The server's view of the `mlsysPapers.*` settings: pulled per scope with `workspace/configuration`
 * from a client that can be asked (cached until a change), else the last section pushed with
 * `workspace/didChangeConfiguration`.
 */
import type { DidChangeConfigurationParams } from 'vscode-languageserver';
import type { URI } from 'vscode-uri';
import { configureL10n, TOPIC_LABELS, type TopicLabels } from '../core/l10n.js';
import { maxFileBytes } from '../core/fileLimits.js';
import { documentSettingsFrom, type DocumentSettings } from '../core/service/types.js';
import type { ServerContext } from './context.js';
import { FROM_WORKSPACE, TOPIC_LABELS_SETTING } from './protocol.js';

/** The settings the server reads (`mlsysPapers.*`), as the client sends them. */
export interface RawSettings {
  latexCommand?: string;
  markdownStyle?: string;
  syncBibliography?: boolean;
  latexRoot?: string;
  citationStyle?: string;
  corpusFiles?: string[];
  libraries?: string[];
  includeDocumentBibliography?: boolean;
  preferCorpusKeys?: boolean;
  /** The largest file read, in MB (`core/fileLimits.ts`). */
  maxFileSizeMB?: number;
  [FROM_WORKSPACE]?: string[];
  [TOPIC_LABELS_SETTING]?: unknown;
}

/** The settings as the server's modules read them. */
export class ServerSettings {
  /** Settings pushed with `workspace/didChangeConfiguration`, for clients that cannot be asked. */
  private pushed: RawSettings = {};
  private readonly cache = new Map<string, Promise<RawSettings>>();

  constructor(private readonly ctx: ServerContext) {}

  /** The `mlsysPapers` section in `scope` (a document), or the window's. */
  raw(scope?: URI): Promise<RawSettings> {
    const id = scope?.toString() ?? '';
    let s = this.cache.get(id);
    if (!s) {
      s = this.ctx.can.pullConfig
        ? this.ctx.connection.workspace.getConfiguration({ scopeUri: scope?.toString(), section: 'mlsysPapers' })
          .then((v: unknown) => (v && typeof v === 'object' ? withTopicLabels(v as RawSettings) : {}), (e: unknown) => { this.ctx.log.warn(`settings: ${String(e)}`); return {}; })
        : Promise.resolve(this.pushed);
      this.cache.set(id, s);
    }
    return s;
  }

  /** Whether `key`'s value in `s` comes from a workspace's settings (the client says so in `FROM_WORKSPACE`). */
  fromWorkspace(s: RawSettings, key: string): boolean {
    return (s[FROM_WORKSPACE] ?? []).includes(key);
  }

  /** The settings the citation service reads for a document. */
  async document(uri: URI): Promise<DocumentSettings> {
    const s = await this.raw(uri);
    const settings = documentSettingsFrom(s, this.fromWorkspace(s, 'latexRoot'));
    // A workspace may not open its own way out (VS Code reads this application-scoped setting from
    // the user's settings only; a client that says where a value came from is held to it too).
    if (this.fromWorkspace(s, 'allowWritesOutsideWorkspace')) delete settings.allowWritesOutside;
    return settings;
  }

  /** The size cap in bytes (`mlsysPapers.maxFileSizeMB`, the user's or the window's). */
  async maxBytes(): Promise<number> {
    return maxFileBytes((await this.raw()).maxFileSizeMB);
  }

  /** `workspace/didChangeConfiguration`: a pushed section replaces the last; every cached one is dropped. */
  changed(p: DidChangeConfigurationParams): void {
    const section = (p.settings as { mlsysPapers?: unknown } | null)?.mlsysPapers;
    if (section && typeof section === 'object') this.pushed = section as RawSettings;
    this.cache.clear();
  }

  /** Forgets a closed document's settings. */
  forget(uri: string): void {
    this.cache.delete(uri);
  }
}

/** The paths a setting lists (`corpusFiles`, `libraries`): its non-blank strings. */
export function settingPaths(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string' && !!p.trim()) : [];
}

/** Whether a setting's path is a glob. */
export const isGlob = (path: string): boolean => /[*?{[]/.test(path);

/** The VS Code client's answer carries the topic labels it resolved (`TOPIC_LABELS_SETTING`): hovers follow a change. */
function withTopicLabels(s: RawSettings): RawSettings {
  const labels = s[TOPIC_LABELS_SETTING];
  if (TOPIC_LABELS.includes(labels as TopicLabels)) configureL10n({ topicLabels: labels as TopicLabels });
  return s;
}
