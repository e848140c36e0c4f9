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
 * Offsets are UTF-16 code units. Imports nothing: the VS Code client reaches it through `context.ts`.
 */

/** A citation key found in the text: `offset` and `length` of the key (without `@` or braces), in UTF-16 code units. */
export interface PandocKey {
  key: string;
  offset: number;
  length: number;
  /** Whether `-@key` (author suppressed). */
  suppressAuthor: boolean;
  /** Whether it stands inside square brackets (`[@key]`, `[see @key, p. 3]`), not in the running text. */
  bracketed: boolean;
}

/** What {@link scanPandoc} finds. */
export interface PandocScan {
  /** Every citation, in document order. */
  keys: PandocKey[];
  /**
   * The parts read as Markdown text (paragraphs, headings, list items, …), `[start, end)` in
   * ascending order: a cursor outside them is in code, a comment, math, raw text or metadata.
   */
  text: { start: number; end: number }[];
}

/** A piece of one line of the document: `[s, e)`, the line break excluded. */
interface View {
  s: number;
  e: number;
}

const ALNUM = /[\p{L}\p{N}]/u;
const isAlnum = (c: string): boolean => ALNUM.test(c);
/** Whether the code point `c` is a letter or digit (Haskell's `isAlphaNum`), ASCII decided without a regular expression. */
const isAlnumCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 128 && ALNUM.test(String.fromCodePoint(c)));
/** The length in UTF-16 units of the code point `c`. */
const unitsOf = (c: number): number => (c > 0xffff ? 2 : 1);
const REGCHAR = /[\p{L}\p{N}_]/u;
const INTERNAL_PUNCT = ':.#$%&-+?<>~/';

/**
 * The simple key (`simpleCiteIdentifier`) starting at `i`; it may start with `*` (pandoc's `@*`,
 * which cites every entry in `nocite`).
 *
 * @returns the offset after it, or -1 when no key starts there
 */
function simpleKeyEnd(t: string, i: number, end: number): number {
  if (i >= end || !(REGCHAR.test(charAt(t, i)) || t[i] === '*')) return -1;
  let k = i + charAt(t, i).length;
  while (k < end) {
    const c = charAt(t, k);
    if (REGCHAR.test(c)) { k += c.length; continue; }
    const next = k + 1 < end ? charAt(t, k + 1) : '';
    if (INTERNAL_PUNCT.includes(c) && next && REGCHAR.test(next)) { k++; continue; }
    if ((c === ':' || c === '/') && next === '/') { k++; continue; }
    break;
  }
  return k;
}

