/**
 * Completion of citation keys (LSP `textDocument/completion` and `completionItem/resolve`): the
 * document's own bibliography entries that the corpus lacks, then the `\bibitem` keys of its
 * thebibliography that the corpus lacks, then the corpus and libraries as the search index ranks them.
 */
import { URI } from 'vscode-uri';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItem, CompletionItemKind, CompletionList, MarkupKind, Position, Range } from 'vscode-languageserver-types';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import { foldAscii } from '../cite/key.js';
import { citeContextAt } from '../cite/citationContext.js';
import type { LatexBibitem } from '../latex/bibitems.js';
import { bibitemPlainText } from '../bibliography/thebibliography.js';
import type { Entry } from '../corpus/schema.js';
import { firstEntries } from '../search/corpus/corpusIndex.js';
import { bibFieldsText } from './bibFieldsText.js';
import { bibEntryMarkdown, entryMarkdown, escapeMarkdown, venueYear } from './entryCards.js';
import { topicLabelsOf } from '../config/settings.js';
import { bibEntries, type ServiceContext } from './serviceContext.js';
import { NOT_CANCELLED, type Cancellation } from './types.js';

/** How many candidates one completion request returns. */
export const COMPLETION_LIMIT = 100;

/** The words a bibliography entry is matched on (key, title, authors, year), kept per parsed entry. */
const entryWords = new WeakMap<BibEntry, string[]>();
function wordsOf(b: BibEntry): string[] {
  let words = entryWords.get(b);
  if (!words) {
    words = [...foldAscii([b.key, b.fields.title, b.fields.author, b.fields.year].join(' ')).split(/[^a-z0-9]+/), foldAscii(b.key)];
    entryWords.set(b, words);
  }
  return words;
}

/** The words a `\bibitem` is matched on (key, label, text), kept per scanned item. */
const bibitemWords = new WeakMap<LatexBibitem, string[]>();
function itemWordsOf(i: LatexBibitem): string[] {
  let words = bibitemWords.get(i);
  if (!words) {
    words = [...foldAscii([i.key, bibitemPlainText(i, 'label', 200), bibitemPlainText(i, 'text', 400)].join(' ')).split(/[^a-z0-9]+/), foldAscii(i.key)];
    bibitemWords.set(i, words);
  }
  return words;
}

/** Data kept on a completion item for {@link resolveCompletion}. */
interface ItemData {
  key: string;
  uri: string;
}

/**
 * Citation keys at a position inside a LaTeX citation command or a Pandoc citation: at most
 * {@link COMPLETION_LIMIT} from the bibliography and as many from the index, ranked by `sortText`.
 *
 * @param position - LSP position (0-based line, UTF-16 character)
 * @returns an incomplete list (asked again on every keystroke), or undefined outside a citation
 *   or when cancelled
 */
