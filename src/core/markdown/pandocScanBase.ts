/**
 * What the passes of the Pandoc citation reader (`pandoc.ts`, its entry) share: the piece of a line
 * they read, the citation key they find, the count of their work ({@link lastPandocScanWork} in
 * `pandoc.ts` reports it) and searches that remember their answers so that a whole read stays linear.
 *
 * Imports nothing: the VS Code client reaches it through `cite/citationContext.ts`.
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
  /**
   * The innermost square brackets it stands in, when they close in its paragraph: `[start, end)`
   * from the `[` to after its `]` (the span a bracketed citation, `Cite` in pandoc's tree, takes).
   */
  bracket?: Bracket;
}

/** A pair of square brackets of Markdown text: `[start, end)` from the `[` to after its `]`, in UTF-16 code units. */
export interface Bracket {
  start: number;
  end: number;
}

/** A piece of one line of the document: `[s, e)`, the line break excluded. */
export interface View {
  s: number;
  e: number;
}

/**
 * Characters and lines the last `scanPandoc` examined, searches included (what a search
 * skips over counts as read): tests bound it by the text's length, as the library index's
 * `lastSearchWork` bounds its searches, so that linearity is checked without timing.
 */
let work = 0;

/**
 * Starts the count of a new scan.
 *
 * @param n - the work already done (characters), usually the text's length for splitting it into lines
 */
export function resetWork(n: number): void {
  work = n;
}

/**
 * Counts work done by a pass of the scan.
 *
 * @param n - characters or lines examined
 */
export function countWork(n: number): void {
  work += n;
}

/**
 * The work counted since the last {@link resetWork}.
 *
 * @returns characters and lines examined
 */
export function workDone(): number {
  return work;
}

/**
 * `next(needle, from)`: the first `needle` at or after `from`, or -1. Remembers its last answer per
 * needle, so that searches for one needle from increasing offsets read the text once (an unclosed
 * `<!--` repeated a thousand times costs one pass, not a thousand).
 *
 * @param p - the text searched
 * @returns the search function; offsets are UTF-16 code units
 */
export function finder(p: string): (needle: string, from: number) => number {
  const memo = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const m = memo.get(needle);
    if (m && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
    const at = p.indexOf(needle, from);
    countWork((at < 0 ? p.length : at) - from);
    memo.set(needle, { from, at });
    return at;
  };
}
