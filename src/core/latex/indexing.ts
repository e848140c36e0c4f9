/**
 * Reading a workspace's `.tex` files into a LaTeX project (`project.ts`), each once, in slices, for
 * the server's indexer (`server/latexIndexer.ts`) and the CLI's project (`host/node/`).
 *
 * Pure: no `node:`, no `vscode`; the host reads the files.
 */
import type { URI } from 'vscode-uri';
import type { LatexProject } from './project.js';

/** At most this many `.tex` files are indexed (a workspace that is a whole file system is not read whole). */
export const LATEX_FILE_LIMIT = 20000;

/** What {@link indexLatexFiles} needs from its host. */
export interface LatexIndexHost {
  /** A file's text (an open document's first); undefined when it cannot be read. */
  read(uri: URI): Promise<string | undefined>;
  /** Whether to pause now (a slice's time is up); default never. */
  shouldYield?(): boolean;
  /** Pauses, letting the host answer other requests. */
  yield?(): Promise<void>;
  /** Told after each pause and at the end: files done of total. */
  progress?(done: number, total: number): void;
  /** Stops the indexing when true (a newer one started). */
  cancelled?(): boolean;
}

/**
 * Reads files into a project, each once, in slices: between slices the host answers other requests.
 *
 * @param uris - the `.tex` files to index (the workspace's listing)
 * @returns how many files were read, or -1 when cancelled
 */
export async function indexLatexFiles(project: LatexProject, uris: readonly URI[], host: LatexIndexHost): Promise<number> {
  let done = 0;
  for (const uri of uris) {
    if (host.cancelled?.()) return -1;
    const text = await host.read(uri);
    if (text !== undefined) project.set(uri, text);
    done++;
    if (host.shouldYield?.()) {
      host.progress?.(done, uris.length);
      await host.yield?.();
    }
  }
  host.progress?.(done, uris.length);
  return done;
}
