/**
 * How an entry reads in hovers, completion documentation, tooltips and the search: shared by the
 * language service and the VS Code layer so they say the same thing. Everything here is Markdown
 * text (CommonMark, as VS Code's `MarkdownString` and LSP's `MarkupContent` take it); text from
 * entries is escaped and links are only http(s).
 */
import type { Taxonomy } from '../corpus/model.js';
import { allAuthors, shortAuthors } from '../cite/names.js';
import { entryLinksMarkdown } from '../corpus/links.js';
import * as l10n from '@vscode/l10n';
import { kindLabel, levelBadge, topicPath } from '../corpus/labels.js';
import type { Entry } from '../corpus/schema.js';
import type { TopicLabels } from '../text/l10n.js';


/** The command that opens an entry's details page (`mlsysPapers.showDetails`, arguments `[key]`). */
export const SHOW_DETAILS_COMMAND = 'mlsysPapers.showDetails';

/** `SOSP 2023` */
export function venueYear(e: Entry): string {
  return [e.venue, e.year].filter(Boolean).join(' ');
}

/** `Kwon, Li, Zhuang et al. · SOSP 2023` */
export function bylineOf(e: Entry): string {
  return [shortAuthors(e.authors), venueYear(e)].filter(Boolean).join(' · ');
}

/** The topic paths of an entry in the given labels (`core/corpus/labels.ts`): `LLM inference serving › GPU memory management; …`. */
export function topicPathOf(corpus: Taxonomy, e: Entry, labels: TopicLabels): string {
  return (e.topics ?? []).map((id) => topicPath(corpus, id, labels)).join('; ');
}

/** Where a library entry is: `In zotero.bib, line 120 · keywords: serving, kv-cache`. */
export function libraryPlace(e: Entry): string {
  const lib = e.library;
  if (!lib) return '';
  const words = lib.groups.length ? l10n.t('groups: {0}', lib.groups.join(', ')) : lib.keywords.length ? l10n.t('keywords: {0}', lib.keywords.join(', ')) : '';
  return [l10n.t('In {0}, line {1}', lib.name, lib.line), words, lib.sameWorkAs ? l10n.t('the same work as corpus entry {0}', lib.sameWorkAs) : ''].filter(Boolean).join(' · ');
}

/** Escapes text so that Markdown shows it as is (every CommonMark punctuation that can start markup). */
export function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');
}

/**
 * Text as a Markdown code span that shows it as is, whatever backticks it holds: fenced with a
 * backtick run longer than any run in the text, and padded with a space when the text begins or
 * ends with a backtick or with a space on both sides (CommonMark 0.31, "Code spans": the fence is
 * a run of equal length, and one space is stripped from each end when both are spaces). Line
 * breaks become spaces: a blank line would end the paragraph, and with it the span.
 *
 * @param s - any text (a citation key from a library)
 * @returns `` `s` ``, or the longer fence; an empty string for an empty text (an empty span does not exist)
 */
export function codeSpan(s: string): string {
  const text = s.replace(/\r\n?|\n/g, ' ');
  if (!text) return '';
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Options of {@link entryMarkdown}. */
export interface EntryMarkdownOptions {
  /** Which topic labels the card shows (the settings' `topicLabelsOf`). */
  topicLabels: TopicLabels;
  /** The user has marked the entry read. */
  read?: boolean;
  /** Add a `[Details](command:mlsysPapers.showDetails?…)` link; the host must trust that command only. */
  detailsLink?: boolean;
}

/**
 * A Markdown card for hovers, tooltips and completion documentation: title, authors, venue,
 * level, summary, topics, links. It is the reader's text only: the entry's provenance (`verified`,
 * `unverified`, the curator's `note`) is left to the details page's "Sources" section.
 *
 * @returns Markdown text in which every piece of entry text is escaped
 */
export function entryMarkdown(corpus: Taxonomy, e: Entry, opts: EntryMarkdownOptions): string {
  const parts = [`**${escapeMarkdown(e.title)}**`];
  if (e.title_en && e.title_en !== e.title) parts.push(`  \n*${escapeMarkdown(e.title_en)}*`);
  parts.push(`\n\n${escapeMarkdown(allAuthors(e.authors))}`);
  const venue = e.venue_full && e.venue_full !== e.venue ? `${e.venue_full} (${venueYear(e)})` : venueYear(e);
  if (venue) parts.push(`  \n${escapeMarkdown(venue)}`);
  const facts = [e.level ? levelBadge(e.level) : undefined, escapeMarkdown(kindLabel(e)), opts.read ? l10n.t('✓ read') : undefined, codeSpan(e.key)].filter(Boolean);
  parts.push(`\n\n${facts.join(' · ')}`);
  if (e.summary) parts.push(`\n\n${escapeMarkdown(e.summary)}`);
  // A library entry says where it is; a corpus entry, where it is filed.
  const where = e.library ? libraryPlace(e) : topicPathOf(corpus, e, opts.topicLabels);
  if (where) parts.push(`\n\n*${escapeMarkdown(where)}*`);
  const shown = entryLinksMarkdown(e);
  if (opts.detailsLink) shown.unshift(`[${escapeMarkdown(l10n.t('Details'))}](command:${SHOW_DETAILS_COMMAND}?${encodeURIComponent(JSON.stringify([e.key]))})`);
  if (shown.length) parts.push(`\n\n${shown.join(' · ')}`);
  return parts.join('');
}

/** The fields of a `.bib` entry a card shows. */
export interface BibFields {
  title?: string;
  author?: string;
  journal?: string;
  booktitle?: string;
  year?: string;
}

/** A short Markdown card of an entry of the user's own bibliography: title, then authors · venue · year. */
export function bibEntryMarkdown(key: string, f: BibFields): string {
  const title = (f.title ?? key).replace(/[{}]/g, '');
  const rest = [f.author, f.journal ?? f.booktitle, f.year].filter(Boolean).join(' · ');
  return rest ? `${escapeMarkdown(title)}\n\n${escapeMarkdown(rest)}` : escapeMarkdown(title);
}
