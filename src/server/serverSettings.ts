/**
 * The server's view of the `mlsysPapers.*` settings (one schema: `core/config/settings.ts`): pulled per scope with `workspace/configuration`
 * from a client that can be asked (cached until a change), else the last section pushed with
 * `workspace/didChangeConfiguration`.
 */
import type { DidChangeConfigurationParams } from 'vscode-languageserver';
import type { URI } from 'vscode-uri';
import { maxFileBytes } from '../core/config/fileLimits.js';
import { scopeSettings, type ScopeSettings } from '../core/config/settings.js';
import type { ServerContext } from './serverContext.js';
import { FROM_WORKSPACE } from './protocol.js';
import type { WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/**
 * Reads a section as the client sent it, once per answer (or push), never again by its readers:
 * the settings, and the names whose values come from a workspace's settings (the VS Code client
 * says so in `FROM_WORKSPACE`; other clients say none).
 */
function parse(raw: unknown): ScopeSettings {
  const from = raw && typeof raw === 'object' ? (raw as { [FROM_WORKSPACE]?: unknown })[FROM_WORKSPACE] : undefined;
  return scopeSettings(raw, Array.isArray(from) ? from : []);
}

/** The settings as the server's modules and the citation service read them. */
export class ServerSettings implements WorkspaceChangeListener {
  /** Settings pushed with `workspace/didChangeConfiguration`, for clients that cannot be asked. */
  private pushed: ScopeSettings = parse({});
  private readonly cache = new Map<string, Promise<ScopeSettings>>();

  constructor(private readonly ctx: ServerContext) {}

  /**
   * The settings in `scope` (a document's, for its folder's values of resource-scoped settings), or
   * the window's, with the client's display language beside them (`InitializeParams.locale`, a
   * value of this server's context: no state of the process).
   */
  async scope(scope?: URI): Promise<ScopeSettings> {
    const id = scope?.toString() ?? '';
    let s = this.cache.get(id);
    if (!s) {
      s = this.ctx.can.pullConfig
        ? this.ctx.connection.workspace.getConfiguration({ scopeUri: scope?.toString(), section: 'mlsysPapers' })
          .then((v: unknown) => parse(v), (e: unknown) => { this.ctx.log.warn(`settings: ${String(e)}`); return parse({}); })
        : Promise.resolve(this.pushed);
      this.cache.set(id, s);
    }
    const read = await s;
    return this.ctx.locale === undefined ? read : { ...read, language: this.ctx.locale };
  }

  /** The size cap in bytes (`mlsysPapers.maxFileSizeMB`, the user's or the window's). */
  async maxBytes(): Promise<number> {
    return maxFileBytes((await this.scope()).settings.maxFileSizeMB);
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