/** The code point at `i` as a string (one or two UTF-16 units). */
function charAt(t: string, i: number): string {
  const cp = t.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/**
 * The braced key `{…}` at `i` (`charsInBalanced '{' '}'` of non-blank characters).
 *
 * @returns the offset after the closing brace, or -1
 */
function bracedKeyEnd(t: string, i: number, end: number): number {
  if (t[i] !== '{') return -1;
  let depth = 0;
  for (let k = i; k < end; k++) {
    const c = t[k]!;
    if (/\s/.test(c)) return -1;
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return k + 1;
  }
  return -1;
}

/**
 * The citation key written right after an `@` (pandoc's `citeKey`: a simple key, or `{…}`).
 *
 * @param t - the text
 * @param i - the offset right after the `@`
 * @returns the key's `[keyStart, keyEnd)` and where the citation key's syntax ends (after a `}`),
 *   or undefined when no key starts there
 */
export function pandocKeyAt(t: string, i: number): { keyStart: number; keyEnd: number; end: number } | undefined {
  const simple = simpleKeyEnd(t, i, t.length);
  if (simple > 0) return { keyStart: i, keyEnd: simple, end: simple };
  const braced = bracedKeyEnd(t, i, t.length);
  return braced > 0 ? { keyStart: i + 1, keyEnd: braced - 1, end: braced } : undefined;
}

/**
 * The column of offset `k` on its line, tabs expanded to the next multiple of 4 as pandoc expands
 * them before it parses (`--tab-stop`, 4 by default): a tab after `> ` is two columns, not four.
 */
function columnOf(t: string, k: number): number {
  let s = k;
  while (s > 0 && t[s - 1] !== '\n' && t[s - 1] !== '\r') s--;
  work += k - s;
  let cols = 0;
  for (let j = s; j < k; j++) cols = t[j] === '\t' ? cols + 4 - (cols % 4) : cols + 1;
  return cols;
}

/** Leading blank columns of a view (relative to where it starts, tabs expanded from the line's start), and where its text starts. */
function indentOf(t: string, v: View): { cols: number; at: number } {
  const base = t[v.s] === ' ' || t[v.s] === '\t' ? columnOf(t, v.s) : 0;
  let col = base, k = v.s;
  for (; k < v.e; k++) {
    const c = t[k];
    if (c === ' ') col++;
    else if (c === '\t') col += 4 - (col % 4);
    else break;
  }
  return { cols: col - base, at: k };
}

/** The view with up to `n` columns of leading blanks removed (a tab that reaches past `n` is removed whole). */
function strip(t: string, v: View, n: number): View {
  const base = t[v.s] === ' ' || t[v.s] === '\t' ? columnOf(t, v.s) : 0;
  let col = base, k = v.s;
  while (k < v.e && col - base < n) {
    const c = t[k];
    if (c === ' ') col++;
    else if (c === '\t') col += 4 - (col % 4);
    else break;
    k++;
  }
  return { s: k, e: v.e };
}

const isBlankView = (t: string, v: View): boolean => indentOf(t, v).at >= v.e;
const lineOf = (t: string, v: View): string => t.slice(v.s, v.e);

// The fence takes every fence character (the lookahead), so the info string cannot trade characters with it.
const FENCE = /^ {0,3}(`{3,}(?!`)|~{3,}(?!~))(.*)$/;
const HRULE = /^ {0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^ {0,3}[*+-](?=[ \t]|$)/;
const ROMAN = '[ivxlcdmIVXLCDM]+';
const EXAMPLE_LABEL = '@(?:[\\p{L}\\p{N}]+(?:[_-][\\p{L}\\p{N}]+)*)?';
const ORDINAL = `(?:\\d{1,9}|#|[a-zA-Z]|${ROMAN}|${EXAMPLE_LABEL})`;
const ORDERED = new RegExp(`^ {0,3}(?:\\((${ORDINAL})\\)|(${ORDINAL})[.)])(?=[ \\t]|$)`, 'u');
const DEF_MARKER = /^ {0,3}[:~](?=[ \t])/;
const NOTE_DEF = /^ {0,3}\[\^[^\]\s]+\]:/;
const REFERENCE_DEF = /^ {0,3}\[[^\]^][^\]]*\]:[ \t]/;
const RAW_HTML_BLOCK = /^ {0,3}<(pre|script|style|textarea)(?=[\s>])/i;
const RAW_TEX_BLOCK = /^ {0,3}\\begin\{([A-Za-z*]+)\}/;
const DIV_FENCE = /^ {0,3}:{3,}/;
// Blanks only after a pipe or at the ends: each run of them is read one way.
const PIPE_TABLE_RULE = /^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$/;

/**
 * A list marker at the start of a line: its width, where its content starts (in characters, and
 * in columns: what continuation lines must be indented by), and an example label.
 *
 * @param col0 - the line's column in the document (tabs after the marker expand from it)
 */
function listMarker(line: string, col0 = 0): { width: number; content: number; contCols: number; label?: string; example: boolean; definition: boolean } | undefined {
  let m: RegExpExecArray | null;
  let example = false, label: string | undefined, definition = false;
  if (HRULE.test(line)) return undefined;
  if ((m = BULLET.exec(line))) { /* bullet */ } else if ((m = ORDERED.exec(line))) {
    const ord = m[1] ?? m[2]!;
    // `A. Smith` and `p. 3` are not lists: an upper-case letter with a period needs two blanks.
    if (m[2] && /^[A-Z]$/.test(ord) && line[m[0].length - 1] === '.' && !/^[ \t]{2}|^[ \t]*$/.test(line.slice(m[0].length))) return undefined;
    if (/^p$/.test(ord) && line[m[0].length - 1] === '.' && /^ \d/.test(line.slice(m[0].length))) return undefined;
    if (ord.startsWith('@')) { example = true; label = ord.slice(1) || undefined; }
  } else if ((m = DEF_MARKER.exec(line))) definition = true;
  else return undefined;
  const width = m[0].length;
  let blanks = 0, cols = 0;
  for (let k = width; k < line.length && (line[k] === ' ' || line[k] === '\t'); k++) {
    blanks++;
    cols += line[k] === '\t' ? 4 - ((col0 + width + cols) % 4) : 1;
  }
  // After the marker, one to four columns of blanks lead to the content; five or more: one, and
  // the content is indented code.
  const one = width + blanks >= line.length || cols >= 5;
  return { width, content: width + (one ? 1 : blanks), contCols: width + (one ? 1 : cols), label, example, definition };
}

