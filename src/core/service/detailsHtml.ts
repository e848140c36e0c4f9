/**
 * The HTML of an entry's details page (shown in a VS Code webview). Pure: every text from the
 * corpus is escaped here, only http(s) links are rendered, and the page carries a
 * Content-Security-Policy that allows no remote content and only the script with the given nonce.
 *
 * The page is written for a reader: the entry's provenance (the `verified` URLs every field was
 * checked against, the `unverified` fields left out, the curator's `note`) is kept out of the body
 * and shown only in a collapsed "Sources" section at the end.
 */
import { toBibtex } from '../cite/writeBibtex.js';
import { allAuthors } from '../cite/names.js';
import type { Taxonomy } from '../corpus/model.js';
import * as l10n from '@vscode/l10n';
import type { CorpusEntry, Entry } from '../corpus/schema.js';
import { entryLinks, isWebLink } from '../corpus/links.js';
import { escapeHtml } from '../text/html.js';
import { kindLabel, levelBadge, topicPath } from '../corpus/labels.js';
import type { TopicLabels } from '../text/l10n.js';

/** What the page shows besides the entry itself. */
export interface DetailsContext {
  /** The nonce of the page's one script. */
  nonce: string;
  /** The webview's CSP source for its own resources (`webview.cspSource`). */
  cspSource: string;
  read: boolean;
  /** The formatted reference in the configured style, if it could be made. */
  formatted?: string;
  /** A library entry's fields as written (macros expanded), shown in a collapsed section. */
  fields?: Record<string, string>;
  styleName: string;
  /** Which topic labels the page shows (the settings' `topicLabelsOf`). */
  topicLabels: TopicLabels;
}

/** The collapsed "Sources" section: where the entry's fields were checked, what is left out, the curator's note. */
function sourcesHtml(e: CorpusEntry): string {
  const h = escapeHtml;
  const checked = e.verified.filter((u) => isWebLink(u)).map((u) => `<li><a href="${h(u)}" data-open="${h(u)}">${h(u)}</a></li>`);
  return `<details id="sources"><summary>${h(l10n.t('Sources'))}</summary>
${checked.length ? `<p class="sub">${h(l10n.t('Every field was checked against:'))}</p><ul id="verified">${checked.join('')}</ul>` : ''}
${e.unverified.length ? `<p class="sub" id="unverified">${h(l10n.t('Not verified, left out: {0}', e.unverified.join(', ')))}</p>` : ''}
${e.note ? `<p class="sub" id="note">${h(e.note)}</p>` : ''}
</details>`;
}

/** Where a library entry is kept, with a button that opens it there; and its fields as written, collapsed. */
function libraryHtml(e: Entry, fields: Record<string, string> | undefined): { where: string; fields: string } {
  const h = escapeHtml;
  const lib = e.library!;
  const words = lib.groups.length ? l10n.t('Groups: {0}', lib.groups.join(', ')) : lib.keywords.length ? l10n.t('Keywords: {0}', lib.keywords.join(', ')) : '';
  // The message's placeholders stand for markup: escape the message, then put the markup in.
  const fill = (message: string, ...markup: string[]) => h(message).replace(/\{(\d+)\}/g, (m, i: string) => markup[Number(i)] ?? m);
  const place = fill(l10n.t('In your library {0}, line {1}'), `<strong>${h(lib.name)}</strong>`, String(lib.line));
  const same = lib.sameWorkAs ? ` · ${fill(l10n.t('the same work as the corpus entry {0}'), `<code>${h(lib.sameWorkAs)}</code>`)}` : '';
  const where = `<p class="sub" id="library">${place}${same}</p>
${words ? `<p class="sub" id="keywords">${h(words)}</p>` : ''}<button id="openLibrary">${h(l10n.t('Open in {0}', lib.name))}</button>`;
  const rows = Object.entries(fields ?? {}).map(([k, v]) => `<tr><th>${h(k)}</th><td>${h(v.length > 2000 ? `${v.slice(0, 2000)}…` : v)}</td></tr>`);
  return { where, fields: rows.length ? `<details id="fields"><summary>${h(l10n.t('Fields as written'))}</summary><table>${rows.join('')}</table></details>` : '' };
}

