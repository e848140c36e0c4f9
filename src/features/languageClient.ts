/**
 * The thin client of the MLSys Papers language server (`src/server/`): completion, hover, go to
 * definition, diagnostics and quick fixes come from the server through `vscode-languageclient`;
 * this file starts it, answers its file-system requests through `vscode.workspace.fs`, and tells
 * it which settings come from a workspace (files they name are read only inside the workspace).
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { isCitingLanguage, LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../core/context.js';
import { decodeUtf8 } from '../core/utf8.js';
import { Commands, Settings } from '../ids.js';
import { FILE_SETTINGS, fromWorkspaceSettings } from './config.js';
import { FROM_WORKSPACE, Methods, type FindFilesParams, type InitializationOptions, type ReadFileParams, type ReadFileResult } from '../server/protocol.js';

/**
 * Every document the server reads: citing documents, and bibliographies (CSL-JSON and CSL-YAML
 * too, so that an addition is planned on their unsaved text). Only citing documents are asked
 * about (see the middleware), and `.bib` files for their duplicate keys.
 */
export const SERVER_SELECTOR = [
  ...[...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES, 'bibtex'].map((language) => ({ language })),
  { pattern: '**/*.{bib,json,yaml,yml}' },
];

/** Whether the server has answers for a document: a citing language (LaTeX, Markdown). */
const citing = (doc: vscode.TextDocument) => isCitingLanguage(doc.languageId);

async function readFile(p: ReadFileParams): Promise<ReadFileResult> {
  const uri = vscode.Uri.parse(p.uri, true);
  let st: vscode.FileStat;
  try {
    st = await vscode.workspace.fs.stat(uri);
  } catch {
    // Not there: the server treats the file as missing.
    return { missing: true };
  }
  if (st.type & vscode.FileType.Directory) return { directory: true, mtime: st.mtime, size: st.size };
  const text = decodeUtf8(await vscode.workspace.fs.readFile(uri));
  return text === undefined ? { notUtf8: true, mtime: st.mtime, size: st.size } : { text, mtime: st.mtime, size: st.size };
}

/**
 * The client of the language server (a Node process over IPC: `dist/server.js`), not started:
 * requests sent before `start()` settles wait for it, so activation does not.
 *
 * @param log - where the server's log lines go (the "MLSys Papers" channel)
 * @returns the client; dispose it to stop the server
 */
export function createLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LanguageClient {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  const server: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const initializationOptions: InitializationOptions = { fileSystem: true, clientCommands: true };
  const options: LanguageClientOptions = {
    documentSelector: SERVER_SELECTOR,
    initializationOptions,
    outputChannel: log,
    // Hovers carry one command link (Show Details); every other text in them is escaped.
    markdown: { isTrusted: { enabledCommands: [Commands.showDetails] } },
    // A JSON or YAML file is synced only for its text: no completion, hover or checks on it.
    diagnosticPullOptions: { filter: (doc) => !citing(doc) && doc.languageId !== 'bibtex' && !/\.bib$/i.test(doc.uri.path) },
    middleware: {
      provideCompletionItem: (doc, pos, ctx, token, next) => (citing(doc) ? next(doc, pos, ctx, token) : undefined),
      provideHover: (doc, pos, token, next) => (citing(doc) ? next(doc, pos, token) : undefined),
      provideDefinition: (doc, pos, token, next) => (citing(doc) ? next(doc, pos, token) : undefined),
      provideCodeActions: (doc, range, ctx, token, next) => (citing(doc) ? next(doc, range, ctx, token) : undefined),
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value: unknown, i) => {
            const item = params.items[i];
            if (item?.section !== Settings.section || !value || typeof value !== 'object') return value;
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri, true) : undefined;
            return { ...value, [FROM_WORKSPACE]: FILE_SETTINGS.filter((k) => fromWorkspaceSettings(k, scope)) };
          });
        },
      },
    },
    // A change of our settings tells the server to pull them again (`workspace/configuration`).
    synchronize: { configurationSection: Settings.section },
  };
  const client = new LanguageClient('mlsysPapers', 'MLSys Papers', server, options);
  client.onRequest(Methods.findFiles, async (p: FindFilesParams) => (await vscode.workspace.findFiles(p.pattern)).map((u) => u.toString()));
  client.onRequest(Methods.readFile, readFile);
  return client;
}