/**
 * Characters and lines the last {@link scanPandoc} examined, searches included (what a search
 * skips over counts as read): tests bound it by the text's length, as the library index's
 * `lastSearchWork` bounds its searches, so that linearity is checked without timing.
 */
let work = 0;

/** The work of the last {@link scanPandoc} (see {@link work}). */
export function lastPandocScanWork(): number {
  return work;
}

/**
 * Reads a Markdown document as pandoc does, for citations.
 *
 * @param text - the whole document (its YAML front matter included: it is skipped)
 * @returns the citations (with example-list references left out) and the text regions
 */
export function scanPandoc(text: string): PandocScan {
  work = text.length;
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
  parseBlocks({ t: text, next: finder(text), fences: new Map() }, lines, 0, false, paragraphs, examples);
  const keys: PandocKey[] = [];
  const regions: { start: number; end: number }[] = [];
  for (const p of paragraphs) scanInlines(text, p, keys, regions);
  keys.sort((a, b) => a.offset - b.offset);
  regions.sort((a, b) => a.start - b.start);
  return { keys: keys.filter((k) => k.bracketed || !examples.has(k.key)), text: regions };
}

/**
 * Splits lines into blocks, recursively for list items and block quotes: paragraphs go to
 * `paragraphs` (their lines, to be read as inline text), code and raw blocks are dropped.
 */
/** What every level of {@link parseBlocks} shares: the text, and searches remembered so that the whole read stays linear. */
interface Reading {
  t: string;
  /** Searches in the text ({@link finder}). */
  next: (needle: string, from: number) => number;
  /** The text in lower case, for HTML end tags (made once, when needed), and its searches. */
  lower?: { text: string; next: (needle: string, from: number) => number };
  /** Closing fences found, per fence character and length, remembered as `next` remembers its answers. */
  fences: Map<string, { from: number; at: number; lines: readonly View[] }>;
}

/** How deep block quotes and list items nest before their content is read as plain text (no stack overflow on `> > > …`). */
const MAX_DEPTH = 64;

