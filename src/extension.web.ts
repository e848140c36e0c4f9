/**
 * The browser entry point (`browser` in package.json: vscode.dev, github.dev, the web worker
 * extension host of code-server and Codespaces): the language server runs in a Web Worker
 * (`dist/web/server.js`) and reads the workspace's files through this client
 * (`vscode.workspace.fs`).
 */
import * as vscode from 'vscode';
import { BaseLanguageClient, BrowserMessageReader, BrowserMessageWriter, type LanguageClientOptions, type MessageTransports } from 'vscode-languageclient/browser';
import { activateWith, type ExtensionApi } from './activate.js';
import { CLIENT_ID, CLIENT_NAME } from './features/client/languageClient.js';
import { decodeUtf8 } from './core/text/utf8.js';
import { BUNDLED_PATH, ServerRequests, type InitializationOptions, type ReadBundledResult } from './server/protocol.js';

/** A dedicated worker as `BrowserMessageReader`/`Writer` use it (this project's TypeScript settings have no DOM types). */
type WorkerPort = ConstructorParameters<typeof BrowserMessageReader>[0] & { terminate(): void };
/** The Web Worker constructor of the web extension host. */
declare const Worker: new (url: string, options?: { name?: string }) => WorkerPort;

const WORKER_NAME = 'MLSys Papers language server';

/**
 * Starts the server's worker from its script. VS Code's web worker extension host starts workers
 * of extensions served over http(s) (vscode.dev), but refuses those of an extension installed on a
 * remote, such as code-server's ("Creating workers from remote extensions is currently not
 * supported", `extensionHostWorker.ts`): then the script is read through `vscode.workspace.fs` and
 * started from a `blob:` URL, which that host allows.
 *
 * @throws when neither way can start it (the client reports that the server did not start)
 */
async function startWorker(script: vscode.Uri, log: (message: string) => void): Promise<WorkerPort> {
  try {
    return new Worker(script.toString(true), { name: WORKER_NAME });
  } catch (e) {
    log(`the server's worker cannot start from ${script.toString(true)} (${e instanceof Error ? e.message : String(e)}); starting it from the script's text`);
  }
  const bytes = await vscode.workspace.fs.readFile(script);
  return new Worker(URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' })), { name: WORKER_NAME });
}

/**
 * A file of the extension's package as text: through `vscode.workspace.fs` (an extension installed
 * on a remote, as in code-server), else fetched (an extension served over http(s), as in vscode.dev).
 *
 * @returns the text, or undefined when neither way has the file
 */
async function readPackageFile(uri: vscode.Uri, log: (message: string) => void): Promise<string | undefined> {
  try {
    return decodeUtf8(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (uri.scheme !== 'http' && uri.scheme !== 'https') {
      log(`cannot read ${uri.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }
  try {
    const r = await fetch(uri.toString(true));
    if (r.ok) return await r.text();
    log(`cannot fetch ${uri.toString(true)}: HTTP ${r.status}`);
  } catch (e) {
    log(`cannot fetch ${uri.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return undefined;
}

/**
 * The language client of a server in a Web Worker, started when the client starts and ended with
 * it. The worker has no file access: this client gives it the package's corpus with `initialize`
 * and its CSL files on request (`mlsysPapers/readBundled`).
 */
class WorkerLanguageClient extends BaseLanguageClient {
  private worker: WorkerPort | undefined;

  constructor(private readonly options: LanguageClientOptions, private readonly root: vscode.Uri) {
    super(CLIENT_ID, CLIENT_NAME, options);
    const log = (m: string) => this.warn(m);
    this.onRequest(ServerRequests.readBundled, async (p): Promise<ReadBundledResult> => {
      const text = BUNDLED_PATH.test(p.path) ? await readPackageFile(vscode.Uri.joinPath(root, p.path), log) : undefined;
      return text === undefined ? { missing: true } : { text };
    });
  }

  protected async createMessageTransports(): Promise<MessageTransports> {
    this.worker?.terminate();
    // Read before the worker starts: `initialize`, sent once the transports exist, carries it.
    const corpus = await readPackageFile(vscode.Uri.joinPath(this.root, 'dist', 'corpus.json'), (m) => this.warn(m));
    const init = this.options.initializationOptions as InitializationOptions;
    Object.assign(init, { bundledFiles: true, ...(corpus === undefined ? {} : { bundledCorpus: corpus }) } satisfies InitializationOptions);
    const worker = (this.worker = await startWorker(vscode.Uri.joinPath(this.root, 'dist', 'web', 'server.js'), (m) => this.info(m)));
    return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) };
  }

  override async dispose(timeout?: number): Promise<void> {
    try {
      await super.dispose(timeout);
    } finally {
      this.worker?.terminate();
      this.worker = undefined;
    }
  }
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  return activateWith(context, (options) => new WorkerLanguageClient(options, context.extensionUri));
}

export function deactivate(): void {}
