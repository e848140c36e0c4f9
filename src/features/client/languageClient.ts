/**
 * The thin client of the MLSys Papers language server (`src/server/`): completion, hover, go to
 * definition, diagnostics and quick fixes come from the server through `vscode-languageclient`;
 * this file configures and starts it, answers its file-system requests (find, read, stat)
 * through `vscode.workspace.fs`, and tells it which settings come from a workspace (files they
 * name are read only inside the workspace). Where the server runs is the entry point's choice: a Node process on desktop
 * (`src/extension.ts`), a Web Worker in the browser (`src/extension.web.ts`).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import { BIBTEX_LANGUAGE, fileKind, isBibliography, isCiting, LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../../core/workspace/fileKind.js';
import { maxFileBytes } from '../../core/config/fileLimits.js';
import { decodeForReading } from '../../core/text/utf8.js';
import { Commands, Settings } from '../../ids.js';
import { FILE_SETTINGS, fromWorkspaceSettings } from '../config.js';
import { FROM_WORKSPACE, ServerRequests, type InitializationOptions, type ReadFileParams, type ReadFileResult, type StatParams, type StatResult } from '../../server/protocol.js';

/**
 * Every document the server reads: citing documents, and bibliographies (CSL-JSON and CSL-YAML
 * too, so that an addition is planned on their unsaved text). Completion and definition are asked
 * of citing documents only (see the middleware); hover, checks and quick fixes of bibliographies
 * too (duplicate keys, how often an entry is cited, unused entries), and rename, find all
 * citations and the code lenses of both. A JSON or YAML file that is no bibliography a document
 * reads gets none of these from the server.
 */
export const SERVER_SELECTOR = [
  ...[...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES, BIBTEX_LANGUAGE].map((language) => ({ language })),
  { pattern: '**/*.{bib,json,yaml,yml}' },
];

/** Whether the server has answers for a document: a citing language (LaTeX, Markdown). */
const kindOf = (doc: vscode.TextDocument) => fileKind(doc.uri.path, doc.languageId);
const citing = (doc: vscode.TextDocument) => isCiting(kindOf(doc));
/** A citing document or a bibliography file (`.bib`, CSL-JSON, CSL-YAML). */
const served = (doc: vscode.TextDocument) => { const kind = kindOf(doc); return isCiting(kind) || isBibliography(kind); };


/**
 * A file's metadata, or undefined when it is not there. Any other failure (no permission, an
 * unavailable provider) is thrown back to the server, which logs its cause and treats the file
 * as missing too, so what the server sees is the same.
 */
async function statOf(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'FileNotFound' || code === 'FileNotADirectory') return undefined;
    throw e;
  }
}

/**
 * Answers `mlsysPapers/readFile`: the file's text and stamp. Stat first (`vscode.workspace.fs.stat`
 * follows symlinks): only a regular file within the size cap is read; a device or a FIFO behind a
 * `refs.bib` link (`FileType.Unknown`) would never end or never answer.
 */
async function readFile(p: ReadFileParams): Promise<ReadFileResult> {
  const uri = vscode.Uri.parse(p.uri, true);
  const st = await statOf(uri);
  if (!st) return { missing: true };
  const at = { mtime: st.mtime, size: st.size };
  if (st.type & vscode.FileType.Directory) return { directory: true, ...at };
  if (!(st.type & vscode.FileType.File)) return { notFile: true, ...at };
  const max = typeof p.maxBytes === 'number' ? p.maxBytes : maxFileBytes(vscode.workspace.getConfiguration(Settings.section).get(Settings.maxFileSizeMB));
  if (st.size > max) return { tooLarge: true, ...at };
  const bytes = await vscode.workspace.fs.readFile(uri);
  // It grew past the cap between the stat and the read.
  if (bytes.length > max) return { tooLarge: true, ...at, size: bytes.length };
  const { text, utf8 } = decodeForReading(bytes);
  return utf8 ? { text, ...at } : { notUtf8: true, legacyText: text, ...at };
}

/** Answers `mlsysPapers/stat`: the file's stamp only (the server asks on every request; nothing is read). */
async function stat(p: StatParams): Promise<StatResult> {
  const st = await statOf(vscode.Uri.parse(p.uri, true));
  if (!st) return { missing: true };
  const at = { mtime: st.mtime, size: st.size };
  if (st.type & vscode.FileType.Directory) return { directory: true, ...at };
  return st.type & vscode.FileType.File ? at : { notFile: true, ...at };
}

/** The client's id and name (the log channel's name) as `vscode-languageclient` wants them. */
export const CLIENT_ID = 'mlsysPapers';
export const CLIENT_NAME = 'MLSys Papers';

/** Makes the client of a transport from the options every transport shares. */
export type ClientFactory = (options: LanguageClientOptions) => BaseLanguageClient;

/**
 * The client of the language server, not started: requests sent before `start()` settles wait
 * for it, so activation does not.
 *
 * @param log - where the server's log lines go (the "MLSys Papers" channel)
 * @param make - builds the client for this host's transport from the shared options
 * @param cacheDir - where the server may cache loaded libraries (a local path), if anywhere; the
 *   server also gets VS Code's display-language bundle, so that its hovers and diagnostics speak
 *   the user's language (and the client's `locale`, which `auto` topic labels follow)
 * @returns the client; dispose it to stop the server
 */
export function createLanguageClient(log: vscode.LogOutputChannel, make: ClientFactory, cacheDir: string | undefined): BaseLanguageClient {
  const initializationOptions: InitializationOptions = {
    fileSystem: true, clientCommands: true, ...(cacheDir ? { cacheDir } : {}),
    ...(vscode.l10n.bundle ? { l10n: { bundle: vscode.l10n.bundle } } : {}),
  };
  const options: LanguageClientOptions = {
    documentSelector: SERVER_SELECTOR,
    initializationOptions,
    outputChannel: log,
    // Hovers carry one command link (Show Details); every other text in them is escaped.
    markdown: { isTrusted: { enabledCommands: [Commands.showDetails] } },
    // Bibliographies are checked too (duplicate keys, unused entries); the server answers nothing for a JSON or YAML file no document reads.
    diagnosticPullOptions: { filter: (doc) => !served(doc) },
    middleware: {
      provideCompletionItem: (doc, pos, ctx, token, next) => (citing(doc) ? next(doc, pos, ctx, token) : undefined),
      provideHover: (doc, pos, token, next) => (served(doc) ? next(doc, pos, token) : undefined),
      provideDefinition: (doc, pos, token, next) => (citing(doc) ? next(doc, pos, token) : undefined),
      provideCodeActions: (doc, range, ctx, token, next) => (served(doc) ? next(doc, range, ctx, token) : undefined),
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
  const client = make(options);
  client.onRequest(ServerRequests.findFiles, async (p) => (await vscode.workspace.findFiles(p.pattern)).map((u) => u.toString()));
  client.onRequest(ServerRequests.readFile, readFile);
  client.onRequest(ServerRequests.stat, stat);
  return client;
}

/**
 * Starts the client without waiting for it: the views and commands ask the server, and their
 * requests wait for it. A server that does not start is logged and told to the user once.
 */
export function startLanguageClient(client: BaseLanguageClient, log: vscode.LogOutputChannel): void {
  client.start().catch((e: unknown) => {
    log.error(e instanceof Error ? e : String(e));
    void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: the language server did not start ({0}); see the MLSys Papers log.', e instanceof Error ? e.message : String(e)));
  });
}
