/**
 * The one reader of BibTeX files: a document's bibliography (`parseBib` in `core/bibliography/bibtexFile.ts`
 * is a view over it) and a library of any size (a JabRef file, a Better BibTeX export, a lab's
 * shared `.bib`): every good entry, where it is, and a problem for each broken one.
 *
 * It reads as BibTeX 0.99d reads a database (`bibtex.web`, "Reading the database files", §§ 223–
 * 270: `get_bib_command_or_entry_and_process`, `scan_identifier`, `scan_balanced_braces`,
 * `scan_a_field_token_and_eat_white`; the syntax in btxdoc, "The database file"):
 * - everything outside a command is ignored: the reader looks for the next `@`, wherever it is;
 * - after `@` comes an identifier (the entry type), compared without case: `comment` (exactly that
 *   word, not `commentary` nor jurabib's `commented`) makes BibTeX go on looking for the next `@`;
 *   `preamble` and `string` are commands; any other is an entry type;
 * - an identifier is a run of characters other than white space, control characters and
 *   `"#%'(),={}` (`id_class`), that does not start with a digit: so `max.best.papers`,
 *   `url/doi`, `title+an` and `@article` are field names;
 * - the command's body is in `{…}` or `(…)`, and must close with the same kind;
 * - an entry's key runs to the first `,` or white space (or `}` in a `{`-entry);
 * - a value is a `#`-concatenation of `{…}` (balanced braces, no escapes), `"…"` (ending at a
 *   `"` outside braces), a run of digits, or a macro name (`@string`, compared without case);
 * - an error costs the command it is in: BibTeX goes on looking for the next `@` from where the
 *   error was found ("I'm skipping whatever remains of this entry"), so an entry that is not
 *   closed takes the entry after it too (its `@type` is read as a field name);
 * - an entry whose error comes after its key still exists for BibTeX, with the fields read before
 *   the error (`bibtex.web` stores the entry when it reads the key; BibTeX 0.99d then warns, e.g.
 *   "empty journal in key", and cites it). A reader made with `keepPartial` keeps such an entry in
 *   {@link BibtexLibraryReader.partial} (a document's bibliography, whose keys must be defined as
 *   BibTeX defines them); a library's reader leaves it out (its text is no entry to copy). biber
 *   (btparse) instead stops with an error and writes no `.bbl`, so for biblatex nothing is defined.
 *
 * Where we read more than BibTeX: `%` to the end of the line is a comment between the tokens of a
 * command (btparse's lexer, which biber uses, does the same); a braced or quoted value that does
 * not close before its fourth line that starts with `@` (or before the end) is reported as not
 * closed and reading goes on at the first of those lines (BibTeX would read to the end of the
 * file and lose it all); a lone `@` before an entry is stray (BibTeX would take `@misc` for the
 * type, `@` being a legal identifier character); an `@` with only `%` and blanks before it on its line
 * is a commented-out command (`%@article{…`), skipped as btparse's lexer skips a `%` comment between
 * commands (BibTeX would read the entry; a writer who comments an entry out means biber's reading,
 * and BibTeX reports the entry as an error); an entry with an empty key is an error (biber's "no key"); lines end with
 * CRLF, LF or a lone CR (as in VS Code's text model and in web2c's `input_line`).
 *
 * Reading can stop at a deadline and resume (the language server answers between slices), and
 * each entry keeps its offsets and line, for going to its definition and copying its text. The
 * whole read is linear in the text (a value that does not close is scanned at most four times).
 *
 * The lexical rules, value reading, macros and line counting are `bibtexScanner.ts`'s; this module
 * reads the commands (entries, `@string`, `@preamble`, `@comment`) and keeps entries and problems.
 */
import {
  BibError, BibtexScanner, isWhite, MAX_BIB_EXPANSION, maxTotalBibExpansion,
  type BibReadRange, type LibraryProblem,
} from './bibtexScanner.js';
import { problem } from '../text/problemText.js';

export { MAX_BIB_EXPANSION, maxTotalBibExpansion, type BibReadRange, type LibraryProblem } from './bibtexScanner.js';

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
  /** Where each field is, in the order written (only from {@link readEntryLayout}). */
  fieldSpans?: BibFieldSpan[];
}

