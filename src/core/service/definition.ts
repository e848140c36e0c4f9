/**
 * Go to definition on a cited key (LSP `textDocument/definition`), and the read-only BibTeX
 * document it may point at, `mlsys-papers:/<key>.bib`.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Location, Position, Range } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { entryKeyOffset, findBibKey, lineColumnAt } from '../bibliography/bibtexFile.js';
import { toBibtex } from '../cite/writeBibtex.js';
import { citationAtIn } from '../cite/citations.js';
import { bibitemOf } from '../bibliography/thebibliography.js';
import { bibDocument, type ServiceContext } from './serviceContext.js';
import { ENTRY_SCHEME, NOT_CANCELLED, type Cancellation } from './types.js';

/**
 * The key's entry in the document's bibliography files (a `.bib` entry's key in `@type{key,`, a
 * CSL-JSON or CSL-YAML item's `id` value, as the readers placed them); else its `\bibitem` in the
 * document's thebibliography; else its line in the library that holds it; else, for an editor with
 * our UI, the corpus entry's BibTeX at `mlsys-papers:/<key>.bib`. Keys are compared ignoring case,
 * as BibTeX does; a CSL item whose `id` matches exactly comes before one that matches only ignoring
 * case (pandoc's ids are case-sensitive).
 *
 * @param position - LSP position (0-based line, UTF-16 character)
 * @returns an empty range at the key; undefined off a citation, for an unknown key, or when cancelled
 */
export async function definition(ctx: ServiceContext, doc: TextDocument, position: Position, token: Cancellation = NOT_CANCELLED): Promise<Location | undefined> {
  const c = citationAtIn(bibDocument(doc), doc.offsetAt(position), await ctx.crossrefsOf(doc));
  if (!c) return undefined;
  const bib = await ctx.bibliographyOf(doc);
  if (token.isCancellationRequested) return undefined;
  for (const s of bib?.files ?? []) {
    // The entry as the reader found it (BibTeX uses the first of duplicate keys); else, in a .bib, a search of the text.
    const exact = s.format === 'bibtex' ? undefined : s.entries.find((e) => e.key === c.key);
    const own = exact ?? s.entries.find((e) => e.key.toLowerCase() === c.key.toLowerCase());
    const placed = own ? entryKeyOffset(s.text, own) : -1;
    const at = placed >= 0 || s.format !== 'bibtex' ? placed : findBibKey(s.text, c.key);
    if (at >= 0) {
      const { line, column } = lineColumnAt(s.text, at);
      const pos = Position.create(line - 1, column - 1);
      return Location.create(s.uri.toString(), Range.create(pos, pos));
    }
  }
  // The \bibitem of the document's thebibliography that defines the key.
  const bibitem = bibitemOf(bib?.thebibliography, c.key);
  if (bibitem) {
    const pos = Position.create(bibitem.item.line, bibitem.item.character);
    return Location.create(bibitem.source.uri.toString(), Range.create(pos, pos));
  }
  const library = ctx.lookup(c.key)?.library;
  if (library) return Location.create(library.uri, Range.create(library.line - 1, 0, library.line - 1, 0));
  if (ctx.clientUi() && ctx.opts.corpus().corpus.entry(c.key)) return Location.create(URI.from({ scheme: ENTRY_SCHEME, path: `/${c.key}.bib` }).toString(), Range.create(0, 0, 0, 0));
  return undefined;
}

/**
 * The BibTeX shown for `mlsys-papers:/<key>.bib`: the corpus entry under a comment with its title
 * and summary, or a one-line comment when the corpus has no such key.
 *
 * @param uri - the document's URI as a string
 */
export function entryDocument(ctx: ServiceContext, uri: string): string {
  const key = URI.parse(uri).path.replace(/^\//, '').replace(/\.bib$/, '');
  const e = ctx.opts.corpus().corpus.entry(key);
  if (!e) return `% MLSys Papers: no entry ${key}\n`;
  return `% ${e.title}\n% From the MLSys Papers corpus.${e.summary ? ` ${e.summary}` : ''}\n\n${toBibtex(e)}`;
}
