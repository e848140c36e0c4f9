/**
 * How an entry looks in the tree, the search and hovers: shared so they say the same thing.
 */
import * as vscode from 'vscode';
import type { Corpus } from '../core/corpus.js';
import { allAuthors, shortAuthors } from '../core/cite/names.js';
import { entryLinksMarkdown } from '../core/links.js';
import type { Entry, Kind } from '../core/schema.js';
import { Commands } from '../ids.js';

/** Codicon per kind of entry. */
export const KIND_ICONS: Record<Kind, string> = {
  paper: 'file-text', survey: 'library', framework: 'tools', course: 'mortar-board', book: 'book',
  blog: 'note', video: 'device-camera-video', tutorial: 'lightbulb', talk: 'megaphone', docs: 'file-code',
  report: 'graph',
};

export const LEVEL_LABELS: Record<string, string> = {
  'must-read': '⚡ must-read', optional: '💎 optional', advanced: '💡 advanced',
};

/** `SOSP 2023` */
export function venueYear(e: Entry): string {
  return [e.venue, e.year].filter(Boolean).join(' ');
}

/** `Kwon, Li, Zhuang et al. · SOSP 2023` */
export function bylineOf(e: Entry): string {
  return [shortAuthors(e.authors), venueYear(e)].filter(Boolean).join(' · ');
}

/** The topic path of an entry's first topic: `LLM inference serving › GPU memory management`. */
export function topicPathOf(corpus: Corpus, e: Entry): string {
  return e.topics.map((id) => corpus.topic(id)?.path.join(' › ') ?? id).join('; ');
}

/** Escapes text so that Markdown shows it as is. */
export function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');
}

/**
 * A Markdown card for tooltips and completion documentation: title, authors, venue, level, summary, links.
 * Text from the corpus is escaped; links are only http(s).
 */
export function entryMarkdown(corpus: Corpus, e: Entry, opts: { read?: boolean; detailsLink?: boolean } = {}): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMarkdown(e.title)}**`);
  if (e.title_en && e.title_en !== e.title) md.appendMarkdown(`  \n*${escapeMarkdown(e.title_en)}*`);
  md.appendMarkdown(`\n\n${escapeMarkdown(allAuthors(e.authors))}`);
  const venue = e.venue_full && e.venue_full !== e.venue ? `${e.venue_full} (${venueYear(e)})` : venueYear(e);
  if (venue) md.appendMarkdown(`  \n${escapeMarkdown(venue)}`);
  const facts = [e.level ? LEVEL_LABELS[e.level] : undefined, e.kind, opts.read ? '✓ read' : undefined, `\`${e.key}\``].filter(Boolean);
  md.appendMarkdown(`\n\n${facts.join(' · ')}`);
  md.appendMarkdown(`\n\n${escapeMarkdown(e.summary)}`);
  md.appendMarkdown(`\n\n*${escapeMarkdown(topicPathOf(corpus, e))}*`);
  const shown = entryLinksMarkdown(e);
  if (opts.detailsLink) {
    // Trusted for this one command only: the hover can open the details page, nothing else.
    md.isTrusted = { enabledCommands: [Commands.showDetails] };
    shown.unshift(`[Details](command:${Commands.showDetails}?${encodeURIComponent(JSON.stringify([e.key]))})`);
  }
  if (shown.length) md.appendMarkdown(`\n\n${shown.join(' · ')}`);
  if (e.unverified.length) md.appendMarkdown(`\n\n*Not verified, left out: ${escapeMarkdown(e.unverified.join(', '))}*`);
  return md;
}
