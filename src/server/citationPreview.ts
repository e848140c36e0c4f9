/**
 * `mlsysPapers/previewCitations`: a Markdown text's citations rendered as `pandoc --citeproc`
 * renders them, for VS Code's Markdown preview (whose markdown-it plugin, `features/markdownPreview.ts`,
 * renders from what this answers). The service finds the citations and their CSL items
 * (`core/service/previewCitations.ts`); the style is `mlsysPapers.citationStyle` in the document's
 * scope (`references.ts`); citeproc-js, loaded on first use, renders them (`core/cite/citeproc.ts`).
 * The HTML is pandoc's: each citation's text, and the bibliography as
 * `<div id="refs" class="references csl-bib-body">` with one `<div id="ref-KEY" class="csl-entry">`
 * per entry, after a `reference-section-title` heading when the document sets one.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { CitationService } from '../core/service/service.js';
import { escapeHtml } from '../core/text/html.js';
import type { ServerContext } from './serverContext.js';
import { type PreviewCitationsResult } from './protocol.js';
import type { References } from './references.js';

/** Escapes text for HTML content. */

/** Registers the `mlsysPapers/previewCitations` handler. */
export function registerCitationPreview(ctx: ServerContext, service: CitationService, references: References): void {
  const { connection, gate, log } = ctx;
  gate.onRequest(connection, 'previewCitations', async (p, token): Promise<PreviewCitationsResult> => {
    const doc = TextDocument.create(p.uri, p.languageId, 0, p.text);
    const job = await service.previewCitations(doc);
    if (!job.groups.length && !job.uncited.length) return { citations: [], bibliography: null };
    let style, readLocale, csl;
    try {
      style = await references.style(URI.parse(p.uri));
      readLocale = await references.locales();
      csl = await ctx.host.loadCsl();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log.warn(`preview of ${p.uri}: ${message}`);
      return { citations: [], bibliography: null, error: message };
    }
    if (token?.isCancellationRequested) return { citations: [], bibliography: null };
    let rendered;
    try {
      rendered = csl.renderCitations(job.items, job.groups.map((g) => g.items), style.xml, readLocale, job.uncited);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log.warn(`preview of ${p.uri}: ${message}`);
      return { citations: [], bibliography: null, error: message };
    }
    if (rendered.unknown.length) log.info(`preview of ${p.uri}: no entry for ${rendered.unknown.slice(0, 20).join(', ')}${rendered.unknown.length > 20 ? ', …' : ''}`);
    const citations = job.groups.map((g, i) => ({ start: g.start, end: g.end, html: `<span class="citation" data-cites="${escapeHtml(g.items.map((x) => x.key).join(' '))}">${rendered.citations[i] ?? ''}</span>` }));
    if (job.suppressBibliography || !rendered.entries.length) return { citations, bibliography: null };
    const heading = job.sectionTitle ? `<h1 class="unnumbered" id="bibliography">${escapeHtml(job.sectionTitle)}</h1>\n` : '';
    const html = `${heading}<div id="refs" class="references csl-bib-body${rendered.hangingIndent ? ' hanging-indent' : ''}" role="list">\n${rendered.entries.join('\n')}\n</div>`;
    return { citations, bibliography: { html, ...(job.refs ? { open: job.refs.open, close: job.refs.close } : {}) } };
  });
}
