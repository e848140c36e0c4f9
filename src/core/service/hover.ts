/**
 * Hover on a cited key (LSP `textDocument/hover`): the entry's card from the corpus or a library
 * (else the bibliography's own entry), its formatted reference, and whether the bibliography has it.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Hover, MarkupKind, Position } from 'vscode-languageserver-types';
import { citationAt } from '../citations.js';
import { bibFieldsText } from './bibFieldsText.js';
import { bibEntryMarkdown, entryMarkdown, escapeMarkdown } from './present.js';
import { bibEntries, rangeOf, type ServiceContext } from './serviceContext.js';
import { NOT_CANCELLED, type Cancellation } from './types.js';

/**
 * The entry behind the cited key under the cursor, and whether the bibliography has it.
 *
 * @param position - LSP position (0-based line, UTF-16 character)
 * @returns Markdown over the key's range; undefined off a citation or when cancelled
 */
export async function hover(ctx: ServiceContext, doc: TextDocument, position: Position, token: Cancellation = NOT_CANCELLED): Promise<Hover | undefined> {
  const c = citationAt(doc.getText(), doc.offsetAt(position), doc.languageId, await ctx.crossrefsOf(doc));
  if (!c) return undefined;
  const bib = await ctx.bibliographyOf(doc);
  if (token.isCancellationRequested) return undefined;
  const own = bibEntries(bib).find((b) => b.entry.key.toLowerCase() === c.key.toLowerCase());
  const { corpus } = ctx.opts.corpus();
  const entry = ctx.lookup(c.key);
  const where = own ? l10n.t('✓ in {0}', ctx.displayPath(own.source.uri))
    : bib?.files.length ? l10n.t('✗ not in {0}', bib.files.map((s) => ctx.displayPath(s.uri)).join(', ')) : l10n.t('no bibliography declared');
  let md: string;
  if (entry) {
    md = entryMarkdown(corpus, entry, { read: ctx.isRead(entry.key), detailsLink: !!ctx.opts.clientUi?.() });
    const ref = await ctx.formatted(entry, doc.uri);
    if (ref) md += `\n\n---\n\n${escapeMarkdown(ref)}`;
  } else if (own) {
    md = bibEntryMarkdown(c.key, bibFieldsText(own.entry.fields));
  } else {
    md = escapeMarkdown(l10n.t('Unknown key {0}', c.key));
  }
  md += `\n\n---\n\n${escapeMarkdown(where)}`;
  return { contents: { kind: MarkupKind.Markdown, value: md }, range: rangeOf(doc, c) };
}
