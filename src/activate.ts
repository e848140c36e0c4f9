/**
 * MLSys Papers: activation is a table of contents; each feature returns the `Disposable` it owns.
 * Citation features (completion, hover, definition, diagnostics, quick fixes) come from the
 * language server (`src/server/`) through its client; the views and commands here ask it. The
 * same activation serves desktop (`extension.ts`, the server in a Node process) and the browser
 * (`extension.web.ts`, the server in a Web Worker).
 */
import * as vscode from 'vscode';
import { Bibliographies } from './features/bibliography.js';
import { registerCitationFixes } from './features/citationFixes.js';
import { ConfigStore } from './features/config.js';
import { CorpusClient } from './features/corpusClient.js';
import { copyBibtex } from './features/clipboard.js';
import { openLink, registerEntryCommands } from './features/entryActions.js';
import { registerDetails } from './features/details.js';
import { registerExport } from './features/exportEntries.js';
import { registerFormattedReferences } from './features/formattedReferences.js';
import { registerInsertCitation } from './features/insertCitation.js';
import { registerLibraryStatus } from './features/libraryStatus.js';
import { createLanguageClient, type ClientFactory } from './features/languageClient.js';
import { configureL10n } from './core/l10n.js';
import { entryLink } from './core/links.js';
import { createLog, registerShowLog } from './features/log.js';
import { ReadState } from './features/readState.js';
import { registerSearch } from './features/searchCommand.js';
import { EntryPicker } from './features/entryPicker.js';
import { registerTopicTree } from './features/topicTree.js';
import { Methods, type ReadStateParams } from './server/protocol.js';

/**
 * Activates the extension.
 *
 * @param makeClient - the language client of this host's transport (see `features/languageClient.ts`)
 */
export function activateWith(context: vscode.ExtensionContext, makeClient: ClientFactory): void {
  const log = createLog();
  context.subscriptions.push(log);
  const config = new ConfigStore();
  // The core's own texts (details page, tooltips) in VS Code's display language, from the same bundle.
  configureL10n({ bundle: vscode.l10n.bundle, topicLabels: config.value.topicLabels });
  const read = new ReadState(context.globalState);
  // Loaded libraries are cached in the extension's global storage where that is a local folder (desktop).
  const storage = context.globalStorageUri;
  const client = createLanguageClient(log, makeClient, storage?.scheme === 'file' ? vscode.Uri.joinPath(storage, 'libraries').fsPath : undefined, config);
  // Not awaited: the views and commands below ask the server, and their requests wait for it.
  client.start().catch((e: unknown) => {
    log.error(e instanceof Error ? e : String(e));
    void vscode.window.showErrorMessage(vscode.l10n.t('MLSys Papers: the language server did not start ({0}); see the MLSys Papers log.', e instanceof Error ? e.message : String(e)));
  });
  const corpus = new CorpusClient(client, log);
  const picker = new EntryPicker(corpus, { copyBibtex: (es) => copyBibtex(corpus, es), openPaper: (e) => openLink(entryLink(e), 'paper', e) });
  const bibs = new Bibliographies(client, log);
  const services = { corpus, read, config, picker, bibs };
  const sendReadState = () => void client.sendNotification(Methods.readState, { keys: read.all() } satisfies ReadStateParams);
  sendReadState();

  context.subscriptions.push(
    client,
    config,
    config.onDidChange((c) => configureL10n({ topicLabels: c.topicLabels })),
    corpus,
    read,
    read.onDidChange(sendReadState),
    registerTopicTree(corpus, read, config, log),
    registerLibraryStatus(corpus),
    registerInsertCitation(services),
    registerEntryCommands(services),
    registerSearch(services),
    registerFormattedReferences(corpus, picker),
    registerExport(corpus, picker),
    registerDetails(corpus, read, config, picker, log),
    registerShowLog(log),
    registerCitationFixes(client, bibs, async (q) => (await picker.pick(vscode.l10n.t('MLSys Papers: Replace citation key'), q)).map((e) => e.key)),
  );
}
