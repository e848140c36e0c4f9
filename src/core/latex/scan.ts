/**
 * One LaTeX scanner for everything that reads LaTeX (citations, completion context, bibliography
 * declarations, the `% !TEX root` magic comment): it finds the parts of a document that are not
 * LaTeX code for our purposes, so that a `\cite` in a comment, a verbatim listing or an `\iffalse`
 * block is not taken for a citation.
 *
 * A hand-written tokenizer, not a parser: `@unified-latex` was measured (v1.8.4: 248 KB minified for
 * `parse`, Node built-ins required; 2.2 s to parse a 300 KB paper) and does not fit a path that runs
 * on every keystroke. This one is a single left-to-right pass, linear in the text's length (no
 * regular expressions over unbounded input), and never imports `vscode` or `node:` modules.
 *
 * What it recognises, and where each rule comes from:
 * - **Comments**: an unescaped `%` to the end of its line. `\%` is an escaped percent sign, but in
 *   `\\%` the `\\` is one control symbol (a line break) and the `%` starts a comment: control
 *   sequences are read left to right, so the backslashes count in pairs (The TeXbook, ch. 7–8:
 *   category 14 and how TeX reads control sequences; Lamport, *LaTeX: A Document Preparation
 *   System*, 2nd ed., ch. 2 on `%`).
 * - **`\verb<d>…<d>` and `\verb*`**: the argument runs to the next `<d>` on the same line; a line end
 *   first is LaTeX's "\verb ended by end of line" error, and the region stops there (LaTeX2e
 *   sources, `ltmiscen.dtx`; Lamport, §C.6.4). The delimiter may not be a letter, a blank or a
 *   line end.
 * - **`\lstinline[opts]<d>…<d>` and `\lstinline{…}`** (listings manual, "\lstinline"),
 *   **`\mintinline[opts]{lang}<d>…<d>` / `{…}`** and **`\mint[opts]{lang}<d>…<d>`** (minted manual),
 *   **`\Verb*[opts]<d>…<d>`** (fancyvrb manual), **`\url{…}`** (url package manual: the argument is
 *   read verbatim, so `%` in a URL is not a comment; `\path` is left alone, TikZ has one too). Braced
 *   arguments count nested braces; all of these end at the line end at the latest.
 * - **Environments read verbatim**: `verbatim`, `verbatim*` (LaTeX2e `ltmiscen.dtx`; the `verbatim`
 *   package manual), `Verbatim`, `BVerbatim`, `LVerbatim` and their starred forms (fancyvrb manual),
 *   `lstlisting` (listings manual), `minted` (minted manual), `comment` (comment package manual),
 *   `filecontents`/`filecontents*` (LaTeX2e kernel since 2019, the filecontents package before).
 *   The content runs from after `\begin{env}` and its options (`[…]`, and `{lang}` for minted or
 *   `{file}` for filecontents, which stay code: a listing's `caption={…}` may cite) to the first
 *   literal `\end{env}`, as these packages look for it; without one, to the end of the text.
 * - **`\iffalse … \fi`**, and **`\if0 … \fi`** (`\if` comparing a digit with a blank, a line end
 *   or another digit, which TeX decides false): skipped text up to the matching `\fi`, or to a `\else` at the same depth
 *   (after which the text is code again). While skipping, TeX still reads tokens: comments hide a
 *   `\fi`, and nested conditionals are counted (The TeXbook, ch. 20). Counted as conditionals: TeX's,
 *   e-TeX's and pdfTeX's primitives (`\if`, `\ifx`, `\ifnum`, `\ifdefined`, …), `\if<name>` declared
 *   with `\newif` earlier in the text, and the common package flags `\ifpdf`, `\ifxetex`,
 *   `\ifluatex` (and iftex's spellings). Not counted: macros that merely start with "if" and take
 *   arguments instead of ending in `\fi` (`\ifthenelse`, etoolbox's `\ifdef`, `\iff`).
 *
 * Limits, on purpose: catcode changes are not followed (`\makeatletter` needs nothing: `\if@x`
 * reads as the conditional `\if`, `\@ifnextchar` as the control symbol `\@`); nor are environments
 * defined with `\lstnewenvironment` or `\newminted`, `\iftrue … \else` branches, names `\let` to
 * `\iffalse`, or the text after `\end{document}`.
 *
 * Offsets are UTF-16 code units, as VS Code's `document.offsetAt` gives them.
 */

