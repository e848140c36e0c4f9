/**
 * The browser entry point (`browser` in package.json: vscode.dev, github.dev, the web worker
 * extension host of code-server and Codespaces): the language server runs in a Web Worker
 * (`dist/web/server.js`) and reads the workspace's files through this client
 * (`vscode.workspace.fs`).
 */
import * as vscode from 'vscode';
import { BaseLanguageClient, BrowserMessageReader, BrowserMessageWriter, type LanguageClientOptions, type MessageTransports } from 'vscode-languageclient/browser';
import { activateWith } from './activate.js';
import { CLIENT_ID, CLIENT_NAME } from './features/languageClient.js';

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

/** The language client of a server in a Web Worker, started when the client starts and ended with it. */
class WorkerLanguageClient extends BaseLanguageClient {
  private worker: WorkerPort | undefined;

  constructor(options: LanguageClientOptions, private readonly script: vscode.Uri) {
    super(CLIENT_ID, CLIENT_NAME, options);
  }

  protected async createMessageTransports(): Promise<MessageTransports> {
    this.worker?.terminate();
    const worker = (this.worker = await startWorker(this.script, (m) => this.info(m)));
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

export function activate(context: vscode.ExtensionContext): void {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  activateWith(context, (options) => new WorkerLanguageClient(options, script));
}

export function deactivate(): void {}
