/**
 * Reading a user's `.bib` file, and the text helpers the planners share (line endings, trailing white space).
 *
 * Reading is the one BibTeX reader (`core/bibliography/readBibtex.ts`, which reads as BibTeX 0.99d does and
 * costs a broken entry only that entry); what we add is the view the citation service and the
 * planners use (the append plan is `planAdditions.ts`'s `planBibAppend`).
 */
import { BibtexLibraryReader, readEntryAt, type LibraryProblem } from './readBibtex.js';
import { textOf, type ProblemText } from '../text/problemText.js';

export { MAX_BIB_EXPANSION, maxTotalBibExpansion } from './readBibtex.js';

/**
 * One entry of a bibliography file: a `.bib` entry, with field names lower-cased and values as
 * parsed (macros expanded), or a CSL item (`csl`) with the fields cards and completion show.
 */
export interface BibEntry {
  key: string;
  type: string;
  fields: Record<string, string>;
  /**
   * UTF-16 offset where the entry starts (a `.bib` entry's `@`, a CSL item's first character) and
   * its 1-based line, where the reader knows them.
   */
  start?: number;
  line?: number;
  /** UTF-16 offset just after the entry (a `.bib` entry's closing brace, a CSL item's last character), where the reader knows it. */
  end?: number;
  /** A CSL item's key: the offset of its `id` value's first character (inside its quotes), where the reader knows it. */
  keyStart?: number;
  /** A CSL item as read (CSL-JSON or CSL-YAML); `fields` is then a BibTeX-like view of it. */
  csl?: Record<string, unknown>;
  /**
   * A `.bib` entry broken after its key (a missing comma between two fields): BibTeX keeps it with
   * the fields before the error, so its key is defined; the error is one of the file's problems.
   */
  partial?: true;
}

/**
 * Where a bibliography file has an error (an entry that is skipped), and what it is (a code with its
 * values, worded by `core/text/problemText.ts`'s `problemMessage`). `line` and `column` are 1-based.
 */
export interface BibSyntaxError extends ProblemText {
  line: number;
  column: number;
}

/** The first error-level problem of a reading as its {@link BibSyntaxError}, or `{}` when there is none (to spread into a reading). */
export function firstError(problems: readonly LibraryProblem[]): { error?: BibSyntaxError } {
  const first = problems.find((p) => p.severity === 'error');
  return first ? { error: { line: first.line, column: first.column, ...textOf(first) } } : {};
}

/** A problem of a `.bib` file (an entry skipped, an undefined macro), at its 1-based line and column. */
export type BibProblem = LibraryProblem;

/**
 * A read `.bib` file: the entries that read, every problem, and the first error-level problem.
 * "Strict" (safe to append to) is "no `error`".
 */
export interface ParsedBib {
  entries: BibEntry[];
  /** The first error-level problem: an entry that is skipped (the others are in `entries`). */
  error?: BibSyntaxError;
  problems?: BibProblem[];
  /** Keys of entries commented out with `%` (`%@misc{key,`): BibTeX reads them, biber does not (`readBibtex.ts`). */
  commented?: string[];
}

/**
 * Reads a `.bib` file with the one tolerant reader ({@link BibtexLibraryReader}): a broken entry
 * costs that entry (and, when it is not closed, what BibTeX would lose with it), and is a problem;
 * an entry broken after its key keeps that key and the fields before the error (`partial`), as
 * BibTeX 0.99d keeps it (it prints the error, then cites the entry).
 *
 * @param text - the file's text (a leading BOM is allowed)
 * @returns the entries that read, in file order (each with its offset and line), the problems in
 *   file order, and the first error-level one as `error`
 */
export function parseBib(text: string): ParsedBib {
  const r = new BibtexLibraryReader(text, undefined, { keepPartial: true });
  r.read();
  const entries: BibEntry[] = r.entries.map((e) => ({ key: e.key, type: e.type, fields: e.fields, start: e.start, end: e.end, line: e.line }));
  if (r.partial.length) {
    entries.push(...r.partial.map((e) => ({ key: e.key, type: e.type, fields: e.fields, start: e.start, end: e.end, line: e.line, partial: true as const })));
    entries.sort((a, b) => a.start! - b.start!);
  }
  return { entries, problems: r.problems, ...(r.commented.length ? { commented: r.commented } : {}), ...firstError(r.problems) };
}

/**
 * Where a BibTeX file's entries read their fields from: the text they were read from and the
 * file's macros at its end (`BibtexLibraryReader.macros`). One per reading: an edit of the text
 * makes a new one, so that a reading taken before it still reads its own text.
 */
export interface BibtexSource {
  readonly text: string;
  macros: Readonly<Record<string, string>>;
}

/**
 * A `.bib` entry whose fields are read from its text when first asked for: how a library holds
 * its entries (100,000 entries' fields are not kept twice, once as read and once converted for
 * search). Its `fields` are what {@link parseBib} gives for the same entry: names in lower case,
 * macros expanded.
 */
class SpanBibEntry implements BibEntry {
  private read?: Record<string, string>;
  constructor(
    readonly key: string, readonly type: string, readonly start: number, readonly end: number, readonly line: number,
    private readonly source: BibtexSource,
  ) {}

