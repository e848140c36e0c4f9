/**
 * MLSys Papers: activation is a table of contents. The client plumbing (`features/client/`: the
 * language client of this host's transport, the server's typed API, the context) is built first;
 * then each feature registers with that one context and returns the `Disposable` it owns.
 * Citation features (completion, hover, definition, diagnostics, quick fixes) come from the
 * language server (`src/server/`) through its client; the views and commands here ask it through
 * `ctx.server`. The same activation serves desktop (`extension.ts`, the server in a Node process)
 * and the browser (`extension.web.ts`, the server in a Web Worker).
 */
import type * as vscode from 'vscode';
import type MarkdownIt from 'markdown-it';
import { createCtx } from './features/client/ctx.js';
import type { ClientFactory } from './features/client/languageClient.js';
import { registerCitationFixes } from './features/citationFixes.js';
import { registerDetails } from './features/detailsPanel.js';
import { registerEntryCommands } from './features/entryActions.js';
import { registerExport } from './features/exportEntries.js';
import { registerFormattedReferences } from './features/formattedReferences.js';
import { registerInsertCitation } from './features/insertCitation.js';
import { registerLibraryStatus } from './features/libraryStatus.js';
import { registerLiteratureNotes } from './features/literatureNotes.js';
import { registerMarkdownPreview } from './features/markdownPreview.js';
import { registerShowLog } from './features/client/outputLog.js';
import { registerSearch } from './features/searchCommand.js';
import { registerTopicTree } from './features/topicTree.js';

/** What activation returns to VS Code: the Markdown preview's markdown-it plugin (`contributes.markdown.markdownItPlugins`). */
export interface ExtensionApi {
  extendMarkdownIt(md: MarkdownIt): MarkdownIt;
}

/**
 * Activates the extension.
 *
 * @param makeClient - the language client of this host's transport (see `features/client/languageClient.ts`)
 */
export function activateWith(context: vscode.ExtensionContext, makeClient: ClientFactory): ExtensionApi {
  const ctx = createCtx(context, makeClient);
  const preview = registerMarkdownPreview(ctx);
  context.subscriptions.push(
    registerTopicTree(ctx),
    registerLibraryStatus(ctx),
    registerInsertCitation(ctx),
    registerEntryCommands(ctx),
    registerSearch(ctx),
    registerFormattedReferences(ctx),
    registerExport(ctx),
    registerDetails(ctx),
    registerShowLog(ctx),
    registerCitationFixes(ctx),
    registerLiteratureNotes(ctx),
    preview.disposable,
  );
  return { extendMarkdownIt: preview.extendMarkdownIt };
}
