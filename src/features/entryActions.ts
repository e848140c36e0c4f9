/**
 * What can be done with entries: copy the key or BibTeX, open links, mark read, and the actions
 * menu of a picked entry (Insert Citation itself is `insertCitation.ts`).
 * Each command takes a tree node, an entry, a key, or a multi-selection.
 */
import * as vscode from 'vscode';
import { copyBibtex } from './clipboard.js';
import type { Entry } from '../core/corpus/schema.js';
import { Commands } from '../ids.js';
import { commandOnEntries } from './entryArgs.js';
import type { Ctx } from './client/ctx.js';
import { citeEntries, targetEditor } from './insertCitation.js';
import { entryLink, pdfLink } from '../core/corpus/links.js';
import { openLink } from './openLink.js';

interface ActionItem extends vscode.QuickPickItem {
  run: () => Thenable<unknown> | void;
}

/** A quick pick of everything that can be done with the given entries. */
export async function showEntryActions(ctx: Ctx, entries: readonly Entry[]): Promise<void> {
  if (!entries.length) return;
  const first = entries[0]!;
  const many = entries.length > 1;
  const allRead = entries.every((e) => ctx.read.isRead(e.key));
  const editor = targetEditor();
  const items: ActionItem[] = [
    ...(editor ? [{ label: `$(quote) ${vscode.l10n.t('Insert Citation')}`, description: vscode.workspace.asRelativePath(editor.document.uri), run: () => citeEntries(editor, entries, ctx.config.for(editor.document.uri), ctx.bibs) }] : []),
    ...(many ? [] : [
      { label: `$(info) ${vscode.l10n.t('Show Details')}`, run: () => vscode.commands.executeCommand(Commands.showDetails, first.key) },
      { label: `$(notebook) ${vscode.l10n.t('Open Note')}`, description: ctx.notes.has(first.key) ? vscode.l10n.t('has a note') : undefined, run: () => vscode.commands.executeCommand(Commands.openNote, first.key) },
    ]),
    { label: `$(key) ${vscode.l10n.t('Copy Citation Key')}`, description: entries.map((e) => e.key).join(', '), run: () => vscode.env.clipboard.writeText(entries.map((e) => e.key).join(',')) },
    { label: `$(copy) ${vscode.l10n.t('Copy BibTeX')}`, run: () => copyBibtex(ctx.corpus, entries) },
    ...(many ? [] : [
      { label: `$(link-external) ${vscode.l10n.t('Open Paper')}`, description: entryLink(first), run: () => openLink(entryLink(first), 'paper', first) },
      ...(pdfLink(first) ? [{ label: `$(file-pdf) ${vscode.l10n.t('Open PDF')}`, description: pdfLink(first), run: () => openLink(pdfLink(first), 'PDF', first) }] : []),
      ...(first.code ? [{ label: `$(github) ${vscode.l10n.t('Open Code')}`, description: first.code, run: () => openLink(first.code, 'code', first) }] : []),
    ]),
    allRead
      ? { label: `$(circle-large-outline) ${vscode.l10n.t('Mark as Unread')}`, run: () => ctx.read.set(entries.map((e) => e.key), false) }
      : { label: `$(pass) ${vscode.l10n.t('Mark as Read')}`, run: () => ctx.read.set(entries.map((e) => e.key), true) },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: many ? vscode.l10n.t('{0} entries', entries.length) : first.title,
    placeHolder: many ? entries.map((e) => e.key).join(', ') : first.key,
  });
  await picked?.run();
}

/**
 * Registers the entry commands. Invoked with no argument (palette, keybinding), each first asks
 * for entries through the search.
 */
export function registerEntryCommands(ctx: Ctx): vscode.Disposable {
  const withEntries = (fn: (entries: Entry[]) => unknown) => commandOnEntries(ctx, fn);
  const single = (fn: (e: Entry) => unknown) => withEntries((es) => fn(es[0]!));
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.copyCitationKey, withEntries(async (entries) => {
      await vscode.env.clipboard.writeText(entries.map((e) => e.key).join(','));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('MLSys Papers: copied {0}', entries.map((e) => e.key).join(',')), 4000);
    })),
    vscode.commands.registerCommand(Commands.copyBibtex, withEntries((es) => copyBibtex(ctx.corpus, es))),
    vscode.commands.registerCommand(Commands.openPaper, single((e) => openLink(entryLink(e), 'paper', e))),
    vscode.commands.registerCommand(Commands.openPdf, single((e) => openLink(pdfLink(e), 'PDF', e))),
    vscode.commands.registerCommand(Commands.openCode, single((e) => openLink(e.code, 'code', e))),
    vscode.commands.registerCommand(Commands.markRead, withEntries((es) => ctx.read.set(es.map((e) => e.key), true))),
    vscode.commands.registerCommand(Commands.markUnread, withEntries((es) => ctx.read.set(es.map((e) => e.key), false))),
    vscode.commands.registerCommand(Commands.entryActions, withEntries((es) => showEntryActions(ctx, es))),
  );
}