function parseBlocks(r: Reading, input: readonly View[], depth: number, inList: boolean, paragraphs: View[][], examples: Set<string>): void {
  const t = r.t;
  work += input.length;
  if (depth > MAX_DEPTH) { paragraphs.push(input.filter((v) => v.e > v.s)); return; }
  // A copy: a line that goes on after a block-level HTML comment is read again from there.
  const lines = input.slice();
  const n = lines.length;
  let afterTerm = false;
  // The line that goes on after a block-level HTML comment: text, whatever it starts with.
  let plainAt = -1;
  let i = 0;
  while (i < n) {
    work++;
    const v = lines[i]!;
    const line = lineOf(t, v);
    if (isBlankView(t, v)) { i++; continue; }
    const { cols } = indentOf(t, v);
    const wasTerm = afterTerm;
    afterTerm = false;
    let m: RegExpExecArray | null;
    // Block constructs, except on a line that goes on after a block-level HTML comment.
    if (i !== plainAt) {
      if (cols >= 4) {
        // Indented code: indented lines, and blank lines followed by one.
        while (i < n && (indentOf(t, lines[i]!).cols >= 4 || isBlankView(t, lines[i]!))) {
          if (isBlankView(t, lines[i]!)) {
            let k = i;
            while (k < n && isBlankView(t, lines[k]!)) k++;
            if (k >= n || indentOf(t, lines[k]!).cols < 4) break;
            i = k;
          } else i++;
        }
        continue;
      }
      if ((m = FENCE.exec(line)) && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
        const close = fenceClose(r, lines, i + 1, m[1]!);
        // An unclosed fence is no code block in pandoc: its line is text.
        if (close >= 0) { i = close + 1; continue; }
      }
      if (/^---[ \t]*$/.test(line) && i + 1 < n && !isBlankView(t, lines[i + 1]!)) {
        const end = metadataEnd(t, lines, i + 1);
        if (end >= 0) { i = end + 1; continue; }
      }
      const empty = /^ {0,3}<!---?>/.exec(line);
      const commentClose = empty ? v.s + empty[0].length - 3 : /^ {0,3}<!--/.test(line) ? r.next('-->', v.s + line.indexOf('<!--') + 4) : -1;
      if (commentClose >= 0) {
        const close = commentClose;
        i = lineIndexAt(lines, i, close);
        // What follows the comment on its last line is text.
        lines[i] = { s: close + 3, e: lines[i]!.e };
        if (isBlankView(t, lines[i]!)) i++;
        else plainAt = i;
        continue;
      }
      if ((m = RAW_HTML_BLOCK.exec(line))) {
        if (!r.lower) { const lower = t.toLowerCase(); r.lower = { text: lower, next: finder(lower) }; }
        const close = r.lower.next(`</${m[1]!.toLowerCase()}>`, v.s);
        i = close < 0 ? n : lineIndexAt(lines, i, close) + 1;
        continue;
      }
      if ((m = RAW_TEX_BLOCK.exec(line))) {
        const close = texEnvironmentEnd(r, v.s, m[1]!);
        if (close >= 0) { i = lineIndexAt(lines, i, close) + 1; continue; }
      }
      if (HRULE.test(line) || DIV_FENCE.test(line) || REFERENCE_DEF.test(line)) { i++; continue; }
      if (/^\|(?: |$)/.test(line) && !(i + 1 < n && PIPE_TABLE_RULE.test(lineOf(t, lines[i + 1]!)))) {
        // A line block: `| ` lines and their continuation lines (which start with a blank); its
        // lines are text, and it ends without a blank line.
        const block: View[] = [];
        while (i < n && (/^\|(?: |$)/.test(lineOf(t, lines[i]!)) || (block.length && /^ /.test(lineOf(t, lines[i]!)) && !isBlankView(t, lines[i]!)))) {
          block.push(lines[i]!);
          i++;
        }
        paragraphs.push(block);
        continue;
      }
      if (/^ {0,3}>/.test(line)) {
        // A block quote runs to a blank line; `>` and one blank are stripped, lazy lines kept.
        const inner: View[] = [];
        while (i < n && !isBlankView(t, lines[i]!)) {
          const w = lines[i]!;
          const q = /^ {0,3}> ?/.exec(lineOf(t, w));
          inner.push(q ? { s: w.s + q[0].length, e: w.e } : w);
          i++;
        }
        parseBlocks(r, inner, depth + 1, false, paragraphs, examples);
        continue;
      }
      const note = NOTE_DEF.exec(line);
      let marker = note ? undefined : listMarker(line, columnOf(t, v.s));
      // A definition (`:` or `~`) needs its term: a one-line paragraph, or a definition, before it.
      if (marker?.definition && !wasTerm) marker = undefined;
      if (note || marker) {
        afterTerm = !!marker?.definition;
        const contIndent = note || marker!.example ? 4 : marker!.contCols;
        if (marker?.label) examples.add(marker.label);
        const first: View = note ? { s: v.s + note[0].length, e: v.e } : { s: Math.min(v.e, v.s + marker!.content), e: v.e };
        // A tab after the marker counts as blanks up to its content: keep what follows the marker's blanks.
        if (marker && /\t/.test(line.slice(marker.width, marker.content))) first.s = indentOf(t, { s: v.s + marker.width, e: v.e }).at;
        const item: View[] = [first];
        i++;
        // The item's first block: lines up to a blank line, a list marker or a fence.
        while (i < n && !isBlankView(t, lines[i]!)) {
          const w = lines[i]!;
          const stripped = lineOf(t, strip(t, w, 1e9));
          if (listMarker(stripped) || NOTE_DEF.test(stripped) || FENCE.test(lineOf(t, w))) break;
          item.push(strip(t, w, contIndent));
          i++;
        }
        // Continuations: blocks indented to the item's content (after blank lines, or a nested
        // list right below), each with its lazy lines.
        for (;;) {
          let k = i;
          while (k < n && isBlankView(t, lines[k]!)) k++;
          if (k >= n || indentOf(t, lines[k]!).cols < contIndent) break;
          for (; i < k; i++) item.push(lines[i]!);
          item.push(strip(t, lines[i]!, contIndent));
          i++;
          while (i < n && !isBlankView(t, lines[i]!)) {
            const w = lines[i]!;
            if (indentOf(t, w).cols >= contIndent) item.push(strip(t, w, contIndent));
            else if (listMarker(lineOf(t, w))) break;
            else item.push(w);
            i++;
          }
        }
        parseBlocks(r, item, depth + 1, true, paragraphs, examples);
        continue;
      }
    }
    // A paragraph (or heading, table, line block): up to a blank line, a backtick fence, a div
    // fence, or (in a list item) a list marker; a heading is one line.
    const para: View[] = [v];
    // An HTML comment left open runs on, across blank lines, to its `-->`.
    let comment = openComment(line, false) && r.next('-->', v.e) >= 0;
    i++;
    if (!/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line)) {
      while (i < n && (comment || !isBlankView(t, lines[i]!))) {
        const w = lines[i]!;
        const l = lineOf(t, w);
        if (!comment) {
          const f = FENCE.exec(l);
          if ((f && f[1]![0] === '`' && !f[2]!.includes('`') && fenceClose(r, lines, i + 1, f[1]!) >= 0) || DIV_FENCE.test(l)) break;
          if ((para.length === 1 && DEF_MARKER.test(l)) || (inList && listMarker(l) && !DEF_MARKER.test(l))) break;
        }
        comment = openComment(l, comment);
        para.push(w);
        i++;
      }
    }
    paragraphs.push(para);
    afterTerm = para.length === 1;
  }
}