  get fields(): Record<string, string> {
    if (!this.read) {
      const props = readEntryAt(this.source.text, this.start, this.end, this.source.macros)?.properties ?? {};
      this.read = {};
      for (const k in props) this.read[k.toLowerCase()] = props[k]!;
    }
    return this.read;
  }
}

/**
 * A `.bib` entry read from `source.text` between `start` and `end` (as the reader found it), its
 * fields read from there when first asked for.
 *
 * @param e - the entry's key, type (lower case), `[start, end)` UTF-16 offsets and 1-based line
 */
export function bibEntryAt(e: { key: string; type: string; start: number; end: number; line: number }, source: BibtexSource): BibEntry {
  return new SpanBibEntry(e.key, e.type, e.start, e.end, e.line, source);
}

/**
 * An `@string` command as the reader reads one: `@`, white space and `%` comments, then `string`
 * in any case. Where one is made or unmade, every later entry's macros may change. Each character
 * can be read one way only (a comment runs to its line's end), so it never backtracks.
 */
export const STRING_COMMAND = /@(?:\s|%[^\n]*(?:\n|$))*string/i;

/**
 * Finds every place a key is defined (ignoring case, as BibTeX does): the offsets of the key in
 * `@type{key,`. The pattern is fixed and the key is compared as a string, so a key of any length
 * or content costs one linear pass.
 *
 * @returns offsets (UTF-16 code units) of the key's first character, in file order
 */
export function findBibKeys(text: string, key: string): number[] {
  const want = key.toLowerCase();
  const out: number[] = [];
  for (const m of text.matchAll(/@[A-Za-z]+[ \t\r\n]*[{(][ \t\r\n]*/g)) {
    const at = m.index! + m[0].length;
    if (text.slice(at, at + want.length).toLowerCase() !== want) continue;
    let i = at + want.length;
    while (i < text.length && /[ \t\r\n]/.test(text[i]!)) i++;
    if (text[i] === ',') out.push(at);
  }
  return out;
}

/**
 * Where the key of the entry whose `@` is at `start` begins: after the type, the `{` or `(` and
 * white space (and `%` comments, as the reader skips them). Costs the length of that prefix.
 *
 * @param start - an entry's `@` offset ({@link BibEntry.start})
 * @returns the key's offset, or -1 when no entry starts at `start`
 */
export function bibKeyOffset(text: string, start: number): number {
  // A comment runs to its line break, which it takes: `%%%` then splits one way only (the linter's rule).
  const m = /@[ \t\r\n]*[^\s"#%'(),={}]+(?:\s|%[^\n\r]*[\n\r])*[{(]\s*/y;
  m.lastIndex = start;
  return m.test(text) ? m.lastIndex : -1;
}

/**
 * Where an entry's key is in its file's text: a CSL item's `id` value as the reader placed it, a
 * `.bib` entry's key after its `@` ({@link bibKeyOffset}).
 *
 * @param text - the text the entry was read from
 * @returns the key's UTF-16 offset, or -1 when the reader did not place the entry
 */
export function entryKeyOffset(text: string, e: BibEntry): number {
  if (e.keyStart !== undefined) return e.keyStart;
  return e.start !== undefined && !e.csl ? bibKeyOffset(text, e.start) : -1;
}

/** Where a key is first defined, or -1 (see {@link findBibKeys}). */
export function findBibKey(text: string, key: string): number {
  return findBibKeys(text, key)[0] ?? -1;
}

/**
 * The 1-based line and column of a UTF-16 offset in a text. Line breaks are CRLF, LF and a lone CR,
 * as in VS Code's text model, so positions agree with the editor's.
 */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { line++; start = i + 1; }
  }
  return { line, column: end - start + 1 };
}

/** A line ending. */
export type Eol = '\r\n' | '\n' | '\r';

/** The line ending of a text's first line break (CRLF, LF or a lone CR); LF when it has none. */
export function eolOf(text: string): Eol {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return '\n';
    if (c === 13) return text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r';
  }
  return '\n';
}

/**
 * The text VS Code holds for a file's text: a file with mixed line endings, or any lone CR, has
 * every line break normalised to CRLF when more than half of its breaks contain a CR, else to LF
 * (`PieceTreeTextBufferFactory._getEOL` and `create` in VS Code's `pieceTreeTextBufferBuilder.ts`).
 * A text with one kind of CRLF or LF breaks comes back unchanged. A BOM is kept here (VS Code
 * strips it into the encoding; callers that compare with a document's text strip it too).
 *
 * Edits must be planned on the text they are applied to: on this text for an open document, on
 * the file's own text for a write to disk.
 */
export function editorText(text: string): string {
  let cr = 0;
  let lf = 0;
  let crlf = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) { crlf++; i++; } else cr++;
    } else if (c === 10) lf++;
  }
  const total = cr + lf + crlf;
  if (!total) return text;
  const eol = cr + crlf > total / 2 ? '\r\n' : '\n';
  if ((eol === '\r\n' && !cr && !lf) || (eol === '\n' && !cr && !crlf)) return text;
  return text.replace(/\r\n|\r|\n/g, eol);
}

/** Where the white space at the end of a text starts (its length when it ends in none). */
export function trailingSpaceStart(text: string): number {
  let i = text.length;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return i;
}

/** Keys defined more than once in a file (ignoring case, as BibTeX does), each with its occurrences. */
export function duplicateKeys(entries: readonly BibEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.key.toLowerCase(), (counts.get(e.key.toLowerCase()) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}