/** What kind of non-code text a region holds. */
export type LatexRegionKind = 'comment' | 'inline' | 'environment' | 'iffalse';

/** A part of a LaTeX document that is not LaTeX code: `[start, end)` in UTF-16 code units. */
export interface LatexRegion {
  /**
   * `comment`: from `%` to the line end (the line break excluded).
   * `inline`: the argument of `\verb` and its kin, from right after the command name to its closing
   *   delimiter (included).
   * `environment`: the content of a verbatim-like environment, between `\begin{env}` (and its
   *   options) and `\end{env}`.
   * `iffalse`: the text skipped by `\iffalse` (or a false `\if0`), between it and its `\fi` (or `\else`).
   */
  kind: LatexRegionKind;
  /** `%` for comments; the command (`verb`, `lstinline`, …) or environment (`lstlisting`, …) name; the conditional (`iffalse`, `if`). */
  name: string;
  start: number;
  end: number;
}

/** Options of {@link latexRegions}. */
export interface LatexScanOptions {
  /** Scan only up to this offset (regions are cut there). Default: the whole text. */
  end?: number;
}

/** Character codes the LaTeX readers compare with (`scan.ts` and `commands.ts`). */
export const BACKSLASH = 92, LBRACE = 123, LBRACKET = 91, STAR = 42;
const PERCENT = 37, LF = 10, CR = 13, SPACE = 32, TAB = 9, RBRACE = 125, RBRACKET = 93;

/** Environments whose content is not LaTeX code, and the arguments that follow their `\begin{…}`. */
const VERBATIM_ENVIRONMENTS: ReadonlyMap<string, 'none' | 'options' | 'options+arg'> = new Map([
  ['verbatim', 'none'], ['verbatim*', 'none'], ['comment', 'none'],
  ['Verbatim', 'options'], ['Verbatim*', 'options'], ['BVerbatim', 'options'], ['BVerbatim*', 'options'],
  ['LVerbatim', 'options'], ['LVerbatim*', 'options'], ['lstlisting', 'options'],
  ['minted', 'options+arg'], ['filecontents', 'options+arg'], ['filecontents*', 'options+arg'],
]);

/** TeX's conditionals (The TeXbook, ch. 20), e-TeX's, pdfTeX's/LuaTeX's, and common package flags. */
const CONDITIONALS: ReadonlySet<string> = new Set([
  'if', 'ifcat', 'ifnum', 'ifdim', 'ifodd', 'ifvmode', 'ifhmode', 'ifmmode', 'ifinner', 'ifvoid', 'ifhbox',
  'ifvbox', 'ifx', 'ifeof', 'iftrue', 'iffalse', 'ifcase',
  'ifdefined', 'ifcsname', 'iffontchar',
  'ifpdfprimitive', 'ifpdfabsnum', 'ifpdfabsdim', 'ifincsname', 'ifprimitive', 'ifabsnum', 'ifabsdim',
  'ifpdf', 'ifxetex', 'ifluatex', 'ifpdftex', 'ifPDFTeX', 'ifXeTeX', 'ifLuaTeX', 'ifvtex', 'ifVTeX',
]);

/** Whether a character code is an ASCII letter: what a LaTeX control word's name is made of (catcode 11). */
export const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isBlank = (c: number): boolean => c === SPACE || c === TAB;
const isLineEnd = (c: number): boolean => c === LF || c === CR;

/**
 * The regions of a LaTeX document that are not LaTeX code (see the module's documentation for the
 * rules and their sources).
 *
 * @param text - a LaTeX document, from its start (an `\end{env}` without its `\begin` is code)
 * @param options - where to stop
 * @returns disjoint regions in ascending order of offset, none empty
 * @example latexRegions('a % b\n\\verb|c|') // [{ kind: 'comment', start: 2, end: 5 }, { kind: 'inline', name: 'verb', start: 11, end: 14 }]
 */
