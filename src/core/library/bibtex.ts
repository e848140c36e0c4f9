/**
 * Reading a BibTeX/biblatex library (a JabRef file, a Better BibTeX export, a lab's shared `.bib`)
 * of any size: every good entry, where it is, and a problem for each broken one.
 *
 * The grammar is Citation.js's (`@citation-js/plugin-bibtex`, the one `core/bib/bibfile.ts` parses
 * bibliographies with: the BibTeX manual's syntax, `@string` macros and `#` concatenation,
 * `@comment`, `@preamble`); we drive its rules one entry at a time instead of the whole file, so
 * that:
 * - an entry that does not parse costs that entry, not the file: the reader resumes at the next
 *   line that starts with `@` (BibTeX's own recovery);
 * - reading can stop at a deadline and resume (the language server answers between slices) and
 *   report how far it got;
 * - each entry keeps its offsets and line, for going to its definition and copying its text.
 *
 * The lexer reads one slice of the text at a time, from one line that starts with `@` to the next,
 * widened to the following one when an entry does not close inside it (a field may hold a line that
 * starts with `@`). So an unclosed brace costs the lines up to the next entries, never the rest of
 * the file, and the whole read is linear in the text.
 */
import { Grammar } from '@citation-js/core/lib/util/grammar.js';
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { bibtexGrammar, parse as parseBibtexFile, type BibGrammarState, type BibLexer } from '@citation-js/plugin-bibtex/lib/input/file.js';
import { MAX_BIB_EXPANSION, maxTotalBibExpansion } from '../bib/bibfile.js';

/** One entry of a library as read: fields lower-cased, values with macros expanded and inner braces kept. */
export interface RawBibEntry {
  key: string;
  /** The entry type, lower case (`article`, `online`). */
  type: string;
  fields: Record<string, string>;
  /** UTF-16 offsets of the entry's text: from its `@` to its closing brace, inclusive. */
  start: number;
  end: number;
  /** 1-based line of its `@`. */
  line: number;
}

/** Something wrong at a place in a library file; `line` and `column` are 1-based. */
export interface LibraryProblem {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

/** Widenings of one slice before an entry counts as broken (see the module comment). */
const MAX_WIDENINGS = 3;

/** Entries read between two looks at the deadline. */
const DEADLINE_EVERY = 16;

/** Characters scanned for the lines that start with `@` between two looks at the deadline. */
const SCAN_EVERY = 1 << 16;

let lexerTemplate: BibLexer | undefined;
/** A fresh copy of Citation.js's lexer (the module keeps it private; its grammar holds it after a parse). */
function newLexer(): BibLexer {
  if (!lexerTemplate) {
    parseBibtexFile('');
    lexerTemplate = bibtexGrammar.lexer;
  }
  const lexer = lexerTemplate.clone();
  // moo's own error text copies lines from the end of its buffer; positions are all we need.
  lexer.formatError = (token, message) => (token ? `${message} at line ${token.line} col ${token.col}` : `${message} at the end`);
  return lexer;
}

/**
 * Where the entry at `at` (its `@`) ends: after the brace or parenthesis that closes its first
 * one, counting braces (quotes do not nest in BibTeX); `limit` when it does not close before it.
 */
function entryEnd(text: string, at: number, limit: number): number {
  let i = at;
  while (i < limit && text[i] !== '{' && text[i] !== '(') i++;
  const close = text[i] === '(' ? ')' : '}';
  let depth = 0;
  for (; i < limit; i++) {
    const c = text[i];
    if (c === '\\') { i++; continue; }
    if (c === '{' || (close === ')' && c === '(' && depth === 0)) depth++;
    else if (c === '}' || (close === ')' && c === ')' && depth === 1)) { if (--depth === 0) return i + 1; }
  }
  return limit;
}

/** Rule names as the grammar reports them, for messages a user can act on. */
const TOKEN_WORDS: Record<string, string> = {
  lbrace: '"{"', rbrace: '"}"', comma: '","', equals: '"="', hash: '"#"', quote: '\'"\'', identifier: 'a field name',
  label: 'a citation key', junk: 'text', at: '"@"', text: 'text', number: 'a number', EOF: 'the end of the entry',
};
function readableError(e: unknown, sliceLength: number): string {
  // The lexer's patterns overflow the regular expression engine's stack on a field of millions of
  // characters, and the grammar's recursion on thousands of nested braces: both are RangeErrors.
  if (e instanceof RangeError) return sliceLength > 1_000_000 ? `too long to read (${sliceLength.toLocaleString('en-US')} characters)` : 'nested too deeply to read';
  const m = /expected "(\w+)", got (?:"(\w+)"|(EOF))/.exec(e instanceof Error ? e.message : String(e));
  if (!m) return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/ at line \d+ col \d.*$/, '');
  if (m[3] && m[1] === 'text') return 'not closed: a "{" or a \'"\' is still open where the next entry starts';
  if (m[3]) return `not closed: expected ${TOKEN_WORDS[m[1]!] ?? m[1]} before the next entry`;
  return `expected ${TOKEN_WORDS[m[1]!] ?? m[1]}, found ${TOKEN_WORDS[m[2] ?? m[3]!] ?? m[2]}`;
}