/** Whether an HTML comment is open at the end of a line, given whether one was open at its start. */
function openComment(line: string, open: boolean): boolean {
  let k = 0;
  for (;;) {
    if (open) {
      const e = line.indexOf('-->', k);
      if (e < 0) return true;
      k = e + 3;
      open = false;
    } else {
      const b = line.indexOf('<!--', k);
      if (b < 0) return false;
      k = b + 4;
      open = true;
    }
  }
}

/** The index of the line (from `from` on) that holds the offset `at`. */
function lineIndexAt(lines: readonly View[], from: number, at: number): number {
  let k = from;
  while (k + 1 < lines.length && lines[k]!.e < at) k++;
  work += k - from;
  return k;
}

/**
 * The line closing a fence opened with `open` (same character, at least as long, nothing after
 * it), searched from `from`; -1 if none. Answers are remembered per character and length, so that
 * a thousand fences that never close are searched for once.
 */
function fenceClose(r: Reading, lines: readonly View[], from: number, open: string): number {
  const id = `${open[0]}${open.length}`;
  const m = r.fences.get(id);
  if (m && m.lines === lines && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
  const re = new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}[ \\t]*$`);
  let at = -1;
  for (let k = from; k < lines.length; k++) if (re.test(lineOf(r.t, lines[k]!))) { at = k; break; }
  work += (at < 0 ? lines.length : at) - from;
  r.fences.set(id, { from, at, lines });
  return at;
}

/**
 * The line ending a YAML metadata block (`---` or `...`) whose content starts at `from`; -1 if
 * there is none or the content does not start as a YAML mapping (`key:`), which pandoc requires.
 * Judged from the first line, not parsed: this module stays free of the YAML reader, which the VS
 * Code client must not bundle (it reaches this module through `context.ts`).
 */
function metadataEnd(t: string, lines: readonly View[], from: number): number {
  if (!/^[\p{L}\p{N}_"'-][^:]*:(?:[ \t]|$)/u.test(lineOf(t, lines[from]!))) return -1;
  for (let k = from; k < lines.length; k++) {
    if (/^(---|\.\.\.)[ \t]*$/.test(lineOf(t, lines[k]!))) { work += k - from; return k; }
  }
  work += lines.length - from;
  return -1;
}

/**
 * The offset of the `\end{name}` closing the environment begun at `from` (nested ones of the same
 * name counted, up to {@link MAX_DEPTH}); -1 if none.
 */
function texEnvironmentEnd(r: Reading, from: number, name: string): number {
  const begin = `\\begin{${name}}`, end = `\\end{${name}}`;
  let depth = 0, k = from;
  for (let steps = 0; steps <= 2 * MAX_DEPTH; steps++) {
    const b = r.next(begin, k), e = r.next(end, k);
    if (e < 0) return -1;
    if (b >= 0 && b < e) { depth++; k = b + begin.length; continue; }
    if (--depth === 0) return e;
    k = e + end.length;
  }
  return -1;
}

/**
 * `next(needle, from)`: the first `needle` at or after `from`, or -1. Remembers its last answer per
 * needle, so that searches for one needle from increasing offsets read the text once (an unclosed
 * `<!--` repeated a thousand times costs one pass, not a thousand).
 */
function finder(p: string): (needle: string, from: number) => number {
  const memo = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const m = memo.get(needle);
    if (m && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
    const at = p.indexOf(needle, from);
    work += (at < 0 ? p.length : at) - from;
    memo.set(needle, { from, at });
    return at;
  };
}


/**
 * Reads a paragraph's inline text for citations, as pandoc's `inline` parser does (see the
 * module's documentation), and records the parts of it that are text.
 */
function scanInlines(t: string, views: readonly View[], keys: PandocKey[], regions: { start: number; end: number }[]): void {
  // The paragraph as one string, and where each of its lines starts in it.
  const starts: number[] = [];
  const parts: string[] = [];
  let len = 0;
  for (const v of views) {
    starts.push(len);
    parts.push(t.slice(v.s, v.e));
    len += v.e - v.s + 1;
  }
  const p = parts.join('\n');
  const n = p.length;
  work += n;
  const next = finder(p);
  let line = 0;
  const at = (i: number): number => {
    while (line + 1 < starts.length && starts[line + 1]! <= i) line++;
    return views[line]!.s + (i - starts[line]!);
  };
  // Parts that are not text (code, math, …), `[a, b)` in the paragraph, ascending.
  const cuts: [number, number][] = [];
  const cut = (a: number, b: number) => cuts.push([a, b]);
  // Closing candidates, remembered as `next` does: a backtick run of each length, a `$`.
  const runs = new Map<number, { from: number; at: number }>();
  const closingBackticks = (from: number, run: number): number => {
    const m = runs.get(run);
    if (m && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
    let k = from, found = -1;
    while (k < n) {
      const b = p.indexOf('`', k);
      if (b < 0) break;
      let e = b;
      while (e < n && p[e] === '`') e++;
      if (e - b === run) { found = b; break; }
      k = e;
    }
    work += (found < 0 ? n : found) - from;
    runs.set(run, { from, at: found });
    return found;
  };
  // pandoc's `mathInlineWith "$" "$"`: the math ends at the first `$` (not escaped); it is no
  // math when a blank comes before that `$` or a digit after it (`$5 and $6`).
  const closingDollar = (from: number): number => {
    for (let k = p.indexOf('$', from); k >= 0; k = p.indexOf('$', k + 1)) {
      work += k - from;
      if (p[k - 1] === '\\') continue;
      return /\s/.test(p[k - 1]!) || /\d/.test(p[k + 1] ?? '') ? -1 : k;
    }
    return -1;
  };
  // Where each `{` and `[` of the paragraph closes, computed once when raw TeX needs it.
  let matches: Int32Array | undefined;
  let lastStr = -1;
  let brackets = 0;
  let openStar = 0, openUnderscore = 0;
  let i = 0;
  while (i < n) {
    const c = p[i]!;
    switch (c) {
      case '\\': {
        const d = p[i + 1] ?? '';
        if (/[A-Za-z]/.test(d)) {
          // Raw TeX (`\emph{…}`): the command and its braced and bracketed arguments.
          let k = i + 1;
          // Pandoc's TeX reader takes `@` as a letter of command names (`\make@title`).
          while (k < n && /[A-Za-z@]/.test(p[k]!)) k++;
          matches ??= bracketMatches(p);
          const e = texArgumentsEnd(p, k, matches);
          if (e > k) cut(i, e);
          i = e;
        } else i += d && d !== '\n' ? 2 : 1;
        continue;
      }
      case '`': {
        let k = i;
        while (k < n && p[k] === '`') k++;
        const run = k - i;
        const close = closingBackticks(k, run);
        if (close >= 0) {
          let e = close + run;
          // A raw inline `` `…`{=latex} `` or attributes.
          if (p[e] === '{') { const a = next('}', e); if (a > 0) e = a + 1; }
          cut(i, e);
          i = e;
        } else i++; // pandoc then reads one backtick as a symbol and tries again from the next
        continue;
      }
      case '$': {
        let e = -1;
        if (p[i + 1] === '$') {
          const d = next('$$', i + 2);
          if (d >= 0) e = d + 2;
        } else if (i + 1 < n && !/\s/.test(p[i + 1]!)) {
          const d = closingDollar(i + 1);
          if (d >= 0) e = d + 1;
        }
        if (e > 0) { cut(i, e); i = e; } else i++;
        continue;
      }
      case '<': {
        let e = -1;
        if (p.startsWith('<!--', i)) {
          // `<!-->` and `<!--->` are whole (empty) comments, as HTML reads them.
          const empty = /^<!---?>/.exec(p.slice(i, i + 6));
          const d = empty ? -1 : next('-->', i + 4);
          if (empty) e = i + empty[0].length;
          else if (d >= 0) e = d + 3;
        } else {
          for (const re of [AUTOLINK, HTML_TAG]) {
            re.lastIndex = i;
            const m = re.exec(p);
            if (m) { e = i + m[0].length; break; }
          }
        }
        if (e > 0) { cut(i, e); i = e; } else i++;
        continue;
      }
      case '{': {
        const d = p.startsWith('{{<', i) ? next('>}}', i + 3) : -1;
        if (d >= 0) { cut(i, d + 3); i = d + 3; } else i++;
        continue;
      }
      case '[':
        brackets++;
        i++;
        continue;
      case ']': {
        const opened = brackets > 0;
        if (opened) brackets--;
        i++;
        if (!opened) continue;
        // A link's destination `(url "title")`, or attributes `{…}`, are not text.
        const e = p[i] === '(' ? destinationEnd(p, i) : p[i] === '{' ? next('}', i) + 1 : -1;
        if (e > 0) { cut(i, e); i = e; }
        continue;
      }
      case '.': {
        let k = i;
        while (k < n && p[k] === '.') k++;
        // `...` is an ellipsis; a lone `.` (or what is left after ellipses) is a word (`str`).
        if ((k - i) % 3 !== 0) lastStr = k;
        i = k;
        continue;
      }
      case '*':
      case '_': {
        let k = i;
        while (k < n && p[k] === c) k++;
        const before = i > 0 ? p[i - 1]! : ' ';
        const after = k < n ? p[k]! : ' ';
        const canOpen = !/\s/.test(after) && !(c === '_' && isAlnum(before));
        const canClose = !/\s/.test(before) && !(c === '_' && isAlnum(after));
        const open = c === '*' ? openStar : openUnderscore;
        if (canClose && open > 0) {
          // An emphasis closer counts as the end of a word (`updateLastStrPos`): `*a*@b` cites nothing.
          lastStr = k;
          if (c === '*') openStar--; else openUnderscore--;
        } else if (canOpen) {
          if (c === '*') openStar++; else openUnderscore++;
        }
        i = k;
        continue;
      }
      case '@': {
        if (lastStr === i) { i = exampleRefEnd(p, i + 1); continue; }
        let keyStart = i + 1, keyEnd = simpleKeyEnd(p, keyStart, n), end = keyEnd;
        if (keyEnd < 0) {
          end = bracedKeyEnd(p, keyStart, n);
          if (end > 0) { keyStart++; keyEnd = end - 1; }
        }
        // No citation: pandoc's `exampleRef` takes the `@` and a label, which ends no word.
        if (end < 0) { i = exampleRefEnd(p, i + 1); continue; }
        // `@*` cites every entry only in `nocite` metadata; in the text it names no entry.
        if (keyEnd > keyStart && p.slice(keyStart, keyEnd) !== '*') {
          keys.push({ key: p.slice(keyStart, keyEnd), offset: at(keyStart), length: keyEnd - keyStart, suppressAuthor: p[i - 1] === '-', bracketed: brackets > 0 });
        }
        i = end;
        continue;
      }
      default: {
        const ch = p.codePointAt(i)!;
        if (isAlnumCode(ch)) {
          // A word (`str`): letters and digits, with single dots inside.
          let k = i;
          for (;;) {
            const w = k < n ? p.codePointAt(k)! : -1;
            if (w >= 0 && isAlnumCode(w)) k += unitsOf(w);
            else if (w === 46 && p[k + 1] !== '.') k++;
            else break;
          }
          lastStr = k;
          i = k;
          continue;
        }
        i += unitsOf(ch);
      }
    }
  }
  // The text: each line's part of the paragraph, minus the cuts.
  let ci = 0;
  for (let k = 0; k < views.length; k++) {
    const from = starts[k]!, to = from + (views[k]!.e - views[k]!.s);
    let a = from;
    while (ci < cuts.length && cuts[ci]![1] <= from) ci++;
    for (let j = ci; j < cuts.length && cuts[j]![0] <= to; j++) {
      const [x, y] = cuts[j]!;
      if (x > a) regions.push({ start: views[k]!.s + (a - from), end: views[k]!.s + (x - from) });
      a = Math.max(a, y);
    }
    if (a <= to) regions.push({ start: views[k]!.s + (a - from), end: views[k]!.e });
  }
}

