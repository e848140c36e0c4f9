/**
 * The lexical rules of a BibTeX database and the reading of one value, after BibTeX 0.99d
 * (`bibtex.web`, "Reading the database files", §§ 223–270: `scan_identifier`,
 * `scan_balanced_braces`, `scan_a_field_token_and_eat_white`; the syntax in btxdoc, "The database
 * file"), for the one reader (`BibtexLibraryReader` in `readBibtex.ts`), which reads the
 * commands built of them.
 * - an identifier is a run of characters other than white space, control characters and
 *   `"#%'(),={}` (`id_class`), that does not start with a digit;
 * - a value is a `#`-concatenation of `{…}` (balanced braces, no escapes), `"…"` (ending at a
 *   `"` outside braces), a run of digits, or a macro name (`@string`, compared without case),
 *   each macro's expansion capped at {@link MAX_BIB_EXPANSION};
 * - `%` to the end of the line is a comment between tokens (btparse's lexer, which biber uses);
 * - a braced or quoted value that does not close before its fourth line that starts with `@` (or
 *   before the end) is not closed, and reading goes on at the first of those lines.
 * Lines end with CRLF, LF or a lone CR (as in VS Code's text model and web2c's `input_line`).
 */
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { problem, type ProblemArg, type ProblemText } from '../text/problemText.js';

/** Characters one `@string` macro, field or `@preamble` may expand to through macros. */
export const MAX_BIB_EXPANSION = 100_000;

/**
 * Characters all macro references of a file may expand to together: ten times the file's length
 * plus 1,000,000 (a real file's journal and month macros stay below its own length). Without it,
 * 10,000 references to one 100,000-character macro would be a billion characters.
 */
export function maxTotalBibExpansion(textLength: number): number {
  return 10 * textLength + 1_000_000;
}

/**
 * Something wrong at a place in a library file; `line` and `column` are 1-based. What is wrong is
 * a code with its values (`core/text/problemText.ts`), made a sentence where it is shown
 * (`problemMessage`), in the display language.
 */
export interface LibraryProblem extends ProblemText {
  line: number;
  column: number;
  severity: 'error' | 'warning';
}

/** Lines that start an entry which a value that never closes may run into before it counts as not closed. */
const MAX_WIDENINGS = 3;

/**
 * Whether a UTF-16 code unit may be part of a BibTeX identifier (`bibtex.web` § 32, `id_class`):
 * not white space, not an ASCII control character, not one of `"#%'(),={}`. Characters beyond
 * ASCII are legal (BibTeX 0.99d reads 8-bit bytes as legal identifier characters).
 */
function isIdChar(c: number): boolean {
  if (c <= 32 || c === 127) return false;
  // " # % ' ( ) , = { }
  return c !== 34 && c !== 35 && c !== 37 && c !== 39 && c !== 40 && c !== 41 && c !== 44 && c !== 61 && c !== 123 && c !== 125;
}

/**
 * White space as BibTeX's `lex_class` has it (space, tab, line breaks, form feed, vertical tab).
 *
 * @param c - a UTF-16 code unit
 */
