/**
 * The keys a LaTeX text defines with `\bibitem`: a `thebibliography` environment written by hand,
 * or the `.bbl` file BibTeX wrote and an arXiv submission pastes or `\input`s. LaTeX defines a
 * citation key with `\bibitem[label]{key}` (LaTeX2e sources, `ltbibl.dtx`: `\bibitem` is
 * `\@ifnextchar[\@lbibitem\@bibitem`, `\def\@lbibitem[#1]#2{…}` and `\def\@bibitem#1{…}`, each
 * writing `\bibcite{#2}{…}` to the `.aux` file; Lamport, *LaTeX*, 2nd ed., §4.3.2 and C.12.4).
 *
 * How the arguments are read, as TeX reads those macro parameters (The TeXbook, ch. 20, "delimited
 * parameters"): `\@ifnextchar` skips blanks (and one line end) before looking for `[`; the optional
 * label runs to the first `]` at brace depth 0, so natbib's `\bibitem[{Smith et~al.(2020)}]{key}`
 * and `\bibitem[{a]b}]{key}` have labels `{Smith et~al.(2020)}` and `{a]b}`; the key is the next
 * braced group after blanks. The macros are not `\long`: a blank line inside either argument is
 * TeX's "Paragraph ended before … was complete" error, and such an item defines nothing here. A key
 * that is not a braced group, or that holds a macro (`\bibitem{\k}`), is not read.
 *
 * Comments, verbatim text and `\iffalse` blocks are blanked first (`maskLatex`, `scan.ts`), so a
 * `\bibitem` there defines nothing. One left-to-right pass: an argument's scan stops at the next
 * `\bibitem`, so no character is read by two items' scans.
 *
 * Offsets are UTF-16 code units; lines and characters are 0-based, as LSP counts them (`\n`,
 * `\r\n` and a lone `\r` each end a line).
 */
import { latexCommands } from './commands.js';
import { BACKSLASH, isLetter, LBRACE, LBRACKET, maskLatex } from './scan.js';

/** At most this many characters of an item's text are kept (for a hover, which shows less). */
export const BIBITEM_TEXT_MAX = 600;

/** One `\bibitem`: the key it defines and where. */
export interface LatexBibitem {
  /** The citation key, as written between the braces with blanks around it removed. */
  key: string;
  /** Offset of the key's first character (UTF-16 code units). */
  offset: number;
  /** 0-based line of the key. */
  line: number;
  /** 0-based UTF-16 character of the key on its line. */
  character: number;
  /** The optional label as written between `[` and `]` (blanks trimmed); absent without one. */
  label?: string;
  /**
   * The item's text: after the key up to the next `\bibitem`, `\end{thebibliography}` or the end
   * of the text, comments blanked, white space runs as one space, trimmed, at most
   * {@link BIBITEM_TEXT_MAX} characters. LaTeX source, not plain text.
   */
  text: string;
}

/** What a text holds of `thebibliography`. */
export interface LatexThebibliography {
  /** Its `\bibitem`s, in order (a key written twice appears twice: LaTeX keeps the last). */
  items: LatexBibitem[];
  /** How many `\begin{thebibliography}` it has (an environment without items counts). */
  environments: number;
}

const RBRACE = 125, RBRACKET = 93, LF = 10, CR = 13;
const isBlank = (c: number): boolean => c === 32 || c === 9;
const isLineEnd = (c: number): boolean => c === LF || c === CR;

/**
 * The `\bibitem`s and `thebibliography` environments of a LaTeX text (see the module's
 * documentation for the rules and their sources).
 *
 * @param text - a LaTeX document or `.bbl` file
 * @param clean - the text already masked by `maskLatex`, when the caller has it
 * @returns the items in order, and the number of environments; never throws
 * @example latexBibitems('\\bibitem[{Li(2020)}]{li20} Li. 2020.').items[0] // { key: 'li20', label: '{Li(2020)}', text: 'Li. 2020.', … }
 */