/** The end of an example label (`exampleRef`: letters and digits, with single `_` or `-` inside) starting at `i`. */
function exampleRefEnd(p: string, i: number): number {
  let k = i;
  for (;;) {
    const c = charAt(p, k);
    if (c && isAlnum(c)) { k += c.length; continue; }
    if ((p[k] === '_' || p[k] === '-') && k > i && isAlnum(charAt(p, k + 1))) { k++; continue; }
    return k;
  }
}

/**
 * For every `{` and `[` of a text, the offset of the `}` or `]` that closes it (nested pairs of the
 * same kind counted, a backslash escaping the character after it), or -1; one pass with a stack.
 */
function bracketMatches(p: string): Int32Array {
  work += p.length;
  const out = new Int32Array(p.length).fill(-1);
  const braces: number[] = [], squares: number[] = [];
  for (let k = 0; k < p.length; k++) {
    const c = p[k];
    if (c === '\\') k++;
    else if (c === '{') braces.push(k);
    else if (c === '[') squares.push(k);
    else if (c === '}' && braces.length) out[braces.pop()!] = k;
    else if (c === ']' && squares.length) out[squares.pop()!] = k;
  }
  return out;
}

/** The end of the braced and bracketed arguments right after a TeX command's name at `k` (`k` when it has none). */
function texArgumentsEnd(p: string, k: number, matches: Int32Array): number {
  let e = k;
  while (p[e] === '{' || p[e] === '[') {
    const close = matches[e]!;
    if (close < 0) return e;
    e = close + 1;
  }
  return e;
}

