/**
 * The one reader of LaTeX commands and their arguments that we look for: citation commands (for
 * the citation list behind diagnostics, hover and go to definition, and for the completion
 * context), and `\bibliography`, `\addbibresource`, `\usepackage` (for the bibliography). It reads
 * text already masked by `maskLatex` (`scan.ts`: comments, verbatim text and `\iffalse` blocks
 * blanked), so it only has to know the commands' syntax:
 *
 * `\name*[opt][opt]{arg}`: at most two optional arguments, then one braced argument; for a command
 * that takes several (biblatex's multicite commands), up to two `(note)`s first and further
 * `[opt][opt]{arg}` groups (biblatex manual, "Qualified Citation Lists"). A braced argument is
 * closed by the first `}`; a `{` or the end of the text coming first leaves it unclosed (while the
 * user types), and an optional argument's text has no `]` (as natbib's and biblatex's commands
 * read them).
 *
 * Citation commands are those whose name contains `cite` or `Cite`: LaTeX's `\cite` and `\nocite`,
 * natbib's `\citep`, `\citet*`, `\citeauthor`, …, biblatex's `\parencite`, `\textcite`,
 * `\autocite`, `\footcite`, …; multicite commands are those whose name contains `cites`
 * (`\cites`, `\parencites`, `\textcites`, …) (natbib and biblatex manuals).
 *
 * One left-to-right pass: every search for a delimiter resumes where the previous search for the
 * same delimiter ended, so even a document full of unclosed `[` is read in linear time.
 */

import { BACKSLASH, isLetter, LBRACE, LBRACKET, STAR } from './scan.js';

/** One braced argument `{…}` of a command. */
export interface LatexGroup {
  /** Offset of the `{`. */
  open: number;
  /** Offset of the closing `}`, or -1 when the argument is not closed. */
  close: number;
  /** Where the argument's text ends: `close`, or the next `{` (or end of the text read) when not closed. */
  end: number;
}

/** A use of a command, with its braced arguments. */
export interface LatexCommand {
  /** The command's name, without backslash or star: `citep`. */
  command: string;
  /** Offset of the backslash. */
  start: number;
  /** Its braced arguments, in order: one, or several for a command that takes several; the last may be unclosed. */
  groups: LatexGroup[];
}

const LPAREN = 40;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;

/** Whether a command name (letters only) is a citation command: it contains `cite` or `Cite`. */
export function isCiteCommand(name: string): boolean {
  return name.includes('cite') || name.includes('Cite');
}

/** Whether a citation command takes several key lists (biblatex's multicite commands: `\cites`, `\parencites`, …). */
export function isMulticiteCommand(name: string): boolean {
  return name.toLowerCase().includes('cites');
}

/**
 * The uses of some commands in LaTeX code that start in `[from, to)`.
 *
 * @param code - LaTeX text whose comments and verbatim parts are blanked (`maskLatex`)
 * @param wanted - which command names to read (letters only, no backslash)
 * @param several - which of them take several braced arguments (default: none)
 * @param from - where to start reading (a backslash escaped by an odd run of backslashes just before `from` is skipped)
 * @param to - where to stop: commands start before it, and their arguments are cut at it
 * @returns the commands with at least one braced argument, in order
 * @example latexCommands('\\bibliography{a,b}', (n) => n === 'bibliography') // [{ command: 'bibliography', start: 0, groups: [{ open: 13, close: 17, end: 17 }] }]
 */
export function latexCommands(
  code: string, wanted: (name: string) => boolean, several: (name: string) => boolean = () => false,
  from = 0, to = code.length,
): LatexCommand[] {
  const n = Math.min(code.length, to);
  const next = nextFinder(code, n);
  // Blanks between arguments; the last run read is remembered, as `next` remembers its answers.
  let blankFrom = -1, blankTo = -1;
  const skipSpaces = (i: number): number => {
    if (i >= blankFrom && i <= blankTo) return blankTo;
    let k = i;
    while (k < n && isSpace(code.charCodeAt(k))) k++;
    blankFrom = i;
    blankTo = k;
    return k;
  };
  const out: LatexCommand[] = [];
  let i = Math.max(0, from);
  // Started in the middle of a run of backslashes: an odd run before `from` escapes the character at it.
  let run = 0;
  while (i - run - 1 >= 0 && code.charCodeAt(i - run - 1) === BACKSLASH) run++;
  if (run % 2 === 1) i++;
  while (i < n) {
    const b = code.indexOf('\\', i);
    if (b < 0 || b >= n) break;
    let j = b + 1;
    if (j >= n) break;
    // A control symbol (`\\`, `\{`): the backslash and one character.
    if (!isLetter(code.charCodeAt(j))) { i = j + 1; continue; }
    while (j < n && isLetter(code.charCodeAt(j))) j++;
    i = j;
    const command = code.slice(b + 1, j);
    if (!wanted(command)) continue;
    const multi = several(command);
    let p = code.charCodeAt(j) === STAR ? j + 1 : j;
    // A multicite command's global notes: `\cites(pre)(post)[…]{a}[…]{b}`.
    for (let k = 0, q = skipSpaces(p); multi && k < 2 && code.charCodeAt(q) === LPAREN; k++) {
      const close = next(')', q + 1);
      if (close < 0) break;
      p = close + 1;
      q = skipSpaces(p);
    }
    const groups: LatexGroup[] = [];
    for (;;) {
      // At most two optional arguments `[…]`, then the braced one.
      let q = skipSpaces(p);
      let ok = true;
      for (let k = 0; k < 2 && code.charCodeAt(q) === LBRACKET; k++) {
        const close = next(']', q + 1);
        if (close < 0) { ok = false; break; }
        q = skipSpaces(close + 1);
      }
      if (!ok || q >= n || code.charCodeAt(q) !== LBRACE) break;
      const close = next('}', q + 1);
      const open = next('{', q + 1);
      if (close >= 0 && (open < 0 || close < open)) {
        groups.push({ open: q, close, end: close });
        p = close + 1;
        if (multi) continue;
      } else {
        groups.push({ open: q, close: -1, end: open < 0 ? n : open });
      }
      break;
    }
    if (groups.length) {
      out.push({ command, start: b, groups });
      i = Math.max(i, groups[groups.length - 1]!.end);
    }
  }
  return out;
}

/**
 * The citation commands in LaTeX code that start in `[from, to)`: {@link latexCommands} for the
 * names {@link isCiteCommand} accepts, several key lists for {@link isMulticiteCommand}.
 *
 * @example latexCiteCommands('see \\citep[p.~3]{a,b}') // [{ command: 'citep', start: 4, groups: [{ open: 16, close: 20, end: 20 }] }]
 */
export function latexCiteCommands(code: string, from = 0, to = code.length): LatexCommand[] {
  return latexCommands(code, isCiteCommand, isMulticiteCommand, from, to);
}

/**
 * `next(ch, from)`: the first `ch` at or after `from` and before `limit`, or -1. Remembers its last
 * answer for each character, so that searches for one character from increasing offsets read the
 * text once.
 */
function nextFinder(text: string, limit: number): (ch: string, from: number) => number {
  const memo = new Map<string, { from: number; at: number }>();
  return (ch, from) => {
    const m = memo.get(ch);
    // A remembered answer holds for any later start up to it: nothing lies between.
    if (m && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
    let at = text.indexOf(ch, from);
    if (at >= limit) at = -1;
    memo.set(ch, { from, at });
    return at;
  };
}