/**
 * Where one field of an entry is written: UTF-16 offsets into the file's text. The value runs
 * from its first token (`{`, `"`, a digit or a macro name) to the end of its last one, `#`
 * concatenations included; the blanks and comments around it are not part of it.
 */
export interface BibFieldSpan {
  /** The field name as written (its case kept). */
  name: string;
  nameStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Commands read between two looks at the deadline. */
const DEADLINE_EVERY = 16;

/** Characters scanned for the progress count between two looks at the deadline. */
const SCAN_EVERY = 1 << 16;

/**
 * A line that starts a block which is no entry: `@string`, `@preamble`, `@comment` (each a whole
 * identifier), for the progress count.
 */
const NOT_ENTRY = /@[ \t]*(?:string|preamble|comment)(?![^\s"#%'(),={}])/iy;

/** A line break: CRLF, LF or a lone CR. */
const LINE_BREAK = /\r\n?|\n/g;

/**
 * Reads a `.bib` file, in slices if asked; see the module comment.
 *
 * @example
 * const r = new BibtexLibraryReader(text);
 * while (!r.read(() => performance.now() > t + 20)) await yieldToOthers();
 * r.entries; r.problems;
 */
export class BibtexLibraryReader extends BibtexScanner {
  /** Entries in file order (with duplicate keys, as written). */
  readonly entries: RawBibEntry[] = [];
  /**
   * With `keepPartial`: entries broken after their key (a missing comma between two fields, a value
   * not closed), in file order, each with the fields read before the error and `end` at the error:
   * BibTeX keeps them (see the module comment). Empty otherwise.
   */
  readonly partial: RawBibEntry[] = [];
  /**
   * Keys of entries commented out with `%` (`%@misc{key,`), in file order: skipped, as biber
   * (btparse) skips them, but BibTeX, which has no comment syntax, reads them.
   */
  readonly commented: string[] = [];
  readonly problems: LibraryProblem[] = [];
  /** `@string` definitions: lower-case name → offsets of the block that defines it (the last one). */
  readonly strings = new Map<string, { start: number; end: number }>();
  /** Characters all fields may expand to together ({@link maxTotalBibExpansion}). */
  private readonly budget: number;
  /** Where reading goes on. */
  private pos: number;
  private expanded = 0;
  private stopped = false;
  /** The progress count ({@link total}): where its scan goes on, -1 when done. */
  private scanAt: number;
  private total_ = 0;
  private done_ = 0;
  /** The line of the last stray "@" warned about: one warning a line (a line of junk may hold thousands). */
  private strayLine = 0;
  /** Whether entries keep where each field is ({@link RawBibEntry.fieldSpans}): only for reading one entry's layout. */
  protected keepSpans = false;

  /** Whether entries broken after their key are kept in {@link partial}. */
  private readonly keepPartial: boolean;

  /**
   * @param text - the file's text (a leading BOM is allowed)
   * @param range - read only this part (default: all of it)
   * @param opts.keepPartial - keep entries broken after their key, as BibTeX does ({@link partial})
   */
  constructor(text: string, range?: BibReadRange, opts: { keepPartial?: boolean } = {}) {
    super(text, range);
    this.keepPartial = !!opts.keepPartial;
    this.pos = this.scanAt = this.lineAt;
    this.budget = maxTotalBibExpansion(text.length);
  }

  /**
   * Roughly how many entries the file has, for progress: lines that start with `@`, but not
   * `@string`, `@preamble` or `@comment` (counted by the first calls of {@link read}).
   */
  get total(): number {
    return this.total_;
  }

  /** How many of the {@link total} entries have been read. */
  get done(): number {
    return Math.min(this.done_, this.total_);
  }

  /** The macros as defined at the end of what was read (a null-prototype object), for reading one entry again ({@link readEntryAt}). */
  get macros(): Readonly<Record<string, string>> {
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of this.macroTable) out[k] = v;
    return out;
  }

  /** Counts the lines that start entries ({@link total}); false when stopped by the deadline. */
  private scan(deadline: () => boolean): boolean {
    const { text, end } = this;
    let i = this.scanAt;
    let check = i + SCAN_EVERY;
    let first = true;
    while (i < end) {
      let j = i;
      while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
      if (text.charCodeAt(j) === 64 && j < end) {
        NOT_ENTRY.lastIndex = j;
        if (!NOT_ENTRY.test(text)) this.total_++;
      } else if (first && i === this.pos) {
        // An entry after other text on the first line (BibTeX reads from any `@`).
        const at = text.indexOf('@', i);
        const nl = text.indexOf('\n', i);
        if (at >= 0 && at < end && (nl < 0 || at < nl)) this.total_++;
      }
      first = false;
      // The next line: after LF, CRLF or a lone CR.
      LINE_BREAK.lastIndex = i;
      const nl = LINE_BREAK.exec(text);
      if (!nl) break;
      i = nl.index + nl[0].length;
      if (i >= check && i < end) {
        check = i + SCAN_EVERY;
        if (deadline()) { this.scanAt = i; return false; }
      }
    }
    this.scanAt = -1;
    return true;
  }

  /**
   * Reads on until the file ends or `deadline()` says to stop (it is asked every few entries).
   *
   * @returns true when the whole file has been read
   */
  read(deadline: () => boolean = () => false): boolean {
    if (this.scanAt >= 0 && !this.scan(deadline)) return false;
    const { text } = this;
    let sinceCheck = 0;
    while (!this.stopped) {
      const at = text.indexOf('@', this.pos);
      if (at < 0 || at >= this.end) break;
      if (commentedOut(text, at)) {
        COMMENTED_KEY.lastIndex = at;
        const key = COMMENTED_KEY.exec(text)?.[1];
        if (key) this.commented.push(key);
        // The rest of the line is the comment.
        LINE_BREAK.lastIndex = at;
        const nl = LINE_BREAK.exec(text);
        this.pos = nl ? nl.index + nl[0].length : this.end;
        continue;
      }
      this.command(at);
      if (++sinceCheck >= DEADLINE_EVERY) {
        sinceCheck = 0;
        if (deadline()) {
          const next = text.indexOf('@', this.pos);
          if (!this.stopped && next >= 0 && next < this.end) return false;
        }
      }
    }
    this.pos = this.end;
    this.done_ = this.total_;
    return true;
  }

  /** Reads the command at `at` (its `@`); sets {@link pos} to where looking for the next `@` goes on. */
  private command(at: number): void {
    const text = this.text;
    const start = this.where(at);
    const lineAtStart = { lineAt: this.lineAt, line: this.line, lineStart: this.lineStart };
    // Only white space between "@" and the type (bibtex.web's eat_bib_white_space; "%" is no comment there).
    let i = at + 1;
    while (i < this.end && isWhite(text.charCodeAt(i))) i++;
    const type = this.identifier(i);
    // "@" is a legal identifier character, so BibTeX would read a lone "@" before "@misc{…" as an
    // entry of type "@misc"; we read that "@" as stray and the entry as written.
    if (!type || type.charCodeAt(0) === 64) {
      this.pos = type ? i : at + 1;
      if (start.line === this.strayLine) return;
      this.strayLine = start.line;
      this.problems.push({ ...start, severity: 'warning', ...problem('bib-stray-at') });
      return;
    }
    const kind = type.toLowerCase();
    i += type.length;
    if (kind === 'comment') {
      // BibTeX's @comment: nothing more is read; the search for the next "@" goes on after the word.
      this.pos = i;
      return;
    }
    const isEntry = kind !== 'string' && kind !== 'preamble';
    // A "%" comment before the "{" is read as one (Citation.js and btparse do); when no "{" follows
    // it, the search for the next "@" goes on after the white space only, as BibTeX's does.
    let white = i;
    while (white < this.end && isWhite(text.charCodeAt(white))) white++;
    i = this.skipBlanks(i);
    const open = text.charCodeAt(i);
    if (open !== 123 && open !== 40) {
      this.pos = white;
      if (start.line === this.strayLine) return;
      this.strayLine = start.line;
      this.problems.push({ ...start, severity: 'warning', ...problem('bib-no-open', type) });
      return;
    }
    if (isEntry) this.done_++;
    const close = open === 123 ? '}' : ')';
    this.pending = [];
    let key: string | undefined;
    let fields: Record<string, string> | undefined;
    try {
      i = this.skipBlanks(i + 1);
      if (kind === 'preamble') {
        const v = this.value(i);
        i = v.end;
        if (v.value.macro && v.value.length > MAX_BIB_EXPANSION) throw new BibError(at, problem('bib-preamble-too-long', MAX_BIB_EXPANSION.toLocaleString('en-US')), v.end);
      } else if (kind === 'string') {
        const v = this.assignment(i, 'macro', `@string${text[at + 1 + type.length] ?? ''}`);
        const name = v.name;
        i = v.end;
        if (text[i] !== close) throw new BibError(i, problem('bib-expected-string-close', close, name, this.found(i)));
        const lower = name.toLowerCase();
        if (v.value.macro && v.value.length > MAX_BIB_EXPANSION) {
          this.macroTable.set(lower, '');
          this.problems.push({ ...start, severity: 'error', ...problem('bib-string-too-long', name, MAX_BIB_EXPANSION.toLocaleString('en-US')) });
        } else this.macroTable.set(lower, v.value.text);
        this.strings.set(lower, { start: at, end: i + 1 });
      } else {
        // The key: to the first "," or white space (or the closing "}" of a "{" entry), bibtex.web § 267.
        let j = i;
        while (j < this.end) {
          const c = text.charCodeAt(j);
          if (c === 44 || isWhite(c) || (close === '}' && c === 125)) break;
          j++;
        }
        key = text.slice(i, j);
        i = this.skipBlanks(j);
        if (!key) throw new BibError(i, problem('bib-no-key'), i);
        if (text[i] === ',') {
          i = this.skipBlanks(i + 1);
          const read: Record<string, string> = fields = Object.create(null) as Record<string, string>;
          const spans: BibFieldSpan[] | undefined = this.keepSpans ? [] : undefined;
          let size = 0;
          while (text[i] !== close) {
            const fieldAt = i;
            const v = this.assignment(i, 'field', close);
            const name = v.name;
            i = v.end;
            if (spans) spans.push(this.fieldSpan(name, fieldAt));
            const field = name.toLowerCase();
            if (v.value.length > MAX_BIB_EXPANSION) {
              this.pending.push({ ...this.where(fieldAt), severity: 'warning', ...problem('bib-field-too-long', field, key, MAX_BIB_EXPANSION.toLocaleString('en-US')) });
            } else if (Object.hasOwn(read, field)) {
              this.pending.push({ ...this.where(fieldAt), severity: 'warning', ...problem('bib-field-repeated', field, key) });
            } else {
              read[field] = v.value.text;
              size += v.value.length;
            }
            if (text[i] === ',') i = this.skipBlanks(i + 1);
            else if (text[i] !== close) {
              // `title={T2}\n journal={J2}`: the next field, its comma left out.
              const next = this.identifier(i);
              const missingComma = !!next && text[this.skipBlanks(i + next.length)] === '=';
              throw new BibError(i, missingComma
                ? problem('bib-missing-comma', close, field, next.toLowerCase())
                : problem('bib-expected-comma-or-close', close, field, this.found(i)));
            }
          }
          this.finish(at, i, start, kind, key, read, size, spans);
        } else if (text[i] === close) {
          this.finish(at, i, start, kind, key, Object.create(null) as Record<string, string>, 0);
        } else throw new BibError(i, problem('bib-expected-comma-after-key', key, this.found(i)));
      }
      if (kind !== 'string' && text[i] !== close) throw new BibError(i, problem('bib-expected-close', close, this.found(i)));
      this.problems.push(...this.pending);
      this.pos = i + 1;
    } catch (e) {
      if (!(e instanceof BibError)) throw e;
      // The problem is at the command's start (where the user must look), naming the line of the error.
      this.lineAt = lineAtStart.lineAt;
      this.line = lineAtStart.line;
      this.lineStart = lineAtStart.lineStart;
      const errorAt = this.where(e.at);
      // Run into the end: a brace opened inside it took the closing one (BibTeX: "unbalanced braces").
      const cause = e.at >= this.end && this.end === text.length ? problem('bib-file-ends-inside')
        : errorAt.line !== start.line ? problem('bib-at-line', e.text, errorAt.line) : e.text;
      // After its key BibTeX has stored the entry: it keeps it with the fields read so far.
      if (key && isEntry) {
        if (this.keepPartial) this.partial.push({ key, type: kind, fields: { ...(fields ?? {}) }, start: at, end: Math.max(Math.min(e.at, this.end), at + 1), line: start.line });
        this.problems.push({ ...start, severity: 'error', ...problem(this.keepPartial ? 'bib-entry-read-partly' : 'bib-entry-left-out', cause, key) });
      } else this.problems.push({ ...start, severity: 'error', ...(isEntry ? problem('bib-entry-skipped', cause, type) : problem('bib-command-skipped', cause, kind)) });
      this.pos = Math.max(e.resume, at + 1);
    }
  }

  /** An entry was read: keep it (unless the file's macros have expanded too far). */
  private finish(at: number, closeAt: number, start: { line: number; column: number }, type: string, key: string, fields: Record<string, string>, size: number, spans?: BibFieldSpan[]): void {
    this.expanded += size;
    if (this.expanded > this.budget) {
      this.stopped = true;
      this.pending = [{ ...start, severity: 'error', ...problem('bib-expansion-budget', this.budget.toLocaleString('en-US')) }];
      return;
    }
    this.entries.push({ key, type, fields: { ...fields }, start: at, end: closeAt + 1, line: start.line, ...(spans ? { fieldSpans: spans } : {}) });
  }

  /**
   * Where the field whose name starts at `nameStart` is (its value already read without error):
   * the value starts after `=` and its blanks, and ends after its last `#`-joined token, before
   * the blanks and comments that follow it.
   */
  private fieldSpan(name: string, nameStart: number): BibFieldSpan {
    const text = this.text;
    const valueStart = this.skipBlanks(this.skipBlanks(nameStart + name.length) + 1);
    let i = valueStart;
    let valueEnd = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 123 || c === 34) i = this.delimited(i);
      else if (c >= 48 && c <= 57) while (i < this.end && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      else i += this.identifier(i).length;
      valueEnd = i;
      i = this.skipBlanks(i);
      if (text[i] !== '#') break;
      i = this.skipBlanks(i + 1);
    }
    return { name, nameStart, valueStart, valueEnd };
  }
}

/** A reader of one entry that keeps where its fields are. */
class EntryLayoutReader extends BibtexLibraryReader {
  protected override keepSpans = true;
}

/**
 * Reads the one entry at `start` again with where each of its fields is written
 * ({@link RawBibEntry.fieldSpans}), for rewriting some of its fields in place.
 *
 * @param text - the file's text, as read
 * @param start - the entry's `@` offset ({@link RawBibEntry.start})
 * @param end - the entry's end offset (after its closing brace)
 * @returns the entry, or undefined when no entry reads from `start` to `end`
 */
export function readEntryLayout(text: string, start: number, end: number): RawBibEntry | undefined {
  if (text.charCodeAt(start) !== 64) return undefined;
  // Only where things are matters here, not what macros expand to: the standard macros will do.
  const r = new EntryLayoutReader(text, { start, end, line: 1 });
  r.read();
  const e = r.entries[0];
  return e && e.start === start && e.end === end ? e : undefined;
}


/**
 * Reads the one entry at `start` again (after the library was read): its fields with the file's
 * macros, for converting it in full (Citation.js's BibTeX to CSL) when it is cited or shown.
 *
 * @param text - the library's text, as read
 * @param start - the entry's `@` offset ({@link RawBibEntry.start})
 * @param end - the entry's end offset
 * @param macros - the file's macros ({@link BibtexLibraryReader.macros})
 * @returns the entry as Citation.js's raw shape, or undefined when no entry reads from `start` to `end`
 */
export function readEntryAt(text: string, start: number, end: number, macros: Readonly<Record<string, string>>): { type: string; label: string; properties: Record<string, string> } | undefined {
  if (text.charCodeAt(start) !== 64) return undefined;
  const r = new BibtexLibraryReader(text, { start, end, line: 1, macros });
  r.read();
  const e = r.entries[0];
  if (!e || e.start !== start || e.end !== end) return undefined;
  return { type: e.type, label: e.key, properties: e.fields };
}

/** An entry's head at an `@`, on its line: `@type{key,` (its key in group 1). */
const COMMENTED_KEY = /@[ \t]*[A-Za-z][\w-]*[ \t]*[{(][ \t]*([^\s,{}()"#%'=\\]+)[ \t]*,/y;

/**
 * Whether the `@` at `at` is commented out: only `%` signs and blanks (at least one `%`) stand
 * before it on its line, as in `%@article{key,` or `% @inproceedings{…`.
 */
function commentedOut(text: string, at: number): boolean {
  let percent = false;
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    if (c === 37) percent = true;
    else if (c !== 32 && c !== 9) return false;
  }
  return percent;
}