export async function complete(ctx: ServiceContext, doc: TextDocument, position: Position, token: Cancellation = NOT_CANCELLED): Promise<CompletionList | undefined> {
  // The scanners see the whole document, to know whether the cursor is in a comment, verbatim
  // text or an \iffalse block (LaTeX), or in code, math or a comment (Markdown): a few ms for
  // a 300 KB paper.
  const text = doc.getText();
  const cite = citeContextAt(text, doc.offsetAt(position), doc.languageId, await ctx.crossrefsOf(doc));
  if (!cite) return undefined;
  // In Markdown, only offer keys right after '@' (inside brackets, the user types '@' first).
  if (cite.syntax === 'pandoc' && text[cite.keyStart - 1] !== '@') return undefined;
  const view = ctx.opts.corpus();
  const { corpus, index } = view;
  const hits = cite.prefix ? index.search(cite.prefix, COMPLETION_LIMIT).map((h) => h.entry) : firstEntries(corpus, COMPLETION_LIMIT);
  const bib = await ctx.bibliographyOf(doc);
  if (token.isCancellationRequested) return undefined;
  // The document's own bibliography: its entries that the corpus does not have, matched on
  // every typed word (prefix of a word of key, title, author or year), come first.
  const words = foldAscii(cite.prefix).split(/[^a-z0-9]+/).filter(Boolean);
  const typed = (hay: readonly string[]) => words.every((w) => hay.some((h) => h.startsWith(w)));
  // A bibliography that is a loaded library is searched through the index instead (it may hold 100,000 entries).
  const own = bibEntries(bib).filter((b) => !view.isLibraryReady(b.source.uri.toString())).map((b) => b.entry)
    .filter((b) => !corpus.entry(b.key) && !cite.existing.includes(b.key) && typed(wordsOf(b)))
    .slice(0, COMPLETION_LIMIT)
    .map((b): CompletionItem => ({
      label: b.key,
      labelDetails: { description: b.fields.year },
      kind: CompletionItemKind.Reference,
      detail: b.fields.title?.replace(/[{}]/g, ''),
      documentation: { kind: MarkupKind.Markdown, value: bibEntryMarkdown(b.key, bibFieldsText(b.fields)) },
    }));
  // The document's thebibliography: its \bibitem keys (the last of a key, as LaTeX keeps it) that no entry above offers.
  const offered = new Set([...own.map((i) => i.label), ...cite.existing]);
  const bibitems = new Map((bib?.thebibliography ?? []).flatMap((s) => s.items.map((i) => [i.key, i] as const)));
  const fromBibitems = [...bibitems.values()]
    .filter((i) => !offered.has(i.key) && !corpus.entry(i.key) && typed(itemWordsOf(i)))
    .slice(0, COMPLETION_LIMIT)
    .map((i): CompletionItem => ({
      label: i.key,
      kind: CompletionItemKind.Reference,
      detail: bibitemPlainText(i, 'label', 80) || undefined,
      documentation: i.text ? { kind: MarkupKind.PlainText, value: bibitemPlainText(i, 'text', 500) } : undefined,
    }));
  // The document's own bibliography first, as when it is scanned below: read as a library, its
  // entries are among the hits.
  const declared = new Set(bib?.files.map((f) => f.uri.toString()) ?? []);
  const isOwn = (e: Entry) => !!e.library && declared.has(e.library.uri);
  const ranked = [...hits.filter(isOwn), ...hits.filter((e) => !isOwn(e))];
  const fromCorpus = ranked.map((e) => view.toCite(e.key) ?? e).filter((e) => !cite.existing.includes(e.key)).map((e): CompletionItem => ({
    // A corpus entry whose work the user's library holds is offered under the user's key.
    label: e.key,
    labelDetails: { description: e.library ? [venueYear(e), e.library.name].filter(Boolean).join(' · ') : venueYear(e) },
    kind: CompletionItemKind.Reference,
    detail: e.title,
    data: { key: e.key, uri: doc.uri } satisfies ItemData,
  }));
  const range = Range.create(doc.positionAt(cite.keyStart), doc.positionAt(cite.keyEnd));
  const insert = Range.create(doc.positionAt(cite.keyStart), position);
  const items = [...own, ...fromBibitems, ...fromCorpus].map((item, rank): CompletionItem => ({
    ...item,
    // Our rank decides the order, and the typed text decides nothing more: every item's
    // filter text is exactly what was typed, so the editor's fuzzy filter keeps them all.
    sortText: rank.toString().padStart(4, '0'),
    filterText: cite.prefix || item.label,
    textEdit: { newText: item.label, insert, replace: range },
  }));
  // Incomplete: the editor asks again on every keystroke, so the ranking follows the text.
  return CompletionList.create(items, true);
}

/**
 * Adds the documentation (entry card and formatted reference, Markdown) to a completion item of
 * {@link complete}; an item that has documentation or names no known entry comes back unchanged.
 */
export async function resolveCompletion(ctx: ServiceContext, item: CompletionItem): Promise<CompletionItem> {
  const data = item.data as ItemData | undefined;
  if (!data?.key || item.documentation) return item;
  const { corpus } = ctx.opts.corpus();
  const entry = ctx.lookup(data.key);
  if (!entry) return item;
  const { settings, language } = await ctx.opts.config(URI.parse(data.uri));
  let md = entryMarkdown(corpus, entry, { topicLabels: topicLabelsOf(settings, language), read: ctx.isRead(entry.key) });
  const ref = await ctx.formatted(entry, data.uri);
  if (ref) md += `\n\n---\n\n${escapeMarkdown(ref)}`;
  return { ...item, documentation: { kind: MarkupKind.Markdown, value: md } };
}