export function latexRegions(text: string, options: LatexScanOptions = {}): LatexRegion[] {
  const n = text.length;
  const stop = Math.min(n, Math.max(0, options.end ?? n));
  const regions: LatexRegion[] = [];
  const conditionals = new Set(CONDITIONALS);
  const push = (kind: LatexRegionKind, name: string, start: number, end: number) => {
    const e = Math.min(end, stop);
    if (e > start) regions.push({ kind, name, start, end: e });
  };
  const lineEnd = (i: number): number => {
    while (i < n && !isLineEnd(text.charCodeAt(i))) i++;
    return i;
  };
  const skipBlanks = (i: number): number => {
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    return i;
  };
  /**
   * After an optional `[…]` at `i` (on one line, brackets not nested): `i` itself when there is
   * none, -1 when it is not closed on its line.
   */
  const optionalOnLine = (i: number): number => {
    if (text.charCodeAt(i) !== LBRACKET) return i;
    for (let k = i + 1; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === RBRACKET) return k + 1;
      if (isLineEnd(c)) return -1;
    }
    return -1;
  };
  /** After a `{…}` (braces balanced) at `i` and ending on its line; -1 when there is none. */
  const bracedOnLine = (i: number): number => {
    if (text.charCodeAt(i) !== LBRACE) return -1;
    let depth = 0;
    for (let k = i; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === LBRACE) depth++;
      else if (c === RBRACE && --depth === 0) return k + 1;
      else if (isLineEnd(c)) return -1;
    }
    return -1;
  };
  /**
   * The verbatim argument at `i`: `<d>…<d>` (or `{…}` when `braces`), ending on its line.
   * @returns the offset after it (the line end when it is not closed there), or -1 when there is
   *   no argument (a blank, a line end or a letter at `i`: decided without reading further)
   */
  const verbatimArgument = (i: number, braces: boolean): number => {
    if (i >= n) return -1;
    const d = text.charCodeAt(i);
    if (isBlank(d) || isLineEnd(d) || isLetter(d)) return -1;
    if (d === LBRACE && braces) {
      const after = bracedOnLine(i);
      return after < 0 ? lineEnd(i) : after;
    }
    for (let k = i + 1; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === d) return k + 1;
      if (isLineEnd(c)) return k;
    }
    return n;
  };
  /**
   * The end of the argument of an inline verbatim command whose name ends at `j`, or -1 when it has
   * none. Once an argument has begun, a malformed one (an option or a language not closed on its
   * line) runs to the line end: what was read is never read again, so the scan stays linear.
   */
  const inlineArgument = (name: string, j: number): number => {
    switch (name) {
      case 'verb':
        return verbatimArgument(text.charCodeAt(j) === STAR ? j + 1 : j, false);
      case 'Verb':
      case 'lstinline': {
        const k = name === 'Verb' ? (text.charCodeAt(j) === STAR ? j + 1 : j) : skipBlanks(j);
        const o = optionalOnLine(k);
        return o < 0 ? lineEnd(k) : verbatimArgument(skipBlanks(o), true);
      }
      case 'url':
        return verbatimArgument(skipBlanks(j), true);
      case 'mintinline':
      case 'mint': {
        const start = skipBlanks(j);
        const o = optionalOnLine(start);
        if (o < 0) return lineEnd(j);
        const k = skipBlanks(o);
        if (text.charCodeAt(k) !== LBRACE) return o > start ? o : -1;
        const lang = bracedOnLine(k);
        if (lang < 0) return lineEnd(k);
        const e = verbatimArgument(skipBlanks(lang), true);
        return e < 0 ? lang : e;
      }
      default:
        return -1;
    }
  };
  /** After the options of a verbatim-like environment, starting at `i`, looking no further than `limit`. */
  const environmentArguments = (i: number, args: 'none' | 'options' | 'options+arg', limit: number): number => {
    if (args === 'none') return i;
    let k = skipBlanks(i);
    if (text.charCodeAt(k) === LBRACKET) {
      // Options may hold braces (`caption={a, b}`), and a `]` inside braces does not close them.
      let depth = 0;
      for (let j = k + 1; j < limit; j++) {
        const c = text.charCodeAt(j);
        if (c === LBRACE) depth++;
        else if (c === RBRACE) depth = Math.max(0, depth - 1);
        else if (c === RBRACKET && depth === 0) { k = j + 1; break; }
      }
    }
    if (args === 'options+arg') {
      const after = bracedOnLine(skipBlanks(k));
      if (after > 0 && after <= limit) k = after;
    }
    return k;
  };
  /** The name in `{name}` at `i` (after blanks and at most one line break), and the offset after it. */
  const environmentName = (i: number): { name: string; after: number } | undefined => {
    let k = skipBlanks(i);
    if (text.charCodeAt(k) === CR) k++;
    if (text.charCodeAt(k) === LF) k++;
    k = skipBlanks(k);
    if (text.charCodeAt(k) !== LBRACE) return undefined;
    for (let j = k + 1; j < n && j <= k + 64; j++) {
      const c = text.charCodeAt(j);
      if (c === RBRACE) return { name: text.slice(k + 1, j), after: j + 1 };
      if (!isLetter(c) && c !== STAR) return undefined;
    }
    return undefined;
  };

  let i = 0;
  while (i < stop) {
    const c = text.charCodeAt(i);
    if (c === PERCENT) {
      const e = lineEnd(i);
      push('comment', '%', i, e);
      i = e;
      continue;
    }
    if (c !== BACKSLASH) { i++; continue; }
    let j = i + 1;
    if (j >= n) break;
    // A control symbol (`\\`, `\%`, `\{`, …) is the backslash and one character, whatever it is.
    if (!isLetter(text.charCodeAt(j))) { i = j + 1; continue; }
    while (j < n && isLetter(text.charCodeAt(j))) j++;
    const name = text.slice(i + 1, j);
    i = j;
    switch (name) {
      case 'verb':
      case 'Verb':
      case 'lstinline':
      case 'url':
      case 'mintinline':
      case 'mint': {
        const e = inlineArgument(name, j);
        if (e >= 0) { push('inline', name, j, e); i = e; }
        break;
      }
      case 'begin': {
        const env = environmentName(j);
        if (!env) break;
        const args = VERBATIM_ENVIRONMENTS.get(env.name);
        if (!args) { i = env.after; break; }
        const endTag = `\\end{${env.name}}`;
        const found = text.indexOf(endTag, env.after);
        const contentEnd = found < 0 ? n : found;
        const contentStart = environmentArguments(env.after, args, contentEnd);
        push('environment', env.name, contentStart, contentEnd);
        i = found < 0 ? n : found + endTag.length;
        break;
      }
      case 'newif': {
        let k = skipBlanks(j);
        if (text.charCodeAt(k) !== BACKSLASH) break;
        const s = ++k;
        while (k < n && isLetter(text.charCodeAt(k))) k++;
        const declared = text.slice(s, k);
        if (declared.startsWith('if') && declared.length > 2) conditionals.add(declared);
        i = k;
        break;
      }
      case 'iffalse': {
        const e = skipConditional(text, j, stop, conditionals);
        push('iffalse', name, j, e.end);
        i = e.resume;
        break;
      }
      case 'if': {
        const from = falseCharacterTest(text, j);
        if (from < 0) break;
        const e = skipConditional(text, from, stop, conditionals);
        push('iffalse', name, from, e.end);
        i = e.resume;
        break;
      }
      default:
        break;
    }
  }
  return regions;
}

