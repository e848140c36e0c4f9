/**
 * The one context every feature registers with (`register…(ctx)`), as rust-analyzer's
 * `editors/code` passes its `Ctx`: the log, the settings, the server's typed API and the client
 * state the features share (the corpus mirror, the read state, the entry picker, the bibliography
 * planner). Built once per activation, before any feature; a feature owns only what its
 * `register…` returns.
 */
import * as vscode from 'vscode';
import { configureL10n } from '../../core/text/l10n.js';
import { entryLink } from '../../core/corpus/links.js';
import { Bibliographies } from '../bibliography.js';
import { copyBibtex } from '../clipboard.js';
import { ConfigStore } from '../config.js';
import { CorpusClient } from '../corpusClient.js';
import { EntryPicker } from '../entryPicker.js';
import { NoteIndex } from '../noteIndex.js';
import { openLink } from '../openLink.js';
import { ReadState } from '../readState.js';
import { createLanguageClient, startLanguageClient, type ClientFactory } from './languageClient.js';
import { createServerApi, type ServerApi } from './serverApi.js';

/** Creates the "MLSys Papers" log output channel. */
function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('MLSys Papers', { log: true });
}

/** What a feature may use; every member lives as long as the extension is active. */
export interface Ctx {
  /** The "MLSys Papers" log channel (the server's lines go there too). */
  readonly log: vscode.LogOutputChannel;
  /** The window's settings, typed. */
  readonly config: ConfigStore;
  /** The language server's custom requests and notifications; the only way a feature talks to it. */
  readonly server: ServerApi;
  /** The server's corpus mirrored, and the library entries and status the client was shown. */
  readonly corpus: CorpusClient;
  /** Which entries the user has read. */
  readonly read: ReadState;
  /** The search as a quick pick, for every command that needs entries. */
  readonly picker: EntryPicker;
  /** Applies the server's citation and bibliography plans. */
  readonly bibs: Bibliographies;
  /** Which entries have a literature note. */
  readonly notes: NoteIndex;
}

/**
 * Builds the context: creates the log and the settings, starts the language client of this host's
 * transport (not awaited: requests wait for it), and keeps the server told of the read state.
 * Everything it creates is disposed with `context`.
 *
 * @param makeClient - the language client of this host's transport (see `languageClient.ts`)
 */
export function createCtx(context: vscode.ExtensionContext, makeClient: ClientFactory): Ctx {
  const log = createLog();
  context.subscriptions.push(log);
  const config = new ConfigStore(vscode.env.language);
  // The core's own texts (details page, tooltips) in VS Code's display language, from the same bundle.
  configureL10n(vscode.l10n.bundle);
  const read = new ReadState(context.globalState);
  // Loaded libraries are cached in the extension's global storage where that is a local folder (desktop).
  const storage = context.globalStorageUri;
  const client = createLanguageClient(log, makeClient, storage?.scheme === 'file' ? vscode.Uri.joinPath(storage, 'libraries').fsPath : undefined);
  startLanguageClient(client, log);
  const server = createServerApi(client);
  const corpus = new CorpusClient(server, log);
  const picker = new EntryPicker(corpus, { copyBibtex: (es) => copyBibtex(corpus, es), openPaper: (e) => openLink(entryLink(e), 'paper', e) }, config);
  const bibs = new Bibliographies(server, log);
  const notes = new NoteIndex(config, read, log);
  const sendReadState = () => void server.sendReadState({ keys: read.all() });
  sendReadState();
  context.subscriptions.push(
    client,
    config,
    corpus,
    read,
    read.onDidChange(sendReadState),
    notes,
  );
  return { log, config, server, corpus, read, picker, bibs, notes };
}
