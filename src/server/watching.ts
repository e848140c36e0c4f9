/**
 * What the client watches for the server (`workspace/didChangeWatchedFiles`, registered
 * dynamically): the workspace folders' bibliographies (`.bbl` files too), corpus files and LaTeX sources with one
 * glob, and each library or corpus file outside them (a Better BibTeX auto-export in ~/Zotero, a
 * bibliography a document names by its absolute path) with a relative pattern on its folder (LSP
 * 3.17 `relativePatternSupport`), registered again whenever the set of such files changes.
 */
import { DidChangeWatchedFilesNotification, type Disposable, type FileSystemWatcher } from 'vscode-languageserver';
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from '../core/workspace/files.js';
import { inWorkspace } from '../core/workspace/paths.js';
import type { ServerContext } from './serverContext.js';

/** The workspace watcher's glob: every file whose change may change an answer (citing files too: who reads a bibliography). */
export const WORKSPACE_GLOB = '**/*.{bib,bbl,json,yaml,yml,tex,ltx,latex,md,markdown,rmd,Rmd,qmd}';

/** The files outside the workspace folders the server reads, and the client's watchers on them. */
export class Watching {
  private readonly files: { corpus: URI[]; libraries: URI[] } = { corpus: [], libraries: [] };
  private outsideKey = '';
  private outsideRegistration: Promise<Disposable | undefined> = Promise.resolve(undefined);

  /**
   * @param watched - the client's watchers on these files outside the workspace are in place: a
   *   change written before they were (after the file was read) came with no event, so the caller
   *   compares each file with what it read
   */
  constructor(private readonly ctx: ServerContext, private readonly workspace: WorkspaceFiles, private readonly watched: (uris: URI[]) => void = () => undefined) {}

  /** Registers the workspace watcher ({@link WORKSPACE_GLOB}), once initialized. */
  watchWorkspace(): void {
    if (!this.ctx.can.watch) return;
    void this.ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WORKSPACE_GLOB }] })
      .catch((e: unknown) => this.ctx.log.warn(`cannot watch files: ${String(e)}`));
  }

  /** The files of one kind the server now reads; those outside the workspace folders get watchers of their own. */
  set(kind: 'corpus' | 'libraries', uris: URI[]): void {
    this.files[kind] = uris;
    this.watchOutside();
  }

  private watchOutside(): void {
    const { ctx } = this;
    if (!ctx.can.watch) return;
    const outside = new Map<string, URI>();
    for (const u of [...this.files.corpus, ...this.files.libraries]) if (!inWorkspace(this.workspace, u)) outside.set(u.toString(), u);
    const key = [...outside.keys()].sort().join('\n');
    if (key === this.outsideKey) return;
    this.outsideKey = key;
    if (outside.size && !ctx.can.watchOutside) {
      ctx.log.warn(`this client cannot watch files outside the workspace (no relativePatternSupport); ${[...outside.values()].map((u) => u.toString(true)).join(', ')} will be read again only when the settings change or the window reloads`);
      return;
    }
    const watchers: FileSystemWatcher[] = [...outside.values()].map((u) => ({ globPattern: { baseUri: Utils.dirname(u).toString(), pattern: Utils.basename(u).replace(/[*?[{}]/g, '[$&]') } }));
    this.outsideRegistration = this.outsideRegistration.then(async (previous) => {
      previous?.dispose();
      if (!watchers.length || ctx.closed) return undefined;
      const registration = await ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers })
        .catch((e: unknown) => { ctx.log.warn(`cannot watch files outside the workspace: ${String(e)}`); return undefined; });
      if (registration) this.watched([...outside.values()]);
      return registration;
    });
  }
}