/**
 * Whether the `\if` whose name ends at `j` is one TeX decides false from the text alone: `\if0`
 * (or `\if 1`) followed by a blank, a line end or another digit. `\if` compares the character
 * codes of the next two unexpandable tokens (The TeXbook, ch. 20); blanks after a control word are
 * skipped, and the blank or line end after the digit is a space token, which no digit equals. The
 * idiom `\if0 … \fi` comments out a block as `\iffalse` does. Anything else after `\if` (a macro,
 * `@` under `\makeatletter` as in `\if@twocolumn`, a parameter) is left alone: it is not known
 * statically.
 *
 * @returns where the skipped text starts (after the first digit), or -1 when it is not such a test
 */
function falseCharacterTest(text: string, j: number): number {
  let k = j;
  while (k < text.length && isBlank(text.charCodeAt(k))) k++;
  const a = text.charCodeAt(k);
  if (!(a >= 48 && a <= 57)) return -1;
  const b = text.charCodeAt(k + 1);
  if (Number.isNaN(b) || isBlank(b) || isLineEnd(b) || (b >= 48 && b <= 57 && b !== a)) return k + 1;
  return -1;
}

/**
 * Skips the text of a false conditional from `from` (right after `\iffalse`), as TeX does: nested
 * conditionals are counted, comments are skipped whole.
 *
 * @returns `end`: where the skipped text ends (the matching `\fi` or `\else`, or `limit`);
 *   `resume`: where scanning goes on (after that `\fi` or `\else`)
 */
