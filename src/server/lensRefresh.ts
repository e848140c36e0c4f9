/**
 * An open bibliography's code lenses ("cited 3 times") follow its readers' citations: after a
 * change of a citing document while a bibliography is open, one `workspace/codeLens/refresh` (LSP
 * 3.17) per pause in the changes, for a client that supports it.
 */
import { CodeLensRefreshRequest } from 'vscode-languageserver';
import { isBibliography } from '../core/workspace/fileKind.js';
import type { ServerContext } from './serverContext.js';
import type { WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/** The pause after a change of a citing document before an open bibliography's code lenses are asked for again, in ms. */
export const LENS_REFRESH_MS = 500;

/** Asks the client for the code lenses again when their readers' citations may have changed. */
export class LensRefresh implements WorkspaceChangeListener {
  private readonly refresh: () => void;

  /** @param bibliographyOpen - whether a bibliography is open now */
  constructor(private readonly ctx: ServerContext, private readonly bibliographyOpen: () => boolean) {
    this.refresh = ctx.debounce(LENS_REFRESH_MS, () => {
      ctx.tell(() => ctx.connection.sendRequest(CodeLensRefreshRequest.type).catch((e: unknown) => ctx.log.warn(`code lens refresh: ${String(e)}`)));
    });
  }

  workspaceChanged(change: WorkspaceChange): void {
    if (!this.ctx.can.lensRefresh) return;
    if (change.files.some((f) => f.document && f.how !== 'closed' && !isBibliography(f.kind)) && this.bibliographyOpen()) this.refresh();
  }
}
