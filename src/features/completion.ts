/**
 * Citation-key completion inside LaTeX citation commands and Pandoc citations, ranked by our search.
 * Context detection is `core/context.ts`; this is the thin provider.
 */
import * as vscode from 'vscode';
import type { BibEntry } from '../core/bib/bibfile.js';
import { foldAscii } from '../core/cite/key.js';
import { citeContextAt, LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../core/context.js';
import type { Bibliographies } from './bibliography.js';
import type { Formatter } from './formatted.js';
import type { CorpusService } from './corpusService.js';
import { entryMarkdown, escapeMarkdown, venueYear } from './present.js';
import type { ReadState } from './readState.js';

/** How many candidates one completion request returns. */
const LIMIT = 100;

/** Document selector: every language we read citations in (`core/context.ts`), files and unsaved documents. */
export const CITATION_SELECTOR: vscode.DocumentSelector = [...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES].map((language) => ({ language }));

/**
 * The folded words a bibliography entry is matched on (key, title, authors, year), with the whole
 * key as one more. Kept per parsed entry: a .bib is parsed once per change of the file, while this
 * is asked for on every keystroke.
 */
const entryWords = new WeakMap<BibEntry, string[]>();
function wordsOf(b: BibEntry): string[] {
  let words = entryWords.get(b);
  if (!words) {
    words = [...foldAscii([b.key, b.fields.title, b.fields.author, b.fields.year].join(' ')).split(/[^a-z0-9]+/), foldAscii(b.key)];
    entryWords.set(b, words);
  }
  return words;
}

/** Completion of citation keys from the corpus. */
export class CitationCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly corpus: CorpusService, private readonly read: ReadState, private readonly formatter: Formatter,
    private readonly bibs: Bibliographies,
  ) {}

  /**
   * The documentation (the entry card and its formatted reference) is made only for the item the
   * user looks at, not for the hundred items of every keystroke.
   */
  resolveCompletionItem(item: vscode.CompletionItem): vscode.CompletionItem {
    const key = typeof item.label === 'string' ? item.label : item.label.label;
    const entry = this.corpus.corpus.entry(key);
    if (!entry || item.documentation) return item;
    const md = entryMarkdown(this.corpus.corpus, entry, { read: this.read.isRead(entry.key) });
    try {
      const [ref] = this.formatter.format([entry]);
      if (ref) md.appendMarkdown(`\n\n---\n\n${escapeMarkdown(ref)}`);
    } catch {
      // A broken custom style is reported by the formatting commands.
    }
    item.documentation = md;
    return item;
  }

  async provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.CompletionList | undefined> {
    // LaTeX: the scanner must see the whole document to know whether the cursor is in a comment,
    // verbatim text or an \iffalse block (about 3 ms for a 300 KB paper). Markdown context
    // detection looks at most 2,000 characters back and 1,000 ahead: only that window is read.
    const latex = LATEX_LANGUAGES.has(doc.languageId);
    const startPos = latex ? new vscode.Position(0, 0) : doc.positionAt(Math.max(0, doc.offsetAt(pos) - 2000));
    const base = doc.offsetAt(startPos);
    const window = latex ? doc.getText() : doc.getText(new vscode.Range(startPos, doc.positionAt(doc.offsetAt(pos) + 1000)));
    const local = citeContextAt(window, doc.offsetAt(pos) - base, doc.languageId);
    if (!local) return undefined;
    const ctx = { ...local, keyStart: local.keyStart + base, keyEnd: local.keyEnd + base };
    // In Markdown, only offer keys right after '@' (inside brackets, the user types '@' first).
    if (ctx.kind === 'pandoc' && doc.getText(new vscode.Range(doc.positionAt(ctx.keyStart - 1), doc.positionAt(ctx.keyStart))) !== '@') return undefined;
    const c = this.corpus.corpus;
    const entries = ctx.prefix
      ? this.corpus.index.search(ctx.prefix, LIMIT).map((h) => h.entry)
      : c.entries.slice(0, LIMIT);
    const start = doc.positionAt(ctx.keyStart);
    const range = {
      inserting: new vscode.Range(start, pos),
      replacing: new vscode.Range(start, doc.positionAt(ctx.keyEnd)),
    };
    // The document's own bibliography: its entries that the corpus does not have, matched on every
    // typed word (prefix of a word of key, title, author or year), come first.
    const bib = await this.bibs.of(doc);
    const words = foldAscii(ctx.prefix).split(/[^a-z0-9]+/).filter(Boolean);
    const own = (bib?.sources ?? []).flatMap((s) => s.entries)
      .filter((b) => !c.entry(b.key) && !ctx.existing.includes(b.key))
      .filter((b) => {
        const hay = wordsOf(b);
        return words.every((w) => hay.some((h) => h.startsWith(w)));
      })
      .slice(0, LIMIT)
      .map((b) => {
        const item = new vscode.CompletionItem({ label: b.key, description: b.fields.year }, vscode.CompletionItemKind.Reference);
        item.detail = b.fields.title?.replace(/[{}]/g, '');
        item.documentation = new vscode.MarkdownString().appendText([b.fields.author, b.fields.journal ?? b.fields.booktitle, b.fields.year].filter(Boolean).join(' · '));
        return item;
      });
    const items = [...own, ...entries
      .filter((e) => !ctx.existing.includes(e.key))
      .map((e) => {
        const item = new vscode.CompletionItem({ label: e.key, description: venueYear(e) }, vscode.CompletionItemKind.Reference);
        item.detail = e.title;
        return item;
      })];
    items.forEach((item, rank) => {
      const key = typeof item.label === 'string' ? item.label : item.label.label;
      item.range = range;
      item.insertText = key;
      // Our rank decides the order, and the typed text decides nothing more: every item's
      // filter text is exactly what was typed, so VS Code's fuzzy filter keeps them all.
      item.sortText = rank.toString().padStart(4, '0');
      item.filterText = ctx.prefix || key;
    });
    // Re-query on every keystroke so the ranking follows the text.
    return new vscode.CompletionList(items, true);
  }
}

/** Registers the provider for LaTeX (`{` and `,` trigger it) and Markdown (`@` triggers it). */
export function registerCompletion(corpus: CorpusService, read: ReadState, formatter: Formatter, bibs: Bibliographies): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider(CITATION_SELECTOR, new CitationCompletionProvider(corpus, read, formatter, bibs), '{', ',', '@');
}
