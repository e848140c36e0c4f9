/**
 * What a document's text says (its citations, its bibliography commands, its front matter),
 * computed once from the whole text and carried over the edits that cannot change it, so that an
 * edit and the hover after it cost the edit, not the document (issue 27).
 *
 * A fact ({@link TextFact}) computes its value from a whole text together with the spans of that
 * text inside which an edit could change the value (a citation's key list, a command's arguments,
 * the front matter). An edit is carried over when it is *plain* for the fact's language
 * ({@link plainEdit}: within one line that, before and after, holds none of the characters the
 * language's scanner reacts to) and touches none of those spans: then the scanner reads every
 * other part of the text as before, and the value is the same, its offsets moved by the edit. Any
 * other edit drops the value, and the next reader computes it from the whole text again; so a
 * value read through {@link FactSource} is always the one a full scan of the current text gives.
 * `test/unit/textFacts.property.test.ts` holds this on random edit sequences.
 */

/** A span of a text, `[start, end]` with both ends included, in UTF-16 code units. */
export interface Span { start: number; end: number }

/** The languages whose facts are carried over edits. */
export type FactLanguage = 'latex' | 'markdown';

/** A fact of a text: see the module's documentation. */
export interface TextFact<T> {
  /** For logs and tests. */
  readonly name: string;
  /** The language whose scanner the fact reads with: it decides which edits are plain. */
  readonly language: FactLanguage;
  /** The value alone, for a text no source keeps (a file read from disk). */
  value(text: string): T;
  /**
   * The fact of a whole text: the same value as {@link value}.
   *
   * @returns the value and the spans inside which an edit could change it (any order; overlaps allowed)
   */
  compute(text: string): { value: T; spans: Span[] };
  /**
   * The value after a plain edit outside the spans, when the value holds offsets to move
   * (absent: the value holds none, or its readers move them with {@link FactView.fromBase}).
   *
   * @param at - where the edit starts, in the text before it
   * @param delta - how much longer the text got
   */
  shift?(value: T, at: number, delta: number): T;
}

/** One edit: `removed` code units at `at` replaced by `inserted` ones. */
export interface Edit { at: number; removed: number; inserted: number }

/** A fact's value for the current text. */
export interface FactView<T> {
  value: T;
  /** An offset in the current text as an offset in the text the value's offsets are in. */
  toBase(offset: number): number;
  /** An offset of the value (in the text it was computed on, shifts aside) as an offset in the current text. */
  fromBase(offset: number): number;
}

/** What gives a text's facts: an open document (the server's `OpenDocument`). */
export interface FactSource {
  fact<T>(f: TextFact<T>): FactView<T>;
}

const IDENTITY = (o: number) => o;

/** A fact of a text that has no source to keep it: computed now, from the whole text. */
export function factOfText<T>(text: string, f: TextFact<T>): FactView<T> {
  return { value: f.value(text), toBase: IDENTITY, fromBase: IDENTITY };
}

/**
 * A document's fact: from its source when it has one (an open document), else from its text.
 *
 * @param doc - `facts`: the open document; `text`: its text, read only when there is no source
 */
export function factOf<T>(doc: { readonly text: string; readonly facts?: FactSource }, f: TextFact<T>): FactView<T> {
  return doc.facts ? doc.facts.fact(f) : factOfText(doc.text, f);
}

