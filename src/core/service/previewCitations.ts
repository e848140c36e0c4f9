/**
 * What the Markdown preview needs to render a document's citations as `pandoc --citeproc` does:
 * the citations (`markdown/citationGroups.ts`, over the one citation reader), the CSL item of every
 * key they cite, the uncited keys of `nocite:`, and where the bibliography goes. The items come
 * from where pandoc takes them, then from what the citation service knows besides:
 * 1. the front matter's `references:` (CSL items written in the document);
 * 2. the document's bibliography files (`bibliography:` in the front matter, a Quarto project's or a
 *    bookdown book's, as `resolveBibliography` resolves it): a CSL item as written, a `.bib` entry
 *    converted as a library entry is (`library/entries.ts`, then `cite/formatCitation.ts`'s `toCslJson`);
 * 3. the corpus and the user's libraries (the catalog's lookup).
 * Keys are matched exactly, as citeproc matches them. A document that declares no bibliography and
 * cites nothing the corpus or a library knows is not rendered at all: its `@name`s are more likely
 * mentions than citations (a README's `@user`).
 */
import { URI, Utils } from 'vscode-uri';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { frontMatterOf } from '../markdown/frontMatter.js';
import { nociteOf } from '../cite/citations.js';
import { cslName, toCslJson } from '../cite/formatCitation.js';
import { bibtexPerson, entryFromBibtex, splitNames } from '../library/entries.js';
import { citationGroups, refsDivOf, type CiteGroup, type RefsDiv } from '../markdown/citationGroups.js';
import { isCrossReference } from '../markdown/crossref.js';
import { scanPandoc } from '../markdown/pandoc.js';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import type { ServiceContext } from './serviceContext.js';

/** A document's citations, ready for a CSL processor (see the module's documentation). */
export interface PreviewCitations {
  /** The citations, in document order. */
  groups: CiteGroup[];
  /** The CSL item of every cited or uncited key that has one. */
  items: Map<string, Record<string, unknown>>;
  /** The keys `nocite:` adds to the bibliography (every item of the document's own, for `@*`). */
  uncited: string[];
  /** The `::: {#refs}` div the bibliography goes into; at the end of the document when absent. */
  refs?: RefsDiv;
  /** `suppress-bibliography: true`: no bibliography. */
  suppressBibliography: boolean;
  /** `reference-section-title:`: the heading pandoc puts before the bibliography. */
  sectionTitle?: string;
}

/**
 * A `.bib` entry or CSL item of a bibliography file as a CSL item: a CSL item as written; a `.bib`
 * entry as a library entry reads (`entryFromBibtex`, then `toCslJson`), with the editors of a
 * work that has authors too (an edited book a chapter is in), which a library entry does not keep.
 */
function cslItemOf(e: BibEntry, uri: URI): Record<string, unknown> {
  if (e.csl) return e.csl;
  const item = toCslJson(entryFromBibtex({ key: e.key, type: e.type, fields: e.fields, start: 0, end: 0, line: e.line ?? 0 }, { uri: uri.toString(), name: Utils.basename(uri) }));
  const { author, editor } = e.fields;
  if (author && editor) item.editor = splitNames(editor.slice(0, 20_000)).filter((n) => n.toLowerCase() !== 'others').slice(0, 200).map((n) => cslName(bibtexPerson(n)));
  return item;
}

/** A front matter's `references:` list as CSL items by `id` (pandoc's User's Guide, "Specifying bibliographic data"). */
function inlineReferences(value: unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (!Array.isArray(value)) return out;
  for (const item of value) {
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const id = (item as Record<string, unknown>).id;
      if (typeof id === 'string' || typeof id === 'number') out.set(String(id), item as Record<string, unknown>);
    }
  }
  return out;
}

/**
 * The citations of a Markdown document and their items, for the preview.
 *
 * @param doc - the document as the preview renders it (its text may be newer than an open document's)
 * @returns no citations when the document declares no bibliography and cites no key the corpus or
 *   a library has
 */
export async function previewCitations(ctx: ServiceContext, doc: TextDocument): Promise<PreviewCitations> {
  const text = doc.getText();
  const scan = scanPandoc(text);
  const syntax = await ctx.crossrefsOf(doc);
  const groups = citationGroups(text, scan, (key) => !syntax || !isCrossReference(key, syntax));
  const meta = frontMatterOf(text)?.data ?? {};
  const nocite = nociteOf(text, scan);
  const inline = inlineReferences(meta.references);
  const bib = await ctx.bibliographyOf(doc);
  const own = new Map<string, { entry: BibEntry; uri: URI }>();
  for (const f of bib?.files ?? []) for (const entry of f.entries) if (!own.has(entry.key)) own.set(entry.key, { entry, uri: f.uri });

  const items = new Map<string, Record<string, unknown>>();
  const itemOf = (key: string): Record<string, unknown> | undefined => {
    if (items.has(key)) return items.get(key);
    const o = own.get(key);
    const entry = inline.has(key) || o ? undefined : ctx.lookup(key);
    const item = inline.get(key) ?? (o ? cslItemOf(o.entry, o.uri) : entry ? toCslJson(entry) : undefined);
    if (item) items.set(key, item);
    return item;
  };
  const cited = groups.flatMap((g) => g.items.map((i) => i.key));
  let known = false;
  for (const key of cited) if (itemOf(key)) known = true;
  const declares = inline.size > 0 || !!bib?.files.length || !!bib?.missing.length || !!bib?.unreadable?.length;
  if (!declares && !known) return { groups: [], items: new Map(), uncited: [], suppressBibliography: false };
  const uncited = nocite.all ? [...inline.keys(), ...own.keys()] : nocite.cited.map((c) => c.key);
  for (const key of uncited) itemOf(key);
  const title = meta['reference-section-title'];
  return {
    groups,
    items,
    uncited: [...new Set(uncited)],
    refs: refsDivOf(text, scan),
    suppressBibliography: meta['suppress-bibliography'] === true,
    ...(typeof title === 'string' && title.trim() ? { sectionTitle: title.trim() } : {}),
  };
}
