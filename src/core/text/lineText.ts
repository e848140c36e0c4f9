/**
 * An open document's text as lines in blocks, edited in place: an edit costs its own lines plus a
 * walk over the blocks, not a copy of the whole text (which `vscode-languageserver-textdocument`
 * makes per change: it slices and concatenates the whole string, and shifts every later line
 * offset). The whole text is joined only when a reader asks for it, once per version.
 *
 * Lines are split as LSP splits them (`\r\n`, `\r` or `\n` ends a line; LSP 3.17, "Position");
 * each line is kept with its line break, the last one without. Positions are UTF-16 code units,
 * as LSP's default `utf-16` position encoding.
 */

/** Lines per block: a block is split when it holds twice as many, so an edit touches at most a few thousand line strings. */
const BLOCK_LINES = 512;

interface Block {
  lines: string[];
  /** The sum of the lines' lengths. */
  length: number;
}

/** Whether a character code ends a line (`\r` or `\n`). */
const isEol = (c: number): boolean => c === 10 || c === 13;

/** A text's lines, each with its line break (the last one has none, and may be empty). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    else if (c !== 13 && c !== 10) continue;
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  lines.push(text.slice(start));
  return lines;
}

/** How long a line is without its line break. */
export function contentLength(line: string): number {
  let n = line.length;
  while (n > 0 && isEol(line.charCodeAt(n - 1))) n--;
  return n;
}

/** A line's place: its block, its index there, its number and the offset where it starts. */
interface Place { block: number; index: number; line: number; start: number }

/** A text as lines in blocks; see the module's documentation. */
export class LineText {
  private blocks: Block[] = [];
  private total = 0;
  private lines = 0;
  private joined: string | undefined;

  constructor(text: string) {
    this.fill(splitLines(text));
    this.joined = text;
  }

  private fill(lines: string[]): void {
    this.blocks = [];
    for (let i = 0; i < lines.length; i += BLOCK_LINES) {
      const part = lines.slice(i, i + BLOCK_LINES);
      this.blocks.push({ lines: part, length: part.reduce((a, l) => a + l.length, 0) });
    }
    this.total = lines.reduce((a, l) => a + l.length, 0);
    this.lines = lines.length;
  }

  /** The text's length in UTF-16 code units. */
  get length(): number { return this.total; }

  /** How many lines it has (a text that ends with a line break has an empty last line). */
  get lineCount(): number { return this.lines; }

  /** The whole text, joined once per version. */
  toString(): string {
    this.joined ??= this.blocks.map((b) => b.lines.join('')).join('');
    return this.joined;
  }

  /** Line `line` (0-based, clamped), with its line break. */
  line(line: number): string {
    const p = this.placeOfLine(line);
    return this.blocks[p.block]!.lines[p.index]!;
  }

  /** The offset where line `line` starts (0-based, clamped). */
  lineStart(line: number): number {
    return this.placeOfLine(line).start;
  }

