/**
 * MLSys Papers: activation is a table of contents; each feature returns the `Disposable` it owns.
 */
import * as vscode from 'vscode';
import { Bibliographies } from './features/bibliography.js';
import { ConfigStore } from './features/config.js';
import { CorpusService } from './features/corpusService.js';
import { copyBibtex, openLink, registerEntryCommands } from './features/entryActions.js';
import { registerCitationChecks } from './features/citationChecks.js';
import { registerCompletion } from './features/completion.js';
import { registerDetails } from './features/details.js';
import { Formatter, registerFormatted } from './features/formatted.js';
import { entryLink } from './core/links.js';
import { createLog } from './features/log.js';
import { ReadState } from './features/readState.js';
import { registerSearch } from './features/searchCommand.js';
import { SearchUi } from './features/search.js';
import { registerTopicTree } from './features/topicTree.js';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog();
  const config = new ConfigStore();
  const corpus = new CorpusService(vscode.Uri.joinPath(context.extensionUri, 'dist', 'corpus.json').fsPath, config, log);
  const read = new ReadState(context.globalState);
  const search = new SearchUi(corpus, { copyBibtex, openPaper: (e) => openLink(entryLink(e), 'paper', e) });
  const bibs = new Bibliographies(log);
  const services = { corpus, read, config, search, bibs };
  const formatter = new Formatter(context.extensionPath);

  context.subscriptions.push(
    log,
    bibs,
    config,
    corpus,
    read,
    registerTopicTree(corpus, read, config),
    registerEntryCommands(services),
    registerSearch(services),
    registerCompletion(corpus, read, formatter, bibs),
    registerFormatted(corpus, search, formatter),
    registerDetails(corpus, read, formatter, search),
    registerCitationChecks(corpus, read, formatter, bibs, async (q) => (await search.pick('MLSys Papers: Replace citation key', q)).map((e) => e.key)),
  );
}

export function deactivate(): void {}
