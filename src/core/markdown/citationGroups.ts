/**
 * Pandoc's citations as the elements a document renders (its `Cite` elements): which keys stand
 * together in one bracketed citation, with each one's prefix, suffix and mode, and where each
 * citation starts and ends in the text; and where the bibliography goes (`::: {#refs}`). Built on
 * the one citation reader (`pandoc.ts`), which finds the keys and the brackets; this module only
 * groups what it found, after pandoc's Markdown reader.
 *
 * Sources: pandoc's User's Guide ("Citation syntax", "Placement of the bibliography") and
 * `src/Text/Pandoc/Readers/Markdown.hs` of pandoc 2.17 (`cite`, `textualCite`, `bareloc`,
 * `normalCite`, `citeList`, `citation`, `prefix`, `suffix`):
 * - `[prefix @key suffix; prefix @key suffix]` is one citation (`normalCite`) when every part
 *   separated by `;` holds a key, no prefix holds a bracket, and the `]` is not followed by `{`,
 *   `(` or `[` (a link or a span); brackets inside are text of a prefix or suffix (`;` in them
 *   separates nothing). `-@key` suppresses the author.
 * - Any other `@key` is an author-in-text citation (`textualCite`), `-@key` one without the author.
 *   It takes a bracketed locator right after it (`@key [p. 33]`, `bareloc`: blanks and at most one
 *   line break between) or a bracketed citation (`@a [@b]`, one citation of both).
 * Limits: a key in a suffix (`[see @a and @b]`) stays text of the suffix (pandoc 2.17 renders it
 * inconsistently), as does a citation in a prefix (`[see [@b] @a]`: pandoc renders both).
 *
 * Offsets are UTF-16 code units. Linear in the text: each key and bracket is looked at a bounded
 * number of times, a bracket's own text is read once (a bracket inside it is skipped whole), and
 * positions are found by binary search; {@link lastCitationGroupsWork} counts what was read.
 */

import { inRegions, type Bracket, type PandocKey, type PandocScan } from './pandoc.js';

/** How a cited work is named (CSL's citation item modes; pandoc's `citationMode`). */
export type CiteMode = 'normal' | 'suppress-author' | 'author-in-text';

/** One cited work in a citation. */
export interface CiteItem {
  key: string;
  /** The text before the key inside the brackets, as written (Markdown), blanks collapsed; '' when none. */
  prefix: string;
  /**
   * The text after the key, as written (Markdown), blanks collapsed; a leading blank is kept as one
   * space (pandoc's `suffix`). The locator (`, p. 3`) is still in it: the style's locale says which
   * words are locator terms (`cite/locator.ts`).
   */
  suffix: string;
  mode: CiteMode;
}

/** One citation (pandoc's `Cite` element): `[start, end)` of its text, and the works it cites in order. */
export interface CiteGroup {
  start: number;
  end: number;
  items: CiteItem[];
}

/** The longest prefix or suffix read, in UTF-16 code units (a prefix keeps its end, a suffix its start). */
export const MAX_AFFIX = 1000;

/** Characters, keys and brackets the last {@link citationGroups} looked at (binary searches count their steps). */
let work = 0;

/**
 * The work of the last {@link citationGroups}, for tests that bound it by the text's length
 * (as `lastPandocScanWork` bounds the scan's), so that linearity is checked without timing.
 */
export function lastCitationGroupsWork(): number {
  return work;
}

/** Where `[key]`'s syntax starts and ends: the `@` (or `-@`) to after the key (or its `}`). */
function keySyntax(text: string, k: PandocKey): { start: number; end: number } {
  const braced = text[k.offset - 1] === '{';
  let start = k.offset - (braced ? 2 : 1);
  if (k.suppressAuthor) start--;
  return { start, end: k.offset + k.length + (braced ? 1 : 0) };
}

/** Blanks and line breaks (with a block quote's `>` markers after them) as one space, as pandoc reads a soft line break. */
function collapse(s: string): string {
  return s.replace(/[ \t]*\r?\n[ \t]*(?:>[ \t]?)*/g, ' ');
}