  private placeOfLine(line: number): Place {
    let l = Math.max(0, Math.min(line, this.lines - 1));
    let start = 0;
    const first = l;
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b]!;
      if (l < block.lines.length) {
        for (let i = 0; i < l; i++) start += block.lines[i]!.length;
        return { block: b, index: l, line: first, start };
      }
      l -= block.lines.length;
      start += block.length;
    }
    throw new Error('line out of range');
  }

  /** The line holding `offset` (clamped): a line break belongs to the line it ends. */
  private placeOfOffset(offset: number): Place {
    let o = Math.max(0, Math.min(offset, this.total));
    let line = 0;
    let start = 0;
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b]!;
      if (o < block.length || b === this.blocks.length - 1) {
        for (let i = 0; i < block.lines.length; i++) {
          const len = block.lines[i]!.length;
          if (o < len || i === block.lines.length - 1) return { block: b, index: i, line, start };
          o -= len;
          start += len;
          line++;
        }
      }
      o -= block.length;
      start += block.length;
      line += block.lines.length;
    }
    throw new Error('offset out of range');
  }

  /**
   * The offset of an LSP position, as `vscode-languageserver-textdocument` computes it: a line past
   * the end gives the text's length, a character past the line's end (or inside its line break)
   * the end of its content.
   */
  offsetAt(position: { line: number; character: number }): number {
    if (position.line >= this.lines) return this.total;
    if (position.line < 0) return 0;
    const p = this.placeOfLine(position.line);
    if (position.character <= 0) return p.start;
    const text = this.blocks[p.block]!.lines[p.index]!;
    return p.start + Math.min(position.character, contentLength(text));
  }

  /** The LSP position of an offset (clamped; inside a line break: the end of its line's content). */
  positionAt(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.total));
    const p = this.placeOfOffset(o);
    const text = this.blocks[p.block]!.lines[p.index]!;
    return { line: p.line, character: Math.min(o - p.start, contentLength(text)) };
  }

  /** The text from `start` to `end` (offsets, clamped). */
  slice(start: number, end: number): string {
    const s = Math.max(0, Math.min(start, this.total));
    const e = Math.max(s, Math.min(end, this.total));
    if (this.joined !== undefined) return this.joined.slice(s, e);
    const p = this.placeOfOffset(s);
    const parts: string[] = [];
    let at = p.start;
    for (let b = p.block, i = p.index; b < this.blocks.length && at < e; b++, i = 0) {
      const lines = this.blocks[b]!.lines;
      for (; i < lines.length && at < e; i++) {
        const line = lines[i]!;
        parts.push(line.slice(Math.max(0, s - at), e - at));
        at += line.length;
      }
    }
    return parts.join('');
  }

  /**
   * Replaces the text from `start` to `end` (offsets, clamped, `start <= end`) with `text`: the
   * lines the range touches are split again (with the line before, when a `\r` and a `\n` could
   * meet), the rest stays as it is.
   */
  replace(start: number, end: number, text: string): void {
    const s = Math.max(0, Math.min(start, this.total));
    const e = Math.max(s, Math.min(end, this.total));
    let first = this.placeOfOffset(s);
    // A `\n` inserted at a line's start may join the `\r` that ends the line before.
    if (first.line > 0 && first.start === s && (text.charCodeAt(0) === 10 || (text === '' && e > s))) first = this.placeOfLine(first.line - 1);
    const last = this.placeOfOffset(e);
    const lastText = this.blocks[last.block]!.lines[last.index]!;
    let stop = last.line;
    let tail = lastText.slice(e - last.start);
    // A `\r` now last may meet the `\n` that starts the next line.
    if (stop + 1 < this.lines && (tail === '' || tail.charCodeAt(tail.length - 1) === 13)) {
      stop++;
      tail += this.line(stop);
    }
    const head = this.slice(first.start, s);
    const fresh = splitLines(head + text + tail);
    if (stop + 1 < this.lines && fresh[fresh.length - 1] === '') fresh.pop();
    this.splice(first, stop - first.line + 1, fresh);
    this.total += text.length - (e - s);
    this.joined = undefined;
  }

  /** Removes `count` lines from `from` and puts `lines` there. */
  private splice(from: Place, count: number, lines: string[]): void {
    const block = this.blocks[from.block]!;
    if (from.index + count <= block.lines.length) {
      const removed = block.lines.splice(from.index, count, ...lines);
      block.length += lines.reduce((a, l) => a + l.length, 0) - removed.reduce((a, l) => a + l.length, 0);
      this.lines += lines.length - count;
      if (block.lines.length > 2 * BLOCK_LINES || block.lines.length === 0) this.rechunk(from.block, 1);
      return;
    }
    // The lines run over several blocks: those blocks are chunked again.
    let n = 0, k = from.block;
    const all: string[] = [];
    for (; k < this.blocks.length && n < from.index + count; k++) {
      all.push(...this.blocks[k]!.lines);
      n += this.blocks[k]!.lines.length;
    }
    all.splice(from.index, count, ...lines);
    this.lines += lines.length - count;
    this.blocks.splice(from.block, k - from.block, { lines: all, length: all.reduce((a, l) => a + l.length, 0) });
    this.rechunk(from.block, 1);
  }

  /** Chunks `count` blocks from `at` again into blocks of {@link BLOCK_LINES} lines (at least one block stays). */
  private rechunk(at: number, count: number): void {
    const lines = this.blocks.slice(at, at + count).flatMap((b) => b.lines);
    const fresh: Block[] = [];
    for (let i = 0; i < lines.length; i += BLOCK_LINES) {
      const part = lines.slice(i, i + BLOCK_LINES);
      fresh.push({ lines: part, length: part.reduce((a, l) => a + l.length, 0) });
    }
    this.blocks.splice(at, count, ...fresh);
    if (!this.blocks.length) this.blocks.push({ lines: [''], length: 0 });
  }
}
