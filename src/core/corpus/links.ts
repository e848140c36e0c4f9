/**
 * Where an entry can be opened: the links every view shows (tree tooltip, hover, details page),
 * computed once. Only http(s) links are ever offered.
 */
import * as l10n from '@vscode/l10n';
import type { Entry } from './schema.js';

/** Whether a URL may be shown as a link: http or https only. */
export function isWebLink(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    // ignored: `new URL` throws only for a string that is not a URL, which is not a web link.
    return false;
  }
}

/** An arXiv id's abstract page, or its PDF (arXiv's own URLs: `https://arxiv.org/abs/<id>`, `https://arxiv.org/pdf/<id>`). */
export function arxivUrl(id: string, page: 'abs' | 'pdf' = 'abs'): string {
  return `https://arxiv.org/${page}/${id}`;
}

/** A DOI's link through the DOI resolver (`https://doi.org/<doi>`, as the DOI Handbook recommends displaying one). */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi}`;
}

/** The paper's landing page ("Open Paper", Markdown links): the URL, else arXiv, else the DOI, else the PDF. */
export function entryLink(e: Entry): string | undefined {
  return e.url ?? (e.arxiv ? arxivUrl(e.arxiv) : e.doi ? doiUrl(e.doi) : e.pdf);
}

/** The PDF ("Open PDF"): the `pdf` field, else arXiv's PDF. */
export function pdfLink(e: Entry): string | undefined {
  return e.pdf ?? (e.arxiv ? arxivUrl(e.arxiv, 'pdf') : undefined);
}

/**
 * A URL made safe as a Markdown link destination (CommonMark 0.31, "Links"): parsed and
 * re-serialised by the WHATWG URL parser (which percent-encodes spaces, quotes and angle
 * brackets), then `(`, `)`, `[`, `]` and `'` percent-encoded too, so that no URL can close the
 * link early and inject Markdown (an image, a `command:` link) after it.
 *
 * @param url - an http(s) URL ({@link isWebLink})
 * @returns the encoded URL; undefined when it is not an http(s) URL
 */
export function markdownUrl(url: string): string | undefined {
  if (!isWebLink(url)) return undefined;
  return new URL(url).href.replace(/[()[\]'\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * The labelled links of an entry as Markdown, `[Paper](…) · [PDF](…)`: labels are ours and every
 * URL goes through {@link markdownUrl}.
 */
export function entryLinksMarkdown(e: Entry): string[] {
  return entryLinks(e).map(({ label, url }) => `[${label}](${markdownUrl(url)})`);
}

/** The labelled http(s) links of an entry, in the order views show them: Paper, PDF, Code, DOI, arXiv. */
export function entryLinks(e: Entry): { label: string; url: string }[] {
  const all: [string, string | undefined][] = [
    [l10n.t('Paper'), entryLink(e)], ['PDF', pdfLink(e)], [l10n.t('Code'), e.code],
    ['DOI', e.doi ? doiUrl(e.doi) : undefined], ['arXiv', e.arxiv ? arxivUrl(e.arxiv) : undefined],
  ];
  return all.filter((l): l is [string, string] => isWebLink(l[1])).map(([label, url]) => ({ label, url }));
}
