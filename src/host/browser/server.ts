/**
 * The language server in a Web Worker (the browser build: vscode.dev, github.dev, code-server's
 * web worker extension host). It reaches no file itself: every workspace file comes from the
 * client (`mlsysPapers/readFile`, answered through `vscode.workspace.fs`), and the bundled corpus,
 * CSL styles and locales are part of this script (the build embeds them), so nothing is fetched.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import corpus from 'bundled:corpus';
import acm from '../../../csl/styles/acm-sig-proceedings.csl';
import apa from '../../../csl/styles/apa.csl';
import chicago from '../../../csl/styles/chicago-author-date.csl';
import gbt from '../../../csl/styles/china-national-standard-gb-t-7714-2015-numeric.csl';
import ieee from '../../../csl/styles/ieee.csl';
import enUS from '../../../csl/locales/locales-en-US.xml';
import zhCN from '../../../csl/locales/locales-zh-CN.xml';
import { startServer, type ServerHost } from '../../server/server.js';

/** Every bundled CSL file by its path under `csl/` (the Node host reads the same paths from disk). */
export const BUNDLED_CSL: Readonly<Record<string, string>> = {
  'styles/acm-sig-proceedings.csl': acm,
  'styles/apa.csl': apa,
  'styles/chicago-author-date.csl': chicago,
  'styles/china-national-standard-gb-t-7714-2015-numeric.csl': gbt,
  'styles/ieee.csl': ieee,
  'locales/locales-en-US.xml': enUS,
  'locales/locales-zh-CN.xml': zhCN,
};

/** The Web Worker host: no file access of its own (the client is asked), no home folder. */
export const browserServerHost: ServerHost = {
  bundledCorpus: () => corpus,
  bundledCsl: (path) => BUNDLED_CSL[path],
  loadCsl: () => import('../../core/cite/csl.js'),
};

/** The worker's global scope, as `BrowserMessageReader`/`Writer` take it (no DOM types here). */
type WorkerScope = ConstructorParameters<typeof BrowserMessageReader>[0];

/** Starts the server on the worker's messages. */
export function runBrowserServer(scope: WorkerScope = globalThis as unknown as WorkerScope): void {
  const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
  startServer(connection, browserServerHost);
}