export function isWhite(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/**
 * An error inside a command: where it was found (UTF-16 offset), what to say, and the offset
 * where looking for the next `@` goes on.
 */
export class BibError {
  constructor(readonly at: number, readonly text: ProblemText, readonly resume = at) {}
}

/** A line that starts with "@" (after spaces and tabs), for bounding a value that does not close (after its line break). */
const ENTRY_LINE = /[ \t]*@/y;

/** Where a `BibtexLibraryReader` (`readBibtex.ts`) reads: a part of the text (an edited region), with the macros defined before it. */
export interface BibReadRange {
  /** Offset where reading starts: the start of a line. */
  start: number;
  /** Offset where it stops (commands do not read past it). */
  end: number;
  /** The 1-based line at `start`. */
  line: number;
  /** The macros defined before `start` (default: BibTeX's and Citation.js's standard ones). */
  macros?: Readonly<Record<string, string>>;
}

/** A value as read: its text (capped at {@link MAX_BIB_EXPANSION} + 1 UTF-16 code units), its full length, and whether a macro went into it. */
export interface BibtexValue {
  text: string;
  length: number;
  macro: boolean;
}

/**
 * Reads the tokens and values of a `.bib` text and counts lines as it goes: the part of the
 * reader that knows BibTeX's lexical rules and macros, not its commands.
 */
export abstract class BibtexScanner {
  /** Macro name (lower case) → value. A `Map`: `__proto__` and `constructor` are names like any other. */
  protected readonly macroTable: Map<string, string>;
  /** Offset where reading stops (commands do not read past it). */
  protected readonly end: number;
  /** 1 when the text starts with a byte-order mark, else 0. */
  protected readonly bom: number;
  /** Line counting, forward: the line of `lineAt`, and where that line starts. */
  protected lineAt: number;
  protected line: number;
  protected lineStart: number;
  /** Undefined macros of the command being read (reported when it reads well). */
  protected pending: LibraryProblem[] = [];

  /**
   * @param text - the file's text (a leading BOM is allowed)
   * @param range - read only this part (default: all of it); reading starts at {@link lineAt}
   */
  constructor(readonly text: string, range?: BibReadRange) {
    this.end = Math.min(range?.end ?? text.length, text.length);
    this.bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const start = range?.start ?? 0;
    this.lineAt = start === 0 ? this.bom : start;
    this.line = range?.line ?? 1;
    let ls = this.lineAt;
    while (ls > 0 && text.charCodeAt(ls - 1) !== 10 && text.charCodeAt(ls - 1) !== 13) ls--;
    this.lineStart = ls;
    this.macroTable = new Map(Object.entries(range?.macros ?? defaultStrings).map(([k, v]) => [k.toLowerCase(), String(v)]));
  }

  /** The 1-based line and column of an offset (forward from the last one asked; back when needed). */
  protected where(offset: number): { line: number; column: number } {
    const text = this.text;
    if (offset < this.lineAt) {
      // Back (after a value that did not close): count the breaks between, and find the line's start.
      for (let i = offset; i < this.lineAt; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.line--;
      }
      let ls = offset;
      while (ls > 0 && text.charCodeAt(ls - 1) !== 10 && text.charCodeAt(ls - 1) !== 13) ls--;
      this.lineStart = ls;
      this.lineAt = offset;
    }
    for (let i = this.lineAt; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { this.line++; this.lineStart = i + 1; }
    }
    this.lineAt = offset;
    // Columns as an editor counts them: a byte-order mark is no character of the first line.
    const bom = this.lineStart === 0 ? this.bom : 0;
    return { line: this.line, column: offset - this.lineStart + 1 - bom };
  }

  /** Skips white space and `%` comments (to the end of their line). */
  protected skipBlanks(i: number): number {
    const text = this.text;
    const end = this.end;
    for (;;) {
      while (i < end && isWhite(text.charCodeAt(i))) i++;
      if (i < end && text.charCodeAt(i) === 37) {
        while (i < end && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      } else return i;
    }
  }

  /** The identifier at `i` ({@link isIdChar}, not starting with a digit), or '' when there is none. */
  protected identifier(i: number): string {
    const text = this.text;
    const c0 = text.charCodeAt(i);
    if (i >= this.end || (c0 >= 48 && c0 <= 57)) return '';
    let j = i;
    while (j < this.end && isIdChar(text.charCodeAt(j))) j++;
    return text.slice(i, j);
  }

  /** A readable name for the character at `i`, for messages: the end, a line break, or the character in quotes. */
  protected found(i: number): ProblemArg {
    if (i >= this.end) return problem('bib-found-end');
    const c = this.text[i]!;
    return isWhite(c.charCodeAt(0)) ? problem('bib-found-line-break') : `"${c}"`;
  }

  /**
   * `name = value` at `i`, as in `@string` and in an entry's fields (bibtex.web § 262 and § 268):
   * an identifier, `=`, a value; white space between them skipped.
   *
   * @param what - a macro's (`@string`) or a field's
   * @param after - what the problem names when no identifier is at `i`: the `@string` and the
   *   character after it, or the entry's closing delimiter
   * @throws BibError where it does not follow the grammar
   */
  protected assignment(i: number, what: 'macro' | 'field', after: string): { name: string; value: BibtexValue; end: number } {
    const name = this.identifier(i);
    if (!name) throw new BibError(i, problem(what === 'macro' ? 'bib-expected-macro-name' : 'bib-expected-field-name', after, this.found(i)));
    i = this.skipBlanks(i + name.length);
    if (this.text[i] !== '=') throw new BibError(i, problem(what === 'macro' ? 'bib-expected-equals-after-macro' : 'bib-expected-equals-after-field', name, this.found(i)));
    const v = this.value(this.skipBlanks(i + 1));
    return { name, value: v.value, end: v.end };
  }

  /**
   * A value at `i`: its parts joined by `#`, with the white space after it skipped.
   *
   * @throws BibError where it does not follow the grammar, or where a braced or quoted part does not close
   */
  protected value(i: number): { value: BibtexValue; end: number } {
    const text = this.text;
    let out = '';
    let length = 0;
    let macro = false;
    const add = (s: string) => {
      length += s.length;
      if (out.length <= MAX_BIB_EXPANSION) out += s.length + out.length > MAX_BIB_EXPANSION + 1 ? s.slice(0, MAX_BIB_EXPANSION + 1 - out.length) : s;
    };
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 123 || c === 34) {
        const j = this.delimited(i);
        add(text.slice(i + 1, j - 1));
        i = j;
      } else if (c >= 48 && c <= 57) {
        let j = i;
        while (j < this.end && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        add(text.slice(i, j));
        i = j;
      } else {
        const name = this.identifier(i);
        if (!name) throw new BibError(i, problem('bib-expected-value', this.found(i)));
        const lower = name.toLowerCase();
        const expansion = this.macroTable.get(lower);
        if (expansion === undefined) {
          this.pending.push({ ...this.where(i), severity: 'warning', ...problem('bib-undefined-macro', name) });
        } else {
          macro = true;
          add(expansion);
        }
        i += name.length;
      }
      i = this.skipBlanks(i);
      if (text[i] !== '#') break;
      i = this.skipBlanks(i + 1);
    }
    return { value: { text: out, length, macro }, end: i };
  }

  /**
   * The end (after the closing delimiter) of the `{…}` or `"…"` at `i`: braces balance, a quote
   * ends only outside braces (bibtex.web § 250, `scan_balanced_braces`).
   *
   * @throws BibError when it does not close before its fourth line that starts an entry, or the end
   */
  protected delimited(i: number): number {
    const text = this.text;
    const end = this.end;
    const quoted = text.charCodeAt(i) === 34;
    let depth = quoted ? 0 : 1;
    let entryLines = 0;
    let firstEntryLine = -1;
    for (let j = i + 1; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === 123) depth++;
      else if (c === 125) {
        if (depth === 0) throw new BibError(j, problem('bib-brace-closes-nothing'));
        if (--depth === 0 && !quoted) return j + 1;
      } else if (c === 34 && quoted && depth === 0) return j + 1;
      else if (c === 10 || (c === 13 && text.charCodeAt(j + 1) !== 10)) {
        ENTRY_LINE.lastIndex = j + 1;
        if (ENTRY_LINE.test(text)) {
          if (firstEntryLine < 0) firstEntryLine = j + 1;
          if (++entryLines > MAX_WIDENINGS) break;
        }
      }
    }
    const resume = firstEntryLine >= 0 ? firstEntryLine : end;
    throw new BibError(i, problem(quoted ? 'bib-quote-not-closed' : 'bib-brace-not-closed'), resume);
  }
}