function skipConditional(text: string, from: number, limit: number, conditionals: ReadonlySet<string>): { end: number; resume: number } {
  const n = text.length;
  let depth = 0;
  let k = from;
  while (k < limit) {
    const c = text.charCodeAt(k);
    if (c === PERCENT) {
      while (k < n && !isLineEnd(text.charCodeAt(k))) k++;
      continue;
    }
    if (c !== BACKSLASH) { k++; continue; }
    const s = k + 1;
    if (s >= n) break;
    if (!isLetter(text.charCodeAt(s))) { k = s + 1; continue; }
    let e = s;
    while (e < n && isLetter(text.charCodeAt(e))) e++;
    const name = text.slice(s, e);
    if (name === 'fi') {
      if (depth === 0) return { end: k, resume: e };
      depth--;
    } else if (name === 'else' && depth === 0) {
      return { end: k, resume: e };
    } else if (conditionals.has(name)) {
      depth++;
    }
    k = e;
  }
  return { end: limit, resume: limit };
}

/**
 * The document with its non-code regions blanked: every character in them becomes a space, except
 * line breaks (`\n`, `\r`), so the result has the same length, offsets and line numbers as `text`.
 * Regular expressions run over it see only LaTeX code.
 *
 * @param text - a LaTeX document
 * @param regions - its regions, if already scanned (by default, {@link latexRegions} of the whole text)
 * @returns the masked text, as long as `text`
 * @example maskLatex('a \\cite{x} % \\cite{y}') // 'a \\cite{x}           '
 */
export function maskLatex(text: string, regions: readonly LatexRegion[] = latexRegions(text)): string {
  if (!regions.length) return text;
  const parts: string[] = [];
  let prev = 0;
  for (const r of regions) {
    parts.push(text.slice(prev, r.start));
    // Blanks, line by line (most regions are one line: a comment, a `\verb`).
    let s = r.start;
    for (let k = r.start; k < r.end; k++) {
      const c = text.charCodeAt(k);
      if (c === LF || c === CR) {
        parts.push(' '.repeat(k - s), c === LF ? '\n' : '\r');
        s = k + 1;
      }
    }
    parts.push(' '.repeat(r.end - s));
    prev = r.end;
  }
  parts.push(text.slice(prev));
  return parts.join('');
}

/**
 * The non-code region a cursor is in, if any. A cursor is inside a region when text typed there
 * would belong to it: strictly between its ends, or at the end of a comment (typing at the end of
 * a comment's line extends the comment).
 *
 * @param regions - from {@link latexRegions}, in ascending order
 * @param offset - the cursor, in UTF-16 code units
 */
export function latexRegionAt(regions: readonly LatexRegion[], offset: number): LatexRegion | undefined {
  // The last region that starts before the cursor.
  let lo = 0, hi = regions.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (regions[mid]!.start < offset) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  if (found < 0) return undefined;
  const r = regions[found]!;
  return offset < r.end || (offset === r.end && r.kind === 'comment') ? r : undefined;
}
