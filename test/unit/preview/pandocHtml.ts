/**
 * Reading `pandoc --citeproc` HTML and ours as text, for the comparisons of the Markdown preview's
 * citations with pandoc's: the citations (`<span class="citation" data-cites="…">`) in document
 * order and the bibliography's entries (`<div id="ref-KEY" class="csl-entry">`), each as text (tags
 * dropped, character references decoded, blanks collapsed).
 */

/** What a page shows of its citations and bibliography. */
export interface CitationTexts {
  citations: { keys: string; text: string }[];
  entries: { key: string; text: string }[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML as the text it shows: tags dropped, references decoded, blanks (no-break ones too) collapsed. */
export function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([\da-f]+)|(\w+));/gi, (m, d: string | undefined, h: string | undefined, n: string | undefined) =>
      d ? String.fromCodePoint(Number(d)) : h ? String.fromCodePoint(parseInt(h, 16)) : ENTITIES[n!.toLowerCase()] ?? m)
    .replace(/[\s\u00a0]+/g, ' ').trim();
}

/** The element opened at `at` (its tag name given) up to its matching close tag, nesting counted. */
function element(html: string, at: number, tag: string): string {
  const re = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'g');
  re.lastIndex = at;
  let depth = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(at, m.index + m[0].length);
  }
  return html.slice(at);
}

/** The citations and bibliography entries of an HTML page (pandoc's, or the preview's). */
export function citationTexts(html: string): CitationTexts {
  const citations: CitationTexts['citations'] = [];
  for (const m of html.matchAll(/<span\s+class="citation"\s+data-cites="([^"]*)"[^>]*>/g)) {
    citations.push({ keys: m[1]!, text: htmlText(element(html, m.index, 'span')) });
  }
  const entries: CitationTexts['entries'] = [];
  for (const m of html.matchAll(/<div\s+id="ref-([^"]*)"\s+class="csl-entry"[^>]*>/g)) {
    entries.push({ key: htmlText(m[1]!), text: htmlText(element(html, m.index, 'div')) });
  }
  return { citations, entries };
}
