/**
 * The language server in a Web Worker (the browser build: vscode.dev, github.dev, code-server's
 * web worker extension host). It reaches no file itself: every workspace file comes from the
 * client (`mlsysPapers/readFile`, answered through `vscode.workspace.fs`), and so do the
 * extension's own files: the compiled corpus with `initialize` (`initializationOptions.bundledCorpus`)
 * and the CSL styles and locales when first needed (`mlsysPapers/readBundled`). The package holds
 * one copy of each, which the Node server reads from disk. The client stats before it reads: only a
 * regular file within `mlsysPapers.maxFileSizeMB` (the cap travels in the request) is read, and the
 * server holds an older client's answer to the cap too. With no real paths here, "inside the
 * workspace" and "is this a library" compare normalised URIs (`.`, `..`, doubled separators).
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import type { CorpusData } from '../../core/corpus/readCorpus.js';
import { startServer, type ServerHost } from '../../server/server.js';

/** The Web Worker host: no file access of its own (the client is asked), no home folder. */
export const browserServerHost: ServerHost = {
  bundledCorpus(client) {
    if (client.corpus === undefined) throw new Error('MLSys Papers: the client sent no bundled corpus (initializationOptions.bundledCorpus)');
    return JSON.parse(client.corpus) as CorpusData;
  },
  bundledCsl: (path, client) => client.read(`csl/${path}`),
  loadCsl: () => import('../../core/cite/citeproc.js'),
};

/** The worker's global scope, as `BrowserMessageReader`/`Writer` take it (no DOM types here). */
type WorkerScope = ConstructorParameters<typeof BrowserMessageReader>[0];

/** Starts the server on the worker's messages. */
export function runBrowserServer(scope: WorkerScope = globalThis as unknown as WorkerScope): void {
  const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
  startServer(connection, browserServerHost);
}
