/**
 * Citation text outside the editor: plain-text references, citation commands for the CLI, and CSL-JSON.
 */
import type { Entry, Person } from '../corpus/schema.js';
import { toBibtexAll } from './writeBibtex.js';
import { allAuthors } from './names.js';
import type { CiteCommand } from './citationForms.js';
import { arxivUrl, doiUrl, entryLink, markdownUrl } from '../corpus/links.js';

/**
 * A title as Markdown link text that shows it as written and carries no markup: raw HTML
 * (`<img onerror=…>`, `<script>`), entities, emphasis, code spans and nested links are
 * backslash-escaped (CommonMark 0.31, "Backslash escapes": any ASCII punctuation may be escaped);
 * line breaks become spaces, so the link stays on its line. Other punctuation (`.`, `-`, `:`) is
 * left as is: this text goes into the user's own Markdown source, where it should read well.
 */
export function markdownLinkText(title: string): string {
  return title.replace(/\r\n?|\n/g, ' ').replace(/([\\[\]<>&`*_!])/g, '\\$1');
}

/** A Markdown link to an entry, `[Title](url)`, with the title escaped ({@link markdownLinkText}) and the URL made safe ({@link markdownUrl}). */
export function markdownLink(e: Entry): string {
  const title = markdownLinkText(e.title_en ?? e.title);
  const link = entryLink(e);
  const url = link && markdownUrl(link);
  return url ? `[${title}](${url})` : title;
}

/**
 * A plain-text reference: `Authors. Title. Venue Year. https://…`
 * (a readable fallback for files that are neither LaTeX nor Markdown; styled references come from CSL).
 */
export function plainReference(e: Entry): string {
  const venue = [e.venue, e.year].filter(Boolean).join(' ');
  const link = e.doi ? doiUrl(e.doi) : e.url ?? (e.arxiv ? arxivUrl(e.arxiv) : '');
  return [allAuthors(e.authors), e.title_en && e.title_en !== e.title ? `${e.title} (${e.title_en})` : e.title, venue, link]
    .filter(Boolean)
    .map((s) => s.replace(/\.$/, ''))
    .join('. ');
}

/** Output formats of the CLI's `cite` command. */
export const CITE_FORMATS = ['latex', 'pandoc', 'markdown', 'bibtex'] as const;
export type CiteFormat = (typeof CITE_FORMATS)[number];

/**
 * Formats a citation of several entries for pasting elsewhere.
 *
 * @param format - `latex` → `\cite{a,b}`; `pandoc` → `[@a; @b]`; `markdown` → one `[Title](url)` per
 *   line; `bibtex` → the BibTeX entries
 */
export function formatCitation(entries: readonly Entry[], format: CiteFormat, latexCommand: CiteCommand = 'cite'): string {
  const keys = entries.map((e) => e.key);
  switch (format) {
    case 'latex': return `\\${latexCommand}{${keys.join(',')}}`;
    case 'pandoc': return `[${keys.map((k) => `@${k}`).join('; ')}]`;
    case 'markdown': return entries.map(markdownLink).join('\n');
    case 'bibtex': return toBibtexAll(entries);
  }
}

/** A CSL-JSON name (CSL-JSON schema, `name-variable`). */
export function cslName(p: Person): Record<string, string> {
  return 'literal' in p ? { literal: p.literal } : p.given ? { family: p.family, given: p.given } : { family: p.family };
}

const CSL_TYPES: Record<Entry['type'], string> = {
  article: 'article-journal', inproceedings: 'paper-conference', book: 'book', incollection: 'chapter',
  techreport: 'report', phdthesis: 'thesis', misc: 'document',
};

/**
 * Converts an entry to a CSL-JSON item, as read by citeproc processors and `pandoc --citeproc`.
 * Field names follow the CSL 1.0.2 specification's variables and its JSON schema.
 */
export function toCslJson(e: Entry): Record<string, unknown> {
  // A CSL library's item, as written (a BibTeX library entry goes on below, from the fields read at load).
  if (e.library?.csl) return { ...e.library.csl, id: e.key };
  let type = CSL_TYPES[e.type];
  if (e.type === 'misc') {
    if (e.kind === 'framework') type = 'software';
    else if (e.arxiv && (!e.venue || e.venue === 'arXiv')) type = 'article';
    else if (e.kind === 'blog') type = 'post-weblog';
    else if (e.kind === 'video' || e.kind === 'course' || e.kind === 'talk') type = 'webpage';
  }
  const item: Record<string, unknown> = {
    id: e.key,
    type,
    title: e.title,
    author: e.authors.map(cslName),
  };
  if (e.title_en && e.title_en !== e.title) item['original-title'] = e.title, item.title = e.title_en;
  if (e.year) item.issued = { 'date-parts': [[e.year]] };
  // A work is "in" a journal or a book only: a library entry's venue may be its publisher, school
  // or institution (`library/entries.ts`), which is no container.
  const container = e.journal ?? e.booktitle ?? (e.type === 'misc' && e.arxiv && (!e.venue || e.venue === 'arXiv') ? 'arXiv' : undefined);
  if (container) item['container-title'] = container;
  // A library entry's venue is its container's full name, already the container title.
  if (e.venue && !e.library) item['container-title-short'] = e.venue;
  if (e.volume) item.volume = e.volume;
  if (e.number) item.issue = e.number;
  if (e.pages) item.page = e.pages.replace('--', '-');
  // A report's institution and a thesis's school publish it (CSL 1.0.2, "publisher"; pandoc reads BibTeX so).
  const publisher = e.publisher ?? e.institution;
  if (publisher) item.publisher = publisher;
  if (e.edition) item.edition = e.edition;
  if (e.series) item['collection-title'] = e.series;
  if (e.doi) item.DOI = e.doi;
  if (e.arxiv && !e.journal && !e.booktitle) item.number = `arXiv:${e.arxiv}`;
  const url = e.url ?? (e.arxiv ? arxivUrl(e.arxiv) : undefined);
  if (url) item.URL = url;
  return item;
}
