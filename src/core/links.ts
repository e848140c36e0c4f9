/**
 * Where an entry can be opened: the links every view shows (tree tooltip, hover, details page),
 * computed once. Only http(s) links are ever offered.
 */
import type { Entry } from './schema.js';

/** Whether a URL may be shown as a link: http or https only. */
export function isWebLink(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The paper's landing page ("Open Paper", Markdown links): the URL, else arXiv, else the DOI, else the PDF. */
export function entryLink(e: Entry): string | undefined {
  return e.url ?? (e.arxiv ? `https://arxiv.org/abs/${e.arxiv}` : e.doi ? `https://doi.org/${e.doi}` : e.pdf);
}

/** The PDF ("Open PDF"): the `pdf` field, else arXiv's PDF. */
export function pdfLink(e: Entry): string | undefined {
  return e.pdf ?? (e.arxiv ? `https://arxiv.org/pdf/${e.arxiv}` : undefined);
}

/** The labelled http(s) links of an entry, in the order views show them: Paper, PDF, Code, DOI, arXiv. */
export function entryLinks(e: Entry): { label: string; url: string }[] {
  const all: [string, string | undefined][] = [
    ['Paper', entryLink(e)], ['PDF', pdfLink(e)], ['Code', e.code],
    ['DOI', e.doi ? `https://doi.org/${e.doi}` : undefined], ['arXiv', e.arxiv ? `https://arxiv.org/abs/${e.arxiv}` : undefined],
  ];
  return all.filter((l): l is [string, string] => isWebLink(l[1])).map(([label, url]) => ({ label, url }));
}
