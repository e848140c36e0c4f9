/**
 * What the citation scope (`core/service/citationScope.ts`) needs from the server: the
 * workspace's citing files (LaTeX and Markdown, open or not) once the LaTeX project is indexed, and
 * the project's graph. The listing is kept until something may have changed it (a watched file
 * event, the folders, a document opened or closed); a client that does not watch files gets a
 * listing per request.
 */
import { URI } from 'vscode-uri';
import { LATEX_FILE_LIMIT } from '../core/latex/indexing.js';
import type { ScopeHost, ScopeLink } from '../core/service/citationScope.js';
import { fileKind, isCiting } from '../core/workspace/fileKind.js';
import type { LatexProjectIndexer } from './latexIndexer.js';
import type { ServerContext } from './serverContext.js';
import type { ServerWorkspace } from './serverWorkspace.js';
import type { WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/** The names of the files a citation may be in (`fileKind`'s LaTeX and Markdown names). */
export const CITING_EXTENSIONS = ['.tex', '.ltx', '.latex', '.md', '.markdown', '.rmd', '.qmd'];

/** The server's {@link ScopeHost}. */
export class ServerScopeHost implements ScopeHost, WorkspaceChangeListener {
  private listing?: Promise<{ uris: URI[]; complete: boolean }>;

  constructor(private readonly ctx: ServerContext, private readonly workspace: ServerWorkspace, private readonly latex: LatexProjectIndexer) {}

  /**
   * The workspace's files may have changed (the folders, a document opened or closed, a file created
   * or deleted; a file changed on disk is read again by its stamp, so the listing stays): the next
   * request lists them again.
   */
  workspaceChanged(change: WorkspaceChange): void {
    if (change.folders || change.files.some((f) => f.how !== 'changed' && f.how !== 'edited')) this.listing = undefined;
  }

  async citingFiles(): Promise<{ uris: URI[]; complete: boolean }> {
    await this.latex.indexed;
    const listing = this.ctx.can.watch ? (this.listing ??= this.list()) : this.list();
    const { uris, complete } = await listing;
    const seen = new Set(uris.map((u) => u.toString()));
    const open = this.workspace.documents.all()
      .filter((d) => !seen.has(d.uri) && isCiting(fileKind(URI.parse(d.uri), d.languageId)))
      .map((d) => URI.parse(d.uri));
    return { uris: [...uris, ...open], complete };
  }

  filesOf(root: URI): URI[] {
    return this.latex.project.filesOf(root);
  }

  unresolvedOf(root: URI): ScopeLink[] {
    return this.latex.project.unresolvedOf(root);
  }

  private async list(): Promise<{ uris: URI[]; complete: boolean }> {
    try {
      const uris = await this.ctx.files.listFiles(this.ctx.folders, CITING_EXTENSIONS, LATEX_FILE_LIMIT + 1);
      return { uris: uris.slice(0, LATEX_FILE_LIMIT), complete: uris.length <= LATEX_FILE_LIMIT };
    } catch (e) {
      this.ctx.log.warn(`listing the citing files: ${e instanceof Error ? e.message : String(e)}`);
      return { uris: [], complete: false };
    }
  }
}