/** The index of the first bracket whose `[` is at or after `offset` (binary search over the sorted list). */
function firstBracketFrom(brackets: readonly Bracket[], offset: number): number {
  let lo = 0, hi = brackets.length;
  while (lo < hi) {
    work++;
    const mid = (lo + hi) >> 1;
    if (brackets[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The parts of a bracket's text `[from, to)` between its top-level `;`s (those in Markdown text, not
 * in code, and not inside a bracket within it, which pandoc reads as one inline), each `[start, end)`.
 */
function segmentsOf(text: string, scan: PandocScan, from: number, to: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const brackets = scan.brackets;
  let s = from;
  let b = firstBracketFrom(brackets, from);
  for (let i = from; i < to;) {
    // A bracket inside is skipped whole (so nested brackets cost their own text once, not once per level).
    if (b < brackets.length && brackets[b]!.start === i) {
      i = brackets[b]!.end;
      b = firstBracketFrom(brackets, i);
      continue;
    }
    if (text[i] === ';' && inRegions(scan.text, i)) {
      out.push({ start: s, end: i });
      s = i + 1;
    }
    work++;
    i++;
    while (b < brackets.length && brackets[b]!.start < i) b++;
  }
  out.push({ start: s, end: to });
  return out;
}

/**
 * The works a bracket's text `[from, to)` cites as pandoc's `citeList`, or undefined when it is not
 * one (a part between `;`s without a key).
 *
 * @param keys - the keys directly inside, in order
 */
function citeList(text: string, scan: PandocScan, from: number, to: number, keys: readonly PandocKey[]): CiteItem[] | undefined {
  const items: CiteItem[] = [];
  let ki = 0;
  for (const seg of segmentsOf(text, scan, from, to)) {
    while (ki < keys.length && keys[ki]!.offset < seg.start) ki++;
    const k = keys[ki];
    if (!k || k.offset >= seg.end) return undefined;
    const syntax = keySyntax(text, k);
    // A prefix or suffix is read up to MAX_AFFIX characters: what a bracket inside it holds is read
    // as that bracket's, and a suffix that runs over a thousand nested brackets stays linear.
    const prefix = text.slice(Math.max(seg.start, syntax.start - MAX_AFFIX), syntax.start);
    const rawSuffix = text.slice(syntax.end, Math.min(seg.end, syntax.end + MAX_AFFIX));
    work += prefix.length + rawSuffix.length;
    const suffix = collapse(rawSuffix).trim();
    items.push({
      key: k.key,
      prefix: collapse(prefix).trim(),
      suffix: suffix && /^\s/.test(rawSuffix) ? ` ${suffix}` : suffix,
      mode: k.suppressAuthor ? 'suppress-author' : 'normal',
    });
  }
  return items;
}

/** Pandoc's `spnl` after `from`: blanks, then at most one line break and the blanks after it (not a blank line). */
function afterSpnl(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const nl = text[i] === '\r' && text[i + 1] === '\n' ? 2 : text[i] === '\n' || text[i] === '\r' ? 1 : 0;
  if (!nl) return i;
  let j = i + nl;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return text[j] === '\n' || text[j] === '\r' || j >= text.length ? i : j;
}

/**
 * The citations of a Markdown document, as pandoc renders them (see the module's documentation).
 *
 * @param text - the whole document, as scanned
 * @param scan - `scanPandoc(text)`
 * @param isCitation - whether a key is cited (false for a cross-reference such as Quarto's
 *   `@fig-plot`, which stays text); every key by default
 * @returns the citations in document order; their spans do not overlap
 */
export function citationGroups(text: string, scan: PandocScan, isCitation: (key: string) => boolean = () => true): CiteGroup[] {
  work = 0;
  const keys = scan.keys.filter((k) => isCitation(k.key));
  work += scan.keys.length + scan.brackets.length;
  const brackets = scan.brackets;
  // The keys each bracket holds directly, by the bracket's start.
  const held = new Map<number, PandocKey[]>();
  for (const k of keys) {
    if (!k.bracket) continue;
    let list = held.get(k.bracket.start);
    if (!list) held.set(k.bracket.start, list = []);
    list.push(k);
  }
  const normal = new Map<number, CiteItem[] | undefined>();
  const normalCite = (b: Bracket): CiteItem[] | undefined => {
    if (normal.has(b.start)) return normal.get(b.start);
    const inside = held.get(b.start);
    const after = text[b.end];
    const items = inside && after !== '{' && after !== '(' && after !== '[' ? citeList(text, scan, b.start + 1, b.end - 1, inside) : undefined;
    normal.set(b.start, items);
    return items;
  };
  const groups: CiteGroup[] = [];
  const taken = new Set<number>();
  // Brackets in order of their `[`, an outer one before those inside it: a bracket inside a
  // citation is text of its prefix or suffix, and is not read again.
  let covered = -1;
  for (const b of brackets) {
    if (b.start < covered) continue;
    const items = normalCite(b);
    if (items) { groups.push({ start: b.start, end: b.end, items }); taken.add(b.start); covered = b.end; }
  }
  const normals = groups.slice();
  let gi = 0;
  covered = -1;
  for (const k of keys) {
    work++;
    // A key inside a citation (its own, or its prefix's or suffix's) is that citation's.
    while (gi < normals.length && normals[gi]!.end <= k.offset) gi++;
    if ((gi < normals.length && normals[gi]!.start < k.offset) || k.offset < covered) continue;
    const syntax = keySyntax(text, k);
    const first: CiteItem = { key: k.key, prefix: '', suffix: '', mode: k.suppressAuthor ? 'suppress-author' : 'author-in-text' };
    let end = syntax.end;
    let items = [first];
    // A bracket right after it: a citation to join (`@a [@b]`), or a locator and more (`@a [p. 3; @b]`).
    const at = afterSpnl(text, syntax.end);
    const next = text[at] === '[' && text[at + 1] !== '^' ? brackets[firstBracketFrom(brackets, at)] : undefined;
    if (next?.start === at && taken.has(at)) {
      // `@a [@b]`: one citation; the bracket's own entry is dropped below (it lies inside this one).
      items = [first, ...normalCite(next)!];
      end = next.end;
    } else if (next?.start === at && text[next.end] !== '[' && text[next.end] !== '(') {
      const inside = held.get(next.start) ?? [];
      const head = segmentsOf(text, scan, next.start + 1, next.end - 1)[0]!;
      const rest = inside.some((x) => x.offset < head.end) ? undefined
        : head.end < next.end - 1 ? citeList(text, scan, head.end + 1, next.end - 1, inside) : [];
      if (rest) {
        const raw = text.slice(next.start + 1, head.end);
        const suffix = collapse(raw).trim();
        first.suffix = suffix && /^\s/.test(raw) ? ` ${suffix}` : suffix;
        items = [first, ...rest];
        end = next.end;
        taken.add(next.start);
      }
    }
    groups.push({ start: syntax.start, end, items });
    covered = end;
  }
  groups.sort((a, b) => a.start - b.start);
  // A bracketed citation that joined an author-in-text one (`@a [@b]`) lies inside it: dropped.
  const out: CiteGroup[] = [];
  for (const g of groups) {
    const last = out[out.length - 1];
    if (last && g.start < last.end) continue;
    out.push(g);
  }
  return out;
}

/** The lines of a `::: {#refs}` div: where pandoc puts the bibliography (after what the div holds). */
export interface RefsDiv {
  /** `[start, end)` of the opening fence's line (`::: {#refs}`), line break excluded. */
  open: { start: number; end: number };
  /** `[start, end)` of the closing fence's line (`:::`), line break excluded. */
  close: { start: number; end: number };
}

// A fenced div's opening fence whose identifier is `refs` (pandoc's User's Guide, "Divs and Spans").
const REFS_OPEN = /^ {0,3}:{3,}[ \t]*\{[ \t]*#refs(?:[ \t][^}]*)?\}(?:[ \t]*:+)?[ \t]*$/;
/** A closing fence: colons only. */
const FENCE_CLOSE = /^ {0,3}:{3,}[ \t]*$/;

/**
 * The `::: {#refs}` div of a document, when the block reader read its fences as fences (not in
 * code) and it is closed: nested fenced divs are counted, the first `:::` that closes it ends it.
 *
 * @param scan - `scanPandoc(text)`
 */
export function refsDivOf(text: string, scan: PandocScan): RefsDiv | undefined {
  const fences = scan.divFences;
  const at = fences.findIndex((f) => REFS_OPEN.test(text.slice(f.start, f.end)));
  if (at < 0) return undefined;
  let depth = 0;
  for (let i = at + 1; i < fences.length; i++) {
    const f = fences[i]!;
    if (!FENCE_CLOSE.test(text.slice(f.start, f.end))) depth++;
    else if (depth-- === 0) return { open: fences[at]!, close: f };
  }
  return undefined;
}