/**
 * A line that starts a block which is no entry: `@string` and `@preamble` (Citation.js's lexer
 * takes either word at once after the `@`), `@comment` (its lexer takes the rest of the line as text).
 */
const NOT_ENTRY = /@[ \t\r\n]*(?:string|preamble|comment)/iy;

/** Where a {@link BibtexLibraryReader} reads: a part of the text (an edited region), with the macros defined before it. */
export interface BibReadRange {
  /** Offset where reading starts: the start of a line. */
  start: number;
  /** Offset where it stops. */
  end: number;
  /** The 1-based line at `start`. */
  line: number;
  /** The macros defined before `start` (default: BibTeX's and Citation.js's standard ones). */
  macros?: Readonly<Record<string, string>>;
}

/**
 * Reads a `.bib` library in slices; see the module comment.
 *
 * @example
 * const r = new BibtexLibraryReader(text);
 * while (!r.read(() => performance.now() > t + 20)) await yieldToOthers();
 * r.entries; r.problems;
 */
export class BibtexLibraryReader {
  /** Entries in file order (with duplicate keys, as written). */
  readonly entries: RawBibEntry[] = [];
  readonly problems: LibraryProblem[] = [];
  /** `@string` definitions: lower-case name → offsets of the block that defines it (the last one). */
  readonly strings = new Map<string, { start: number; end: number }>();
  /**
   * The slice boundaries: the lines that start with `@` (after spaces, tabs, or the file's
   * byte-order mark), and the start itself when an `@` comes before the first of them (an entry
   * after other text on the first line: BibTeX reads it). Found by the first calls of {@link read}.
   */
  private readonly starts: number[] = [];
  /** Per slice: 1 when it starts with what may be an entry (see {@link total}). */
  private readonly isEntry: number[] = [];
  /** Where the scan for {@link starts} goes on; -1 when it is done. */
  private scanAt: number;
  private readonly rangeStart: number;
  private entries_ = 0;
  /** Slices read that start with what may be an entry. */
  private entriesRead = 0;
  /** Undefined macros the entry being read uses (reported when it reads well). */
  private undefinedMacros: LibraryProblem[] = [];
  private readonly grammar: BibGrammarState;
  private readonly lexer = newLexer();
  /** The next slice to read, and the 1-based line it starts on. */
  private slice = 0;
  private line = 1;
  private lineAt = 0;
  private expanded = 0;
  private readonly budget: number;
  private stopped = false;

  private readonly end: number;

  /**
   * @param text - the file's text (a leading BOM is allowed)
   * @param range - read only this part (default: all of it)
   */
  constructor(readonly text: string, range?: BibReadRange) {
    this.end = range?.end ?? text.length;
    this.rangeStart = this.scanAt = range?.start ?? 0;
    this.budget = maxTotalBibExpansion(text.length);
    this.lineAt = range?.start ?? 0;
    this.line = range?.line ?? 1;
    this.grammar = new Grammar(this.rules(), undefined) as unknown as BibGrammarState;
    this.grammar.state = { strings: { ...(range?.macros ?? defaultStrings) } };
    this.grammar.log = [];
  }

  /**
   * Roughly how many entries the file has, for progress: lines that start with `@`, but not
   * `@string`, `@preamble` or `@comment` (counted as {@link read} scans the text: final once it reads entries).
   */
  get total(): number {
    return this.entries_;
  }

  /** How many of the {@link total} entries have been read. */
  get done(): number {
    return this.entriesRead;
  }

