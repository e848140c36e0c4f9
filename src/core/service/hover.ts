/**
 * Hover on a cited key (LSP `textDocument/hover`): the entry's card from the corpus or a library
 * (else the bibliography's own entry, or the text of the `\bibitem` that defines the key), its
 * formatted reference, whether the bibliography has it, and, when the bibliography's entry is a
 * preprint whose version of record the corpus has, "Published as …".
 */
import { URI } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Hover, MarkupKind, Position } from 'vscode-languageserver-types';
import { citationAtIn } from '../cite/citations.js';
import { bibitemOf, bibitemPlainText } from '../bibliography/thebibliography.js';
import { bibFieldsText } from './bibFieldsText.js';
import { undeclaredNote } from './citationDiagnostics.js';
import { bibEntryMarkdown, codeSpan, entryMarkdown, escapeMarkdown } from './entryCards.js';
import { publishedAs } from './recordChecks.js';
import { topicLabelsOf } from '../config/settings.js';
import { bibDocument, bibEntries, rangeOf, type ServiceContext } from './serviceContext.js';
import { NOT_CANCELLED, type Cancellation } from './types.js';

/** At most this many characters of a `\bibitem`'s text are shown. */
const HOVER_BIBITEM_MAX = 400;

/**
 * The entry behind the cited key under the cursor, and whether the bibliography has it.
 *
 * @param position - LSP position (0-based line, UTF-16 character)
 * @returns Markdown over the key's range; undefined off a citation or when cancelled
 */
export async function hover(ctx: ServiceContext, doc: TextDocument, position: Position, token: Cancellation = NOT_CANCELLED): Promise<Hover | undefined> {
  const c = citationAtIn(bibDocument(doc), doc.offsetAt(position), await ctx.crossrefsOf(doc));
  if (!c) return undefined;
  const bib = await ctx.bibliographyOf(doc);
  if (token.isCancellationRequested) return undefined;
  const own = bibEntries(bib).find((b) => b.entry.key.toLowerCase() === c.key.toLowerCase());
  const bibitem = own ? undefined : bibitemOf(bib?.thebibliography, c.key);
  const { corpus } = ctx.opts.corpus();
  const entry = ctx.lookup(c.key);
  const searched = [...(bib?.files ?? []), ...(bib?.thebibliography ?? [])].map((s) => ctx.displayPath(s.uri)).join(', ');
  let where = own ? l10n.t('✓ in {0}', ctx.displayPath(own.source.uri))
    : bibitem ? l10n.t('✓ in {0}', ctx.displayPath(bibitem.source.uri))
      : searched ? l10n.t('✗ not in {0}', searched) : l10n.t('no bibliography declared');
  // Files nobody declared, found beside the document: the hover says so.
  if (bib?.undeclared) where += ` (${undeclaredNote(bib.undeclared, searched)})`;
  else if (bib?.unread?.length && !own && !bibitem) where += ` (${l10n.t('not read: {0}', bib.unread.join(', '))})`;
  let md: string;
  if (entry) {
    const { settings, language } = await ctx.opts.config(URI.parse(doc.uri));
    md = entryMarkdown(corpus, entry, { topicLabels: topicLabelsOf(settings, language), read: ctx.isRead(entry.key), detailsLink: !!ctx.clientUi() });
    const ref = await ctx.formatted(entry, doc.uri);
    if (ref) md += `\n\n---\n\n${escapeMarkdown(ref)}`;
  } else if (own) {
    md = bibEntryMarkdown(c.key, bibFieldsText(own.entry.fields));
  } else if (bibitem) {
    // The \bibitem's text as plain text (escaped: it is LaTeX the user wrote, not Markdown).
    md = [codeSpan(c.key), escapeMarkdown(bibitemPlainText(bibitem.item, 'text', HOVER_BIBITEM_MAX))].filter(Boolean).join('\n\n');
  } else {
    md = escapeMarkdown(l10n.t('Unknown key {0}', c.key));
  }
  // The bibliography cites a preprint whose version of record the corpus has: say where it appeared.
  const published = own && publishedAs(ctx, own.entry);
  if (published) md += `\n\n${escapeMarkdown(published.text)}`;
  md += `\n\n---\n\n${escapeMarkdown(where)}`;
  return { contents: { kind: MarkupKind.Markdown, value: md }, range: rangeOf(doc, c) };
}
