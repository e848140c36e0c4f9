/**
 * How entries look in VS Code's own widgets (tree items, tooltips): codicons, and the core's
 * Markdown cards (`core/service/entryCards.ts`) as `MarkdownString`s.
 */
import * as vscode from 'vscode';
import type { Taxonomy } from '../core/corpus/model.js';
import type { Entry, Kind } from '../core/corpus/schema.js';
import { entryMarkdown, type EntryMarkdownOptions } from '../core/service/entryCards.js';

/** Codicon per kind of entry. */
export const KIND_ICONS: Record<Kind, string> = {
  paper: 'file-text', survey: 'library', framework: 'tools', course: 'mortar-board', book: 'book',
  blog: 'note', video: 'device-camera-video', tutorial: 'lightbulb', talk: 'megaphone', docs: 'file-code',
  report: 'graph',
};

/** An entry's card as a tooltip; no command link in it, so it is not trusted. */
export function entryTooltip(corpus: Taxonomy, e: Entry, opts: Omit<EntryMarkdownOptions, 'detailsLink'>): vscode.MarkdownString {
  return new vscode.MarkdownString(entryMarkdown(corpus, e, opts));
}