/**
 * The details page of an entry: title, authors, venue and year, the summary, topics, level,
 * links, the formatted reference and the BibTeX, then a collapsed "Sources" section.
 *
 * The page's script posts `{ type: 'copy', what: 'bibtex' | 'formatted' | 'key' }`,
 * `{ type: 'open', url }`, `{ type: 'toggleRead' }` and `{ type: 'openNote' }` messages; the
 * extension acts on them.
 */
export function detailsHtml(corpus: Taxonomy, e: Entry, ctx: DetailsContext): string {
  const h = escapeHtml;
  const linkHtml = entryLinks(e).map(({ label, url }) => `<a href="${h(url)}" data-open="${h(url)}">${h(label)}</a>`).join(' · ');
  const topics = (e.topics ?? []).map((id) => topicPath(corpus, id, ctx.topicLabels));
  // A library entry: where it is kept instead of topics; its fields instead of provenance.
  const library = e.library ? libraryHtml(e, ctx.fields) : undefined;
  const summary = e.summary || (ctx.fields?.abstract ?? '');
  const venue = [e.venue_full ?? e.venue, e.year].filter(Boolean).join(', ');
  const csp = [
    "default-src 'none'",
    `style-src ${ctx.cspSource} 'nonce-${ctx.nonce}'`,
    `script-src 'nonce-${ctx.nonce}'`,
    `img-src ${ctx.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${h(l10n.t('en'))}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${h(e.title)}</title>
<style nonce="${ctx.nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1.5em 2em; max-width: 60em; }
  h1 { font-size: 1.4em; margin-bottom: 0.2em; }
  .sub { color: var(--vscode-descriptionForeground); margin: 0.2em 0; }
  pre { background: var(--vscode-textCodeBlock-background); padding: 0.8em; overflow-x: auto; white-space: pre-wrap; }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 0.3em 0.8em; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  section { margin-top: 1.2em; }
  .facts span { margin-right: 1em; }
  details summary { cursor: pointer; color: var(--vscode-descriptionForeground); }
  #verified a { word-break: break-all; }
</style>
</head>
<body>
<h1 id="title">${h(e.title)}</h1>
${e.title_en && e.title_en !== e.title ? `<p class="sub">${h(e.title_en)}</p>` : ''}
<p id="authors">${h(allAuthors(e.authors)) || `<em>${h(l10n.t('authors not verified'))}</em>`}</p>
<p class="sub" id="venue">${h(venue)}</p>
<p class="facts"><span>${h(e.level ? levelBadge(e.level) : '')}</span><span>${h(kindLabel(e))}</span><span><code>${h(e.key)}</code></span>
<span id="read">${h(ctx.read ? l10n.t('✓ read') : l10n.t('not read'))}</span> <button id="toggleRead">${h(ctx.read ? l10n.t('Mark as Unread') : l10n.t('Mark as Read'))}</button>
<button id="openNote">${h(l10n.t('Open Note'))}</button></p>
<section><p id="summary">${h(summary)}</p></section>
<section>${library ? library.where : `<p class="sub">${topics.map(h).join('<br>')}</p>`}</section>
<section id="links">${linkHtml}</section>
<section><h2>${h(l10n.t('Reference ({0})', ctx.styleName))}</h2><p id="formatted">${h(ctx.formatted ?? '')}</p>
<button data-copy="formatted">${h(l10n.t('Copy reference'))}</button> <button data-copy="key">${h(l10n.t('Copy key'))}</button></section>
<section><h2>BibTeX</h2><pre id="bibtex">${h(toBibtex(e))}</pre><button data-copy="bibtex">${h(l10n.t('Copy BibTeX'))}</button></section>
<section>${e.library ? library!.fields : sourcesHtml(e)}</section>
<script nonce="${ctx.nonce}">
  const vscode = acquireVsCodeApi();
  for (const b of document.querySelectorAll('[data-copy]')) b.addEventListener('click', () => vscode.postMessage({ type: 'copy', what: b.dataset.copy }));
  for (const a of document.querySelectorAll('[data-open]')) a.addEventListener('click', (ev) => { ev.preventDefault(); vscode.postMessage({ type: 'open', url: a.dataset.open }); });
  document.getElementById('toggleRead').addEventListener('click', () => vscode.postMessage({ type: 'toggleRead' }));
  document.getElementById('openNote').addEventListener('click', () => vscode.postMessage({ type: 'openNote' }));
  document.getElementById('openLibrary')?.addEventListener('click', () => vscode.postMessage({ type: 'openLibrary' }));
</script>
</body>
</html>`;
}
