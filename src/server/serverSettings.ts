/**
 * The server's view of the `mlsysPapers.*` settings (one schema: `core/config/settings.ts`): pulled per scope with `workspace/configuration`
 * from a client that can be asked (cached until a change), else the last section pushed with
 * `workspace/didChangeConfiguration`.
 */
import type { DidChangeConfigurationParams } from 'vscode-languageserver';
import type { URI } from 'vscode-uri';
import { maxFileBytes } from '../core/config/fileLimits.js';
import { documentSettingsOf, type DocumentSettings } from '../core/service/types.js';
import { readSettings, type SettingName, type Settings } from '../core/config/settings.js';
import type { ServerContext } from './serverContext.js';
import { FROM_WORKSPACE } from './protocol.js';
import type { WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/**
 * The settings the server reads (`mlsysPapers.*`), validated by the one schema
 * (`core/config/settings.ts`), with the names whose values come from a workspace's settings (the VS Code
 * client says so in `FROM_WORKSPACE`).
 */
export type ServerSettingValues = Settings & { readonly fromWorkspace: readonly string[] };

/** Reads a section as the client sent it: once per answer (or push), never again by its readers. */
function parse(raw: unknown): ServerSettingValues {
  const from = raw && typeof raw === 'object' ? (raw as { [FROM_WORKSPACE]?: unknown })[FROM_WORKSPACE] : undefined;
  return { ...readSettings(raw), fromWorkspace: Array.isArray(from) ? from.filter((k): k is string => typeof k === 'string') : [] };
}

/** The settings as the server's modules read them. */
export class ServerSettings implements WorkspaceChangeListener {
  /** Settings pushed with `workspace/didChangeConfiguration`, for clients that cannot be asked. */
  private pushed: ServerSettingValues = parse({});
  private readonly cache = new Map<string, Promise<ServerSettingValues>>();

  constructor(private readonly ctx: ServerContext) {}

  /** The `mlsysPapers` section in `scope` (a document), or the window's. */
  raw(scope?: URI): Promise<ServerSettingValues> {
    const id = scope?.toString() ?? '';
    let s = this.cache.get(id);
    if (!s) {
      s = this.ctx.can.pullConfig
        ? this.ctx.connection.workspace.getConfiguration({ scopeUri: scope?.toString(), section: 'mlsysPapers' })
          .then((v: unknown) => parse(v), (e: unknown) => { this.ctx.log.warn(`settings: ${String(e)}`); return parse({}); })
        : Promise.resolve(this.pushed);
      this.cache.set(id, s);
    }
    return s;
  }

  /** Whether `key`'s value in `s` comes from a workspace's settings (the client says so in `FROM_WORKSPACE`). */
  fromWorkspace(s: ServerSettingValues, key: SettingName): boolean {
    return s.fromWorkspace.includes(key);
  }

  /** The settings the citation service reads for a document. */
  async document(uri: URI): Promise<DocumentSettings> {
    const s = await this.raw(uri);
    const settings = documentSettingsOf(s, this.fromWorkspace(s, 'latexRoot'), this.ctx.locale);
    // A workspace may not open its own way out (VS Code reads this application-scoped setting from
    // the user's settings only; a client that says where a value came from is held to it too).
    if (this.fromWorkspace(s, 'allowWritesOutsideWorkspace')) delete settings.allowWritesOutside;
    return settings;
  }

  /** The size cap in bytes (`mlsysPapers.maxFileSizeMB`, the user's or the window's). */
  async maxBytes(): Promise<number> {
    return maxFileBytes((await this.raw()).maxFileSizeMB);
  }

  /** The settings changed, or a document closed (its settings are forgotten). */
  workspaceChanged(change: WorkspaceChange): void {
    if (change.settings) this.changed(change.settings);
    for (const f of change.files) if (f.how === 'closed') this.cache.delete(f.uri);
  }

  /** `workspace/didChangeConfiguration`: a pushed section replaces the last; every cached one is dropped. */
  private changed(p: DidChangeConfigurationParams): void {
    const section = (p.settings as { mlsysPapers?: unknown } | null)?.mlsysPapers;
    if (section && typeof section === 'object') this.pushed = parse(section);
    this.cache.clear();
  }
}

/** Whether a setting's path is a glob. */
export const isGlob = (path: string): boolean => /[*?{[]/.test(path);

