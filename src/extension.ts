/**
 * The desktop entry point (`main` in package.json): the language server runs in a Node process
 * (`dist/server.js`), spoken to over IPC.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { activateWith, type ExtensionApi } from './activate.js';
import { CLIENT_ID, CLIENT_NAME } from './features/client/languageClient.js';

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  const server: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  return activateWith(context, (options) => new LanguageClient(CLIENT_ID, CLIENT_NAME, server, options));
}

export function deactivate(): void {}
