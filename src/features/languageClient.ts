/**
 * The thin client of the MLSys Papers language server (`src/server/`): completion, hover, go to
 * definition, diagnostics and quick fixes come from the server through `vscode-languageclient`;
 * this file starts it, answers its file-system requests through `vscode.workspace.fs`, and tells
 * it which settings come from a workspace (files they name are read only inside the workspace).
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../core/context.js';
import { Commands, Settings } from '../ids.js';
import { FROM_WORKSPACE, Methods, type FindFilesParams, type InitializationOptions, type ReadFileParams, type ReadFileResult } from '../server/protocol.js';

/** The settings that name files: when a workspace sets them, the server reads only inside the workspace. */
const FILE_SETTINGS = [Settings.corpusFiles, Settings.citationStyle, Settings.latexRoot] as const;

/** Every document the server reads: citing documents, and bibliographies (to plan on their open text). */
export const SERVER_SELECTOR = [
  ...[...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES, 'bibtex'].map((language) => ({ language })),
  { pattern: '**/*.{bib,json,yaml,yml}' },
];

/** The keys of `mlsysPapers.*` whose value a workspace (folder) sets, in a resource's scope. */
function workspaceSet(scope: vscode.Uri | undefined): string[] {
  const conf = vscode.workspace.getConfiguration(Settings.section, scope);
  return FILE_SETTINGS.filter((k) => {
    const i = conf.inspect(k);
    return i?.workspaceFolderValue !== undefined || i?.workspaceValue !== undefined;
  });
}

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
  const bytes = await vscode.workspace.fs.readFile(uri);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), mtime: st.mtime, size: st.size };
  } catch {
    return { notUtf8: true, mtime: st.mtime, size: st.size };
  }
}

/**
 * Starts the language server (a Node process over IPC: `dist/server.js`) and its client.
 *
 * @param log - where the server's log lines go (the "MLSys Papers" channel)
 * @returns the running client; dispose it to stop the server
 */
export async function startLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<LanguageClient> {
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
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value: unknown, i) => {
            const item = params.items[i];
            if (item?.section !== Settings.section || !value || typeof value !== 'object') return value;
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri, true) : undefined;
            return { ...value, [FROM_WORKSPACE]: workspaceSet(scope) };
          });
        },
      },
    },
    synchronize: { configurationSection: undefined },
  };
  const client = new LanguageClient('mlsysPapers', 'MLSys Papers', server, options);
  client.onRequest(Methods.findFiles, async (p: FindFilesParams) => (await vscode.workspace.findFiles(p.pattern)).map((u) => u.toString()));
  client.onRequest(Methods.readFile, readFile);
  await client.start();
  // Settings are pulled (`workspace/configuration`); a change of ours tells the server to pull again.
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(Settings.section)) void client.sendNotification('workspace/didChangeConfiguration', { settings: null });
  }));
  return client;
}