  /** Finds the slice boundaries ({@link starts}); false when stopped by the deadline. */
  private scan(deadline: () => boolean): boolean {
    const { text, end, starts, isEntry } = this;
    const add = (at: number) => {
      NOT_ENTRY.lastIndex = at;
      const entry = NOT_ENTRY.test(text) ? 0 : 1;
      starts.push(at);
      isEntry.push(entry);
      this.entries_ += entry;
    };
    let i = this.scanAt;
    let check = i + SCAN_EVERY;
    while (i < end) {
      let j = i;
      while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || (j === 0 && text.charCodeAt(j) === 0xfeff)) j++;
      if (text.charCodeAt(j) === 64 && j < end) add(j);
      const nl = text.indexOf('\n', i);
      if (nl < 0) break;
      i = nl + 1;
      if (i >= check && i < end) {
        check = i + SCAN_EVERY;
        if (deadline()) { this.scanAt = i; return false; }
      }
    }
    const first = starts[0] ?? end;
    const stray = text.indexOf('@', this.rangeStart);
    if (stray >= 0 && stray < first) {
      // Not a line that starts with `@`: the slice starts with the text before it, whatever its first `@` is.
      starts.unshift(this.rangeStart);
      isEntry.unshift(1);
      this.entries_++;
    }
    this.scanAt = -1;
    return true;
  }

  /**
   * Citation.js's rules, but a macro that is not defined is a warning (BibTeX's "string name … is
   * undefined") where Citation.js reads it as empty without a word; and only the macros defined
   * are read (not `toString` and the other names every object has).
   */
  private rules(): Record<string, (this: BibGrammarState) => unknown> {
    const base = bibtexGrammar.rules;
    const reader = this;
    return {
      ...base,
      ExpressionPart(this: BibGrammarState) {
        if (!this.matchToken('identifier')) return base.ExpressionPart!.call(this);
        const token = this.consumeToken('identifier');
        const name = token.value.toLowerCase();
        if (Object.hasOwn(this.state.strings, name)) return this.state.strings[name] || '';
        const bom = token.line === 1 && reader.text.charCodeAt(0) === 0xfeff ? 1 : 0;
        reader.undefinedMacros.push({ line: token.line, column: token.col - bom, message: `undefined macro ${token.value} (no @string defines it); it is read as empty`, severity: 'warning' });
        return '';
      },
    };
  }

  /** The macros as defined at the end of what was read, for reading one entry again ({@link readEntryAt}). */
  get macros(): Readonly<Record<string, string>> {
    return this.grammar.state.strings;
  }

  /**
   * Reads on until the file ends or `deadline()` says to stop (it is asked every few entries).
   *
   * @returns true when the whole file has been read
   */
  read(deadline: () => boolean = () => false): boolean {
    if (this.scanAt >= 0 && !this.scan(deadline)) return false;
    const starts = this.starts;
    let sinceCheck = 0;
    while (this.slice < starts.length && !this.stopped) {
      const at = starts[this.slice]!;
      let widen = 0;
      let ok = false;
      let failure: { error: unknown; offset: number; line: number; column: number; length: number } | undefined;
      const before = { entries: this.entries.length, problems: this.problems.length, expanded: this.expanded };
      const undo = () => {
        this.entries.length = before.entries;
        this.problems.length = before.problems;
        this.expanded = before.expanded;
      };
      for (; widen <= MAX_WIDENINGS && this.slice + widen < starts.length; widen++) {
        const end = starts[this.slice + widen + 1] ?? this.end;
        undo();
        const r = this.readSlice(at, end);
        if (r === true) { ok = true; break; }
        failure ??= { ...r, length: end - at };
        // Only an entry that ran off the end of its slice may be saved by a wider one.
        if (!r.atEnd) break;
      }
      if (!ok) {
        // The slice alone again: the entries before the broken one are kept, the rest of it is skipped.
        undo();
        widen = 0;
        const sliceEnd = starts[this.slice + 1] ?? this.end;
        this.readSlice(at, sliceEnd);
        const f = failure!;
        this.problems.push({ line: f.line, column: f.column, message: `${readableError(f.error, f.length)}; this entry is skipped`, severity: 'error' });
        // An entry too long for the lexer (millions of characters in one field) is skipped by its
        // braces, counted without the lexer, and the rest of its slice (its line) is read on.
        if (f.error instanceof RangeError && f.length > 1_000_000) {
          const after = entryEnd(this.text, f.offset, sliceEnd);
          if (after < sliceEnd) this.readSlice(after, sliceEnd);
        }
      }
      for (let k = 0; k <= widen; k++) this.entriesRead += this.isEntry[this.slice + k] ?? 0;
      this.slice += widen + 1;
      if (++sinceCheck >= DEADLINE_EVERY) {
        sinceCheck = 0;
        if (deadline()) return this.slice >= starts.length || this.stopped;
      }
    }
    this.slice = starts.length;
    this.entriesRead = this.total;
    return true;
  }

  /** The 1-based line of an offset at or after the last one asked (lines are counted once, forward). */
  private lineOf(offset: number): number {
    const text = this.text;
    let i = this.lineAt;
    let line = this.line;
    for (;;) {
      const nl = text.indexOf('\n', i);
      if (nl < 0 || nl >= offset) break;
      line++;
      i = nl + 1;
    }
    this.lineAt = i;
    this.line = line;
    return line;
  }

  /**
   * Reads the entries of `[start, end)`. True when all parsed; else where it failed, and whether the
   * failure was running into the end of the slice (then a wider slice may succeed).
   */
  private readSlice(start: number, end: number): true | { error: unknown; offset: number; line: number; column: number; atEnd: boolean } {
    const g = this.grammar;
    const firstLine = this.lineOf(start);
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    this.lexer.reset(this.text.slice(start, end), { line: firstLine, col: start - lineStart + 1, state: 'main', stack: [] });
    g.lexer = this.lexer;
    g.log = [];
    // Columns as an editor counts them: a byte-order mark is no character of the first line.
    const bom = firstLine === 1 && this.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let entryAt = start;
    let entryLine = firstLine;
    let entryCol = start - lineStart + 1 - bom;
    try {
      g.token = this.lexer.next();
      for (;;) {
        while (g.matchToken('junk')) g.consumeToken('junk');
        if (g.matchEndOfFile()) return true;
        const t = g.token!;
        entryAt = start + t.offset;
        entryLine = t.line;
        entryCol = t.col - (t.line === 1 ? bom : 0);
        this.undefinedMacros = [];
        const raw = g.consumeRule('Entry') as { type: string; label: string; properties: Record<string, unknown> } | undefined;
        const entryEnd = g.token ? start + g.token.offset : end;
        // Only an entry that reads has its undefined macros reported (a broken one is one problem).
        this.problems.push(...this.undefinedMacros);
        if (raw) this.addEntry(raw, entryAt, entryEnd, entryLine, entryCol);
        else this.addDefinition(entryAt, entryEnd, entryLine, entryCol);
      }
    } catch (error) {
      return { error, offset: entryAt, line: entryLine, column: entryCol, atEnd: !g.token && !(error instanceof RangeError) };
    }
  }

  private addEntry(raw: { type: string; label: string; properties: Record<string, unknown> }, start: number, end: number, line: number, column: number): void {
    const fields: Record<string, string> = {};
    let size = 0;
    for (const name in raw.properties) {
      const value = String(raw.properties[name]);
      if (value.length > MAX_BIB_EXPANSION) {
        this.problems.push({ line, column, message: `field ${name} of entry ${raw.label} is longer than ${MAX_BIB_EXPANSION.toLocaleString('en-US')} characters; the field is left out`, severity: 'warning' });
        continue;
      }
      size += value.length;
      fields[name] = value;
    }
    this.expanded += size;
    if (this.expanded > this.budget) {
      this.stopped = true;
      this.problems.push({ line, column, message: `the fields of this file expand to more than ${this.budget.toLocaleString('en-US')} characters through @string macros; reading stopped here`, severity: 'error' });
      return;
    }
    this.entries.push({ key: raw.label, type: raw.type, fields, start, end, line });
  }

  /** An `@string` (or `@preamble`) block was read: note where a macro is defined, and refuse one that expands too far. */
  private addDefinition(start: number, end: number, line: number, column: number): void {
    const m = /^@[ \t\r\n]*string[ \t\r\n]*[{(][ \t\r\n]*([A-Za-z_][A-Za-z0-9_:+-]*)/i.exec(this.text.slice(start, Math.min(end, start + 200)));
    if (!m) return;
    const name = m[1]!.toLowerCase();
    const strings = this.grammar.state.strings;
    if ((strings[name]?.length ?? 0) > MAX_BIB_EXPANSION) {
      strings[name] = '';
      this.problems.push({ line, column, message: `@string ${m[1]} expands to more than ${MAX_BIB_EXPANSION.toLocaleString('en-US')} characters; it is read as empty`, severity: 'error' });
    }
    this.strings.set(name, { start, end });
  }
}

/**
 * Reads the one entry at `start` again (after the library was read): its fields with the file's
 * macros, for converting it in full (Citation.js's BibTeX to CSL) when it is cited or shown.
 *
 * @param text - the library's text, as read
 * @param start - the entry's `@` offset ({@link RawBibEntry.start})
 * @param end - the entry's end offset
 * @param macros - the file's macros ({@link BibtexLibraryReader.macros})
 * @returns Citation.js's raw entry, or undefined when it does not parse any more
 */
export function readEntryAt(text: string, start: number, end: number, macros: Readonly<Record<string, string>>): { type: string; label: string; properties: Record<string, string> } | undefined {
  const g = new Grammar(bibtexGrammar.rules, undefined) as unknown as BibGrammarState;
  g.state = { strings: { ...macros } };
  g.log = [];
  g.lexer = newLexer().reset(text.slice(start, end), { line: 1, col: 1, state: 'main', stack: [] });
  try {
    g.token = g.lexer.next();
    const raw = g.consumeRule('Entry') as { type: string; label: string; properties: Record<string, unknown> } | undefined;
    if (!raw) return undefined;
    return { type: raw.type, label: raw.label, properties: Object.fromEntries(Object.entries(raw.properties).map(([k, v]) => [k, String(v)])) };
  } catch {
    // ignored: the caller falls back to the fields read at load (the entry was read then).
    return undefined;
  }
}
