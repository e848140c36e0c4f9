/**
 * Pandoc's citation syntax, read as pandoc's Markdown reader reads it: which `@key`s of a Markdown
 * document are citations (`Cite` elements in `pandoc -t json`), and which parts of it are not
 * Markdown text at all (code, raw blocks, comments, math), for the citation list and the completion
 * context.
 *
 * Sources: pandoc's User's Guide ("Citation syntax", "Fenced code blocks", "Indented code blocks",
 * "Lists", "Example lists", "Raw HTML", "Raw TeX"), and pandoc's reader,
 * `src/Text/Pandoc/Readers/Markdown.hs` (`cite`, `textualCite`, `normalCite`, `str`, `inline`,
 * `codeBlockFenced`, `codeBlockIndented`, `rawListItem`, `listContinuation`, `emailBlockQuote`) and
 * `src/Text/Pandoc/Parsing/Citations.hs` (`citeKey`), as of pandoc 3.x; checked against pandoc
 * 2.17 by `test/unit/pandocCitations.test.ts` (fixtures and generated documents).
 *
 * The rules it follows:
 * - **A key** (`citeKey`): `@` then either a simple identifier (a letter, digit or `_`, then
 *   letters, digits and `_`, with single `:.#$%&-+?<>~/` inside, each followed by a letter, digit
 *   or `_`; and `:` or `/` before a `/`, for URLs), or `{…}` with balanced braces and no blank,
 *   whose content is the key (`@{https://example.com/paper}`, pandoc ≥ 2.11). `-@key` is the same
 *   key with the author suppressed.
 * - **Where a key may start** (`notAfterString`): not right after a word (`me@example.org`), after a
 *   `.` that is a word's (`x.@y`, but `...@y` is an ellipsis, then a citation), or after an
 *   emphasis closer (`*a*@b`). After `-`, `,`, `;`, `[`, a blank or a line break it may. This is
 *   why `[@doe99,@smith04]` cites both: the second `@` follows a `,`.
 * - **Example-list labels**: `(@good)` at the start of a list item is a label, not a citation, and
 *   `@good` in the text refers to that example; `[@good]` in brackets is still a citation.
 * - **Not Markdown text**: fenced code (```` ``` ```` and `~~~`, raw blocks ```` ```{=latex} ````,
 *   R Markdown and Quarto chunks); indented code (four spaces or a tab at a block's start, not a
 *   paragraph's lazy continuation; inside list items, relative to the item's content); inline code;
 *   HTML comments, tags and `<pre>`, `<script>`, `<style>`, `<textarea>` blocks; autolinks; TeX math
 *   (`$…$`, `$$…$$`); raw TeX (`\begin{env}…\end{env}` blocks, `\command{…}` inline); link
 *   destinations and reference definitions; YAML metadata blocks (the front matter's `nocite:` is
 *   read by `citations.ts`); backslash escapes (`\@`); Quarto shortcodes (`{{< … >}}`, which Quarto
 *   replaces before pandoc runs).
 *
 * Limits, on purpose: Markdown inside HTML block tags (`<div>`) is read as text, as pandoc does,
 * but an HTML block's indentation does not start code; emphasis closers are judged from the
 * characters around them, not by pandoc's full emphasis parser; setext headings, tables and line
 * blocks are read as paragraphs (their text is inline text either way); metadata strings other
 * than `nocite` are not read; a tab right after a block quote's `>` is not split as pandoc splits
 * it (it expands tabs, then strips one blank); an unclosed `<pre>` hides the rest of the document.
 * Linear in the text: searches remember their answers, nesting stops at 64 levels, and
 * {@link lastPandocScanWork} counts what was read.
 *
 * Offsets are UTF-16 code units. Blocks are read in `pandocBlocks.ts`, inline text in
 * `pandocInline.ts`, and what both share is in `pandocScanBase.ts`; none imports anything else: the
 * VS Code client reaches them through `cite/citationContext.ts`.
 */

import { parseBlocks } from './pandocBlocks.js';
import { scanInlines } from './pandocInline.js';
import { finder, resetWork, workDone, type Bracket, type PandocKey, type View } from './pandocScanBase.js';

export { bracedKeyEnds, pandocKeyAt } from './pandocInline.js';
export type { Bracket, PandocKey } from './pandocScanBase.js';

/** What {@link scanPandoc} finds. */
export interface PandocScan {
  /** Every citation, in document order. */
  keys: PandocKey[];
  /**
   * The parts read as Markdown text (paragraphs, headings, list items, …), `[start, end)` in
   * ascending order: a cursor outside them is in code, a comment, math, raw text or metadata.
   */
  text: { start: number; end: number }[];
  /** The YAML metadata blocks, `[start, end)` of their content, in order (the front matter first when there is one). */
  metadata: { start: number; end: number }[];
  /** Every pair of square brackets in the text (not in code, math, …), by the offset of its `[`. */
  brackets: Bracket[];
  /** The lines read as fenced div fences (`::: {#refs}`, `:::`), `[start, end)` of each line, in order. */
  divFences: { start: number; end: number }[];
}

/**
 * Whether an offset lies in one of a scan's sorted, disjoint regions (`PandocScan.text`), by
 * binary search.
 *
 * @param endIncluded - whether a region's end counts as in it (a cursor there extends the text)
 */
export function inRegions(regions: readonly { start: number; end: number }[], offset: number, endIncluded = false): boolean {
  let lo = 0, hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = regions[mid]!;
    if (offset < r.start) hi = mid - 1;
    else if (endIncluded ? offset > r.end : offset >= r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * The work of the last {@link scanPandoc}: characters and lines examined, searches included.
 *
 * @returns a count bounded by a multiple of the text's length (tests check linearity with it)
 */
export function lastPandocScanWork(): number {
  return workDone();
}

/**
 * Reads a Markdown document as pandoc does, for citations.
 *
 * @param text - the whole document (its YAML front matter included: it is skipped)
 * @returns the citations (with example-list references left out) and the text regions
 */
export function scanPandoc(text: string): PandocScan {
  resetWork(text.length);
  const lines: View[] = [];
  for (let s = 0; s <= text.length;) {
    let e = s;
    while (e < text.length && text[e] !== '\n' && text[e] !== '\r') e++;
    lines.push({ s, e });
    if (e >= text.length) break;
    s = e + (text[e] === '\r' && text[e + 1] === '\n' ? 2 : 1);
  }
  const paragraphs: View[][] = [];
  const examples = new Set<string>();
  const metadata: { start: number; end: number }[] = [];
  const divFences: { start: number; end: number }[] = [];
  parseBlocks({ t: text, next: finder(text), fences: new Map(), metadata, divFences }, lines, 0, false, paragraphs, examples);
  const keys: PandocKey[] = [];
  const regions: { start: number; end: number }[] = [];
  const brackets: Bracket[] = [];
  for (const p of paragraphs) scanInlines(text, p, keys, regions, brackets);
  keys.sort((a, b) => a.offset - b.offset);
  regions.sort((a, b) => a.start - b.start);
  brackets.sort((a, b) => a.start - b.start);
  return { keys: keys.filter((k) => k.bracketed || !examples.has(k.key)), text: regions, metadata, brackets, divFences: divFences.sort((a, b) => a.start - b.start) };
}