export function latexBibitems(text: string, clean = maskLatex(text)): LatexThebibliography {
  const n = clean.length;
  const starts: number[] = [];
  for (let at = clean.indexOf('\\bibitem'); at >= 0; at = clean.indexOf('\\bibitem', at + 8)) {
    // Not `\\bibitem` (a line break, then text) nor `\bibitems`.
    let run = 0;
    while (at - run - 1 >= 0 && clean.charCodeAt(at - run - 1) === BACKSLASH) run++;
    if (run % 2 === 1 || (at + 8 < n && isLetter(clean.charCodeAt(at + 8)))) continue;
    starts.push(at);
  }
  const envs = latexCommands(clean, (name) => name === 'begin' || name === 'end')
    .filter((c) => c.groups[0]!.close >= 0 && clean.slice(c.groups[0]!.open + 1, c.groups[0]!.close).trim() === 'thebibliography');
  const ends = envs.filter((c) => c.command === 'end').map((c) => c.start);
  const items: LatexBibitem[] = [];
  const lines = lineCounter(text);
  let e = 0;
  for (let s = 0; s < starts.length; s++) {
    const limit = s + 1 < starts.length ? starts[s + 1]! : n;
    const item = readItem(text, clean, starts[s]! + 8, limit);
    if (!item) continue;
    while (e < ends.length && ends[e]! < item.after) e++;
    const textEnd = Math.min(limit, e < ends.length ? ends[e]! : n);
    const body = clean.slice(item.after, Math.min(textEnd, item.after + 4 * BIBITEM_TEXT_MAX)).replace(/\s+/g, ' ').trim().slice(0, BIBITEM_TEXT_MAX);
    const { line, character } = lines(item.keyOffset);
    items.push({ key: item.key, offset: item.keyOffset, line, character, ...(item.label !== undefined ? { label: item.label } : {}), text: body });
  }
  return { items, environments: envs.filter((c) => c.command === 'begin').length };
}

/**
 * Reads `[label]{key}` from `i` (right after `\bibitem`), no further than `limit`.
 *
 * @returns the key, its offset, the label, and where the item's text starts; undefined when the
 *   arguments are malformed (TeX would stop with an error) or the key is not plain text
 */
function readItem(text: string, clean: string, i: number, limit: number): { key: string; keyOffset: number; label?: string; after: number } | undefined {
  let k = skipBlanks(text, clean, i, limit);
  let label: string | undefined;
  if (clean.charCodeAt(k) === LBRACKET && k < limit) {
    const close = closing(text, clean, k + 1, limit, RBRACKET);
    if (close < 0) return undefined;
    label = clean.slice(k + 1, close).trim();
    k = skipBlanks(text, clean, close + 1, limit);
  }
  if (k >= limit || clean.charCodeAt(k) !== LBRACE) return undefined;
  const close = closing(text, clean, k + 1, limit, RBRACE);
  if (close < 0) return undefined;
  const raw = clean.slice(k + 1, close);
  const key = raw.trim();
  if (!key || /[\\{}#]/.test(key)) return undefined;
  const keyOffset = k + 1 + (raw.length - raw.trimStart().length);
  return { key, keyOffset, ...(label !== undefined ? { label } : {}), after: close + 1 };
}

/**
 * After the blanks TeX skips before an argument, from `i`, before `limit`: blanks and line ends,
 * but not a blank line (TeX's `\par`: the offset of its line end is returned). A line whose only
 * text is a comment is no blank line (the comment ate its line end), hence `text`, unmasked.
 */
function skipBlanks(text: string, clean: string, i: number, limit: number): number {
  let k = i;
  // The rest of the command's own line is not an empty line, whatever it holds.
  let content = true;
  while (k < limit) {
    const c = clean.charCodeAt(k);
    if (isLineEnd(c)) {
      if (!content) return k;
      content = false;
      k += c === CR && clean.charCodeAt(k + 1) === LF ? 2 : 1;
    } else if (isBlank(c)) {
      if (!isBlank(text.charCodeAt(k))) content = true;
      k++;
    } else return k;
  }
  return k;
}

/**
 * The offset of `delim` at brace depth 0 from `i` (inside an argument whose opening is before `i`),
 * before `limit`; -1 when a blank line (TeX's `\par`, which ends a non-`\long` argument), an
 * unbalanced `}` or `limit` comes first. A `\{`, `\}` or `\]` is a control symbol, not a delimiter.
 */
function closing(text: string, clean: string, i: number, limit: number, delim: number): number {
  let depth = 0;
  let content = true;
  for (let k = i; k < limit; k++) {
    const c = clean.charCodeAt(k);
    if (c === BACKSLASH) { k++; content = true; continue; }
    if (isLineEnd(c)) {
      if (c === CR && clean.charCodeAt(k + 1) === LF) k++;
      if (!content) return -1;
      content = false;
      continue;
    }
    if (!isBlank(text.charCodeAt(k))) content = true;
    if (c === LBRACE) depth++;
    else if (c === RBRACE) {
      if (depth === 0) return delim === RBRACE ? k : -1;
      depth--;
    } else if (c === delim && depth === 0) return k;
  }
  return -1;
}

/**
 * `at(offset)`: the 0-based line and UTF-16 character of an offset, for offsets asked in
 * increasing order (each asks only about the text since the last).
 */
function lineCounter(text: string): (offset: number) => { line: number; character: number } {
  let pos = 0, line = 0, lineStart = 0;
  return (offset) => {
    for (; pos < offset; pos++) {
      const c = text.charCodeAt(pos);
      if (c === LF || (c === CR && text.charCodeAt(pos + 1) !== LF)) { line++; lineStart = pos + 1; }
    }
    return { line, character: offset - lineStart };
  };
}