/** What a plain LaTeX edit may insert or remove: no `\`, `%`, braces, brackets, parentheses or `*`, no line break. */
const LATEX_SAFE = /^[A-Za-z0-9 \t.,;:!?'"+=/<>|~^_@&$#-]*$/;
/** The inline verbatim commands (`latex/scan.ts`), whose delimiter may be any character. */
const INLINE_VERBATIM = /\\(?:verb|Verb|lstinline|mintinline|mint|url)(?![A-Za-z])/;
/** What a plain Markdown edit may insert or remove: letters, digits and blanks. */
const MARKDOWN_SAFE = /^[A-Za-z0-9 \t]*$/;
/** A line's first word that may stand before a plain Markdown edit: a word, a heading's, a bullet's or a quote's marker (no ordered list's, fence's or rule's). */
const MARKDOWN_FIRST_WORD = /^(?:#{1,6}|[-*+>]|[A-Za-z0-9]+)$/;
/** A thematic break written with blanks (`- - -`), whose first word looks like a bullet. */
const MARKDOWN_RULE = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** What may stand next to a plain Markdown edit. */
const MARKDOWN_NEIGHBOUR = /[A-Za-z0-9 \t,;]/;

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isLetter = (c: string | undefined): boolean => !!c && /[A-Za-z]/.test(c);
const isDigit = (c: string | undefined): boolean => !!c && c >= '0' && c <= '9';

/**
 * The commands whose readers read on after the command or its arguments, over blanks (an argument,
 * a file name, a `\bibitem`'s text, a conditional's digits): the citation commands
 * (`latex/commands.ts`), the declarations and links (`bibliography/locate.ts`, `latex/fileFacts.ts`),
 * `\bibitem` (`latex/bibitems.ts`) and the scanner's own (`latex/scan.ts`).
 */
const READING = new Set([
  'begin', 'end', 'bibitem', 'input', 'include', 'InputIfFileExists', 'subfile', 'subfileinclude', 'import', 'inputfrom', 'includefrom',
  'subimport', 'subinputfrom', 'subincludefrom', 'documentclass', 'documentstyle', 'bibliography', 'nobibliography', 'defaultbibliography',
  'addbibresource', 'addglobalbib', 'addsectionbib', 'putbib', 'newif', 'lstinline', 'url', 'mint', 'mintinline', 'Verb', 'verb',
]);
const reads = (name: string): boolean => name.includes('cite') || name.includes('Cite') || name.startsWith('if') || READING.has(name);

/** The opener that a closing brace, bracket or parenthesis at `k` closes, on the line; -1 when it is not there. */
function openerOf(line: string, k: number): number {
  const close = line[k]!;
  const open = close === '}' ? '{' : close === ']' ? '[' : '(';
  for (let depth = 0, i = k; i >= 0; i--) {
    if (line[i] === close) depth++;
    else if (line[i] === open && --depth === 0) return i;
  }
  return -1;
}

/**
 * Whether a LaTeX reader could read on from the character at `k` into what follows it: a
 * backslash, the end of a command {@link reads} names (with a digit after it and blanks:
 * `\if 0`), or the end of such a command's arguments; undecided on this line counts as yes.
 */
function attached(line: string, k: number): boolean {
  let j = k;
  // Back over the arguments before: `\cite[a]{b}`, `\begin{minted}{py}`.
  while (j >= 0 && (line[j] === '}' || line[j] === ']' || line[j] === ')')) {
    const o = openerOf(line, j);
    if (o < 0) return true;
    j = o - 1;
    while (j >= 0 && isBlank(line[j])) j--;
    if (j < 0) return true;
  }
  if (line[j] === '\\') return true;
  const word = j;
  while (j >= 0 && isDigit(line[j])) j--;
  if (j < word) while (j >= 0 && isBlank(line[j])) j--;
  const end = j + 1;
  while (j >= 0 && (isLetter(line[j]) || line[j] === '*')) j--;
  return j >= 0 && line[j] === '\\' && reads(line.slice(j + 1, end).replace(/\*$/, ''));
}

/** One edit of one line, for {@link plainEdit}. */
export interface LineEdit {
  /** The line before the edit and after it, without line breaks. */
  oldLine: string;
  newLine: string;
  /** Where the edit starts on the line, and how many code units it removed and inserted. */
  column: number;
  removed: number;
  inserted: number;
  /** The line before (without its line break), undefined on the first line. */
  previousLine(): string | undefined;
}

/**
 * Whether an edit within one line is plain for a language: the language's scanner reads the rest
 * of the text as before, and what the edit changes stays inside the spans of text a fact reads.
 * - LaTeX (`latex/scan.ts`, `latex/commands.ts`): the edit inserts and removes only letters, digits,
 *   blanks and punctuation that start nothing (no `\`, `%`, brace, bracket, parenthesis or `*`);
 *   the line is not blank before or after; no inline verbatim command is on the line (its delimiter
 *   may be any character); the edit ends before the line's first `%` (a comment's first characters
 *   may silence the line); what comes before it, blanks aside (on the line before when there are
 *   only blanks), is not the end of a control word or a closing brace, bracket or parenthesis (so
 *   no command name, `\if` test or argument list changes); and it is not inside the braces of
 *   `\begin` or `\end` (an environment's name).
 * - Markdown (`markdown/pandocBlocks.ts`, `pandocInline.ts`): the edit inserts and removes only
 *   letters, digits and blanks; the line is not blank before or after; the edit comes after the
 *   line's first word and the blank after it, that word being a word or a heading's, bullet's or
 *   quote's marker (so the line's block, and a metadata block's or fence's start or end, stays
 *   what it was), on a line that is no `- - -` rule; next to it stand only letters, digits,
 *   blanks, `,` or `;` (no emphasis, key, math, code or link delimiter whose reading depends on its
 *   neighbours), not the end of a `\command`, and no HTML tag is open before it on the line.
 */
export function plainEdit(language: FactLanguage, e: LineEdit): boolean {
  const { oldLine, newLine, column } = e;
  if (!oldLine.trim() || !newLine.trim()) return false;
  if (language === 'markdown') {
    if (!MARKDOWN_SAFE.test(oldLine.slice(column, column + e.removed)) || !MARKDOWN_SAFE.test(newLine.slice(column, column + e.inserted))) return false;
    // The line's block stays: its first word (a marker at most) and the blank after it are before the edit.
    const first = /^[ \t]*([^ \t]+)[ \t]/.exec(oldLine);
    if (!first || !MARKDOWN_FIRST_WORD.test(first[1]!) || column < first[0].length || MARKDOWN_RULE.test(oldLine)) return false;
    // What pandoc's inline reader reads around the edit is prose: no delimiter, key, tag or escape next to it.
    const before = oldLine[column - 1], after = oldLine[column + e.removed];
    if ((before !== undefined && !MARKDOWN_NEIGHBOUR.test(before)) || (after !== undefined && !MARKDOWN_NEIGHBOUR.test(after))) return false;
    let w = column - 1;
    while (w >= 0 && isLetter(oldLine[w])) w--;
    if (w >= 0 && oldLine[w] === '\\') return false;
    const tag = oldLine.lastIndexOf('<', column - 1);
    const close = tag < 0 ? -1 : oldLine.indexOf('>', tag);
    return tag < 0 || (close >= 0 && close < column);
  }
  if (!LATEX_SAFE.test(oldLine.slice(column, column + e.removed)) || !LATEX_SAFE.test(newLine.slice(column, column + e.inserted))) return false;
  for (const [line, length] of [[oldLine, e.removed], [newLine, e.inserted]] as const) {
    if (INLINE_VERBATIM.test(line)) return false;
    const comment = line.indexOf('%');
    if (comment >= 0 && comment < column + length) return false;
  }
  // Not inside or right after a command's name (`\ci|te`): the name would change.
  let w = column - 1;
  while (w >= 0 && (isLetter(oldLine[w]) || oldLine[w] === '*')) w--;
  if (w >= 0 && oldLine[w] === '\\') return false;
  // What comes before, blanks aside.
  let k = column - 1;
  while (k >= 0 && isBlank(oldLine[k])) k--;
  if (k >= 0 ? attached(oldLine, k) : (() => {
    const previous = e.previousLine();
    if (previous === undefined) return false;
    const t = previous.replace(/[ \t]+$/, '');
    return !t || attached(t, t.length - 1) || t.includes('%') || INLINE_VERBATIM.test(t);
  })()) return false;
  // Inside braces: whose?
  for (let depth = 0, i = column - 1; i >= 0; i--) {
    if (oldLine[i] === '}') depth++;
    else if (oldLine[i] === '{' && depth-- === 0) {
      let j = i - 1;
      while (j >= 0 && isBlank(oldLine[j])) j--;
      if (j < 0) return false;
      const end = j + 1;
      while (j >= 0 && isLetter(oldLine[j])) j--;
      const name = oldLine.slice(j + 1, end);
      return !(oldLine[j] === '\\' && (name === 'begin' || name === 'end' || name === 'newif'));
    }
  }
  return true;
}

/** Spans sorted by start, and the largest end among each prefix: whether an edit touches one is a binary search. */
export class SpanIndex {
  private readonly starts: number[];
  private readonly maxEnds: number[];

  constructor(spans: readonly Span[]) {
    const sorted = [...spans].sort((a, b) => a.start - b.start);
    this.starts = sorted.map((s) => s.start);
    let max = -1;
    this.maxEnds = sorted.map((s) => (max = Math.max(max, s.end)));
  }

  /** Whether some span meets `[start, end]` (both included). */
  touches(start: number, end: number): boolean {
    let lo = 0, hi = this.starts.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= end) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found >= 0 && this.maxEnds[found]! >= start;
  }
}

/** At most this many edits are carried over one value; the next reader then computes it again. */
export const MAX_CARRIED_EDITS = 4096;

/**
 * One fact's value for a document, and the edits carried over it since it was computed. The
 * document calls {@link carry} for each edit, in order; a false answer drops the value.
 */
export class CarriedFact<T> {
  private readonly spans: SpanIndex;
  private readonly edits: Edit[] = [];
  private value: T;

  constructor(private readonly f: TextFact<T>, text: string) {
    const { value, spans } = f.compute(text);
    this.value = value;
    this.spans = new SpanIndex(spans);
  }

  /**
   * Carries the value over an edit.
   *
   * @param plain - whether the edit is plain for the fact's language ({@link plainEdit})
   * @returns false when the value cannot be carried (it must be computed again)
   */
  carry(edit: Edit, plain: (language: FactLanguage) => boolean): boolean {
    if (this.edits.length >= MAX_CARRIED_EDITS || !plain(this.f.language)) return false;
    if (this.spans.touches(this.toBase(edit.at), this.toBase(edit.at + edit.removed))) return false;
    // Shifted values move now, in the current text; the spans and unshifted values move when read.
    if (this.f.shift) this.value = this.f.shift(this.value, edit.at, edit.inserted - edit.removed);
    this.edits.push(edit);
    return true;
  }

  /** An offset of the current text in the text the spans are in. */
  private toBase(offset: number): number {
    let o = offset;
    for (let i = this.edits.length - 1; i >= 0; i--) {
      const e = this.edits[i]!;
      if (o >= e.at + e.inserted) o -= e.inserted - e.removed;
      else if (o > e.at) o = e.at;
    }
    return o;
  }

  /** The value, with the offset maps of the text it was computed on. */
  view(): FactView<T> {
    const edits = this.f.shift ? [] : [...this.edits];
    return {
      value: this.value,
      toBase: (offset) => {
        let o = offset;
        for (let i = edits.length - 1; i >= 0; i--) {
          const e = edits[i]!;
          if (o >= e.at + e.inserted) o -= e.inserted - e.removed;
          else if (o > e.at) o = e.at;
        }
        return o;
      },
      fromBase: (offset) => {
        let o = offset;
        for (const e of edits) {
          if (o >= e.at + e.removed) o += e.inserted - e.removed;
          else if (o > e.at) o = e.at;
        }
        return o;
      },
    };
  }
}

/** The offset after line `lines` (0-based, counted from offset `from`) ends, line break included (the text's length when it has fewer lines). */
export function afterLine(text: string, lines: number, from = 0): number {
  let at = from;
  for (let line = 0; line <= lines && at < text.length; line++) {
    while (at < text.length && text.charCodeAt(at) !== 10 && text.charCodeAt(at) !== 13) at++;
    if (text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10) at++;
    if (at < text.length) at++;
  }
  return at;
}
