/**
 * The block structure of a Markdown document as pandoc's Markdown reader reads it, for the citation
 * reader (`pandoc.ts`): which lines form paragraphs (read as inline text by `pandocInline.ts`) and
 * which are not Markdown text (fenced and indented code, raw HTML and TeX blocks, HTML comments,
 * YAML metadata); list items (example-list labels included) and block quotes recursively; tables,
 * headings and definition lists as paragraphs.
 *
 * Sources: pandoc's User's Guide and `src/Text/Pandoc/Readers/Markdown.hs` (`codeBlockFenced`,
 * `codeBlockIndented`, `rawListItem`, `listContinuation`, `emailBlockQuote`); see `pandoc.ts` for the
 * rules and limits. Offsets are UTF-16 code units.
 */

import { countWork, finder, type View } from './pandocScanBase.js';

/**
 * The column of offset `k` on its line, tabs expanded to the next multiple of 4 as pandoc expands
 * them before it parses (`--tab-stop`, 4 by default): a tab after `> ` is two columns, not four.
 */
function columnOf(t: string, k: number): number {
  let s = k;
  while (s > 0 && t[s - 1] !== '\n' && t[s - 1] !== '\r') s--;
  countWork(k - s);
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
const REFERENCE_DEF = /^ {0,3}\[([^\]^][^\]]*)\]:[ \t]/;
/**
 * A label that reads as a bracketed citation (`[@tag:x]`, `[see @a]`, `[-@a]`): pandoc's reference
 * key parser refuses it (checked with pandoc 2.17: `[@tag:x]: doi:…` is a citation then text, as
 * Manubot's tag definitions are read), so such a line is a paragraph. An `@` after a letter
 * (`[mail me@x.org]: …`) is no citation, and the line stays a link reference definition.
 */
const CITATION_LABEL = /(?:^|[\s;\[-])@[\p{L}\p{N}_{]/u;
/** Whether a line is a link reference definition (`[label]: url`), not a footnote's or a citation. */
const isReferenceDef = (line: string): boolean => {
  const m = REFERENCE_DEF.exec(line);
  return !!m && !CITATION_LABEL.test(m[1]!);
};
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

/** What every level of {@link parseBlocks} shares: the text, and searches remembered so that the whole read stays linear. */
export interface Reading {
  t: string;
  /** Searches in the text ({@link finder}). */
  next: (needle: string, from: number) => number;
  /** The text in lower case, for HTML end tags (made once, when needed), and its searches. */
  lower?: { text: string; next: (needle: string, from: number) => number };
  /** Closing fences found, per fence character and length, remembered as `next` remembers its answers. */
  fences: Map<string, { from: number; at: number; lines: readonly View[] }>;
  /** The YAML metadata blocks met, `[start, end)` of their content (pandoc reads every one, not only the first: MANUAL, "Extension: yaml_metadata_block"). */
  metadata?: { start: number; end: number }[];
  /** The lines read as fenced div fences (`::: {#refs}`, `:::`), `[start, end)` of each line, in reading order. */
  divFences?: { start: number; end: number }[];
}

/** How deep block quotes and list items nest before their content is read as plain text (no stack overflow on `> > > …`). */
const MAX_DEPTH = 64;

/**
 * Splits lines into blocks, recursively for list items and block quotes: paragraphs go to
 * `paragraphs` (their lines, to be read as inline text), code and raw blocks are dropped.
 *
 * @param r - the text and its remembered searches
 * @param input - the lines (or parts of lines, inside quotes and list items) to read
 * @param depth - the nesting of quotes and list items so far
 * @param inList - whether the lines are a list item's content
 * @param paragraphs - receives each paragraph's lines
 * @param examples - receives example-list labels (`(@good)`)
 */
export function parseBlocks(r: Reading, input: readonly View[], depth: number, inList: boolean, paragraphs: View[][], examples: Set<string>): void {
  const t = r.t;
  countWork(input.length);
  if (depth > MAX_DEPTH) { paragraphs.push(input.filter((v) => v.e > v.s)); return; }
  // A copy: a line that goes on after a block-level HTML comment is read again from there.
  const lines = input.slice();
  const n = lines.length;
  let afterTerm = false;
  // The line that goes on after a block-level HTML comment: text, whatever it starts with.
  let plainAt = -1;
  let i = 0;
  while (i < n) {
    countWork(1);
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
        if (end >= 0) {
          r.metadata?.push({ start: lines[i + 1]!.s, end: lines[end]!.s });
          i = end + 1;
          continue;
        }
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
      if (DIV_FENCE.test(line) && !HRULE.test(line)) { r.divFences?.push({ start: v.s, end: v.e }); i++; continue; }
      if (HRULE.test(line) || isReferenceDef(line)) { i++; continue; }
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
  countWork(k - from);
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
  countWork((at < 0 ? lines.length : at) - from);
  r.fences.set(id, { from, at, lines });
  return at;
}

/**
 * The line ending a YAML metadata block (`---` or `...`) whose content starts at `from`; -1 if
 * there is none or the content does not start as a YAML mapping (`key:`), which pandoc requires.
 * Judged from the first line, not parsed: this module stays free of the YAML reader, which the VS
 * Code client must not bundle (it reaches this module through `cite/citationContext.ts`).
 */
function metadataEnd(t: string, lines: readonly View[], from: number): number {
  if (!/^[\p{L}\p{N}_"'-][^:]*:(?:[ \t]|$)/u.test(lineOf(t, lines[from]!))) return -1;
  for (let k = from; k < lines.length; k++) {
    if (/^(---|\.\.\.)[ \t]*$/.test(lineOf(t, lines[k]!))) { countWork(k - from); return k; }
  }
  countWork(lines.length - from);
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