const AUTOLINK = /<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\s]*|[A-Za-z0-9][A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
/** An HTML open or closing tag with well-formed attributes (CommonMark's "Raw HTML" grammar, which pandoc's tag reader accepts too). */
const HTML_TAG = /<(?:[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?|\/[A-Za-z][A-Za-z0-9-]*\s*)>/y;

/**
 * The end of a link destination at `i`: `(`, a URL (no blank; parentheses balanced) or `<URL>`,
 * then an optional title in quotes or parentheses, then `)` (pandoc's `source`); -1 if it is not one.
 * Reads no further than the URL and title, so a thousand `](` never closed cost one pass.
 */
function destinationEnd(p: string, i: number): number {
  const k = destinationScan(p, i);
  work += Math.abs(k) - i;
  return k > 0 ? k : -1;
}

/**
 * How long a link's URL or title may be; longer ones, and ones that run into another `](`, are not
 * read as destinations (which keeps `[a](b[a](b…` linear).
 */
const MAX_URL = 2048;

/** {@link destinationEnd}'s reading: the end, or minus where it stopped. */
function destinationScan(p: string, i: number): number {
  let k = i + 1;
  const blanks = () => { while (k < p.length && /\s/.test(p[k]!)) k++; };
  blanks();
  const limit = Math.min(p.length, k + MAX_URL);
  if (p[k] === '<') {
    let e = k + 1;
    while (e < limit && p[e] !== '>' && p[e] !== '\n' && !(p[e] === ']' && p[e + 1] === '(')) e++;
    if (p[e] !== '>') return -e;
    k = e + 1;
  } else {
    let depth = 0;
    for (; k < limit; k++) {
      const c = p[k];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || (c === ']' && p[k + 1] === '(')) break;
      if (c === '\\') { k++; continue; }
      if (c === '(') depth++;
      else if (c === ')' && depth-- === 0) return k + 1;
    }
  }
  blanks();
  const q = p[k];
  if (q === '"' || q === "'" || q === '(') {
    const closeQuote = q === '(' ? ')' : q;
    let e = k + 1;
    const titleLimit = Math.min(p.length, e + MAX_URL);
    while (e < titleLimit && p[e] !== closeQuote && !(p[e] === ']' && p[e + 1] === '(')) e += p[e] === '\\' ? 2 : 1;
    if (e >= titleLimit) return -e;
    k = e + 1;
    blanks();
  }
  return p[k] === ')' ? k + 1 : -k;
}
