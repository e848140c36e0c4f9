/**
 * Reading a user's `.bib` file and planning additions to it that touch nothing else.
 *
 * Parsing is Citation.js's BibTeX parser (`@citation-js/plugin-bibtex`, the grammar of the BibTeX
 * manual plus biblatex's field set); what we add is positions (where a key is defined) and the
 * append plan, which keeps comments, `@string`/`@preamble` blocks, formatting, line endings and
 * a byte-order mark as they are.
 */
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { parse as parseBibtex } from '@citation-js/plugin-bibtex/lib/input/file.js';

/** One entry of a `.bib` file, with field names lower-cased and values as parsed (macros expanded). */
export interface BibEntry {
  key: string;
  type: string;
  fields: Record<string, string>;
}

/** Where a `.bib` file stops being parseable. `line` and `column` are 1-based. */
export interface BibSyntaxError {
  line: number;
  column: number;
  message: string;
}

/** A parsed `.bib` file: its entries, or the error that stopped the parse. */
export interface ParsedBib {
  entries: BibEntry[];
  error?: BibSyntaxError;
}

/**
 * Parses a `.bib` file.
 *
 * A file whose `@string` macros expand too far is not read (see {@link macroExpansionError}).
 *
 * @param text - the file's text (a leading BOM is allowed)
 * @returns the entries in file order; on a syntax error, or macros that expand too far, no entries
 *   and the error's position
 */
export function parseBib(text: string): ParsedBib {
  const body = text.replace(/^\uFEFF/, '');
  const blowUp = macroExpansionError(body);
  if (blowUp) return { entries: [], error: { ...lineColumnAt(body, blowUp.offset), message: blowUp.message } };
  try {
    const raw = parseBibtex(body) as { type: string; label: string; properties: Record<string, string> }[];
    return {
      entries: raw.map((r) => ({
        key: r.label,
        type: r.type.toLowerCase(),
        fields: Object.fromEntries(Object.entries(r.properties).map(([k, v]) => [k.toLowerCase(), String(v)])),
      })),
    };
  } catch (e) {
    const message = ((e as Error).message ?? String(e)).split('\n')[0]!.replace(/:$/, '');
    // An unclosed brace makes the parser fail far below, at the end of the file or in a later
    // entry; the entry whose braces never close is where the user must look.
    const open = unclosedEntry(text);
    if (open) return { entries: [], error: { ...open, message: `entry "${open.key}" is not closed (unbalanced braces); ${message}` } };
    const m = /line (\d+) col (\d+)/.exec(message);
    return { entries: [], error: { line: m ? Number(m[1]) : 1, column: m ? Number(m[2]) : 1, message } };
  }
}

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
 * Names the parser's macro table (a plain object) answers without a definition, with the length
 * of what they expand to: `constructor` is `Object`'s source text, `__proto__` "[object Object]".
 */
const PROTOTYPE_MACROS = new Map([['constructor', String(Object).length], ['__proto__', String({}).length]]);

/** The parser's tokens (its moo lexer's rules), as sticky patterns for {@link macroExpansionError}. */
const BIB = {
  space: /(?:\s+|%.*)*/y,
  comment: /@[cC][oO][mM][mM][eE][nN][tT].+/y,
  special: /[sS][tT][rR][iI][nN][gG]|[pP][rR][eE][aA][mM][bB][lL][eE]/y,
  identifier: /[a-zA-Z_][a-zA-Z0-9_:+-]*/y,
  number: /-?\d+/y,
  label: /[^,\s]+/y,
  open: /[{(]/y,
  close: /[})]/y,
  equals: /=/y,
  comma: /,/y,
};

/**
 * An `@string` command as the parser's lexer reads one: `@`, white space and `%` comments (what
 * {@link BIB}'s `space` skips), then `string` in any case. Where one is made or unmade, every later
 * entry's macros may change. Not built from `space`: with `string` after it, `(?:\s+|%.*)*` backtracks
 * exponentially on a run of spaces (`@` and 28 spaces took 0.5 s); here each character can be read
 * one way only (a comment runs to its line's end).
 */
export const STRING_COMMAND = /@(?:\s|%[^\n]*(?:\n|$))*string/i;

/**
 * Finds `@string` macros that expand too far, before Citation.js's parser expands them: each
 * `@string{a1 = a0 # a0}` can double the text, so 26 lines make a 134-million-character field
 * (the parser builds it as a rope in milliseconds; the first regex or `slice` on it then takes
 * 134 MB and seconds).
 *
 * One linear pass that follows the parser's grammar and lexer
 * (`@citation-js/plugin-bibtex/lib/input/file.js`, 0.9) but computes only lengths: a quoted or
 * braced value counts its characters between the delimiters (the parser keeps inner braces and
 * backslashes), a number its digits, a macro its expanded length (Citation.js's default macros
 * too; an undefined one, which the parser expands to nothing, its name's length, except the
 * names its macro table inherits, {@link PROTOTYPE_MACROS}), and `#` adds.
 * Macro names are compared in lower case, as the parser does. Where the text stops following the
 * grammar the pass stops; the parser fails there too, before expanding anything after it.
 *
 * @param text - the file's text, without a BOM
 * @returns undefined, or the first place where an expression that uses a macro expands to more than
 *   {@link MAX_BIB_EXPANSION} characters (the `@string`, the field, the `@preamble`), or where the
 *   macro references of the file together pass {@link maxTotalBibExpansion}, with a message
 */
export function macroExpansionError(text: string): { offset: number; message: string } | undefined {
  const macros = new Map<string, number>(Object.entries(defaultStrings).map(([k, v]) => [k, v.length]));
  const budget = maxTotalBibExpansion(text.length);
  let total = 0;
  let i = 0;
  const n = text.length;
  const sticky = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  /** White space and `%` comments between tokens. */
  const skip = () => { sticky(BIB.space); };
  /** A quoted or braced value at `i` (on its opening delimiter): its length, or -1 at the end of the text. */
  const literal = (): number => {
    const start = i;
    let depth = text[i] === '{' ? 1 : 0;
    const quoted = depth === 0;
    for (i++; i < n; i++) {
      const c = text[i];
      if (c === '\\' && (text[i + 1] === '\\' || text[i + 1] === '{' || (!quoted || depth > 0) && text[i + 1] === '}')) i++;
      else if (c === '{') depth++;
      else if (c === '}' && depth > 0) { if (--depth === 0 && !quoted) return i++ - start - 1; }
      else if (c === '"' && quoted && depth === 0) return i++ - start - 1;
    }
    return -1;
  };
  /** An expression at `i`: its expanded length and whether it uses a macro, or undefined where the grammar breaks. */
  const expression = (): { length: number; macro: boolean; over?: number } | undefined => {
    let length = 0;
    let macro = false;
    for (;;) {
      const at = i;
      const name = sticky(BIB.identifier);
      if (name !== undefined) {
        const key = name.toLowerCase();
        const len = macros.get(key) ?? PROTOTYPE_MACROS.get(key) ?? name.length;
        macro = true;
        length += len;
        total += len;
        if (total > budget) return { length, macro, over: at };
      } else if (sticky(BIB.number) !== undefined) {
        length += i - at;
      } else if (text[i] === '"' || text[i] === '{') {
        const len = literal();
        if (len < 0) return undefined;
        length += len;
      } else return undefined;
      skip();
      if (text[i] !== '#') return { length, macro };
      i++;
      skip();
    }
  };
  /** `name = expression`: null when no name starts here, undefined when the rest does not parse. */
  const assignment = (): { name: string; value: { length: number; macro: boolean; over?: number } } | null | undefined => {
    const name = sticky(BIB.identifier);
    if (name === undefined) return null;
    skip();
    if (!sticky(BIB.equals)) return undefined;
    skip();
    const value = expression();
    return value && { name, value };
  };
  const tooLong = (what: string, through = ' through @string macros') =>
    `${what} expands to more than ${MAX_BIB_EXPANSION.toLocaleString('en-US')} characters${through}; not read`;
  const tooMuch = `@string macros expand to more than ${budget.toLocaleString('en-US')} characters in this file; not read`;

  while (i < n) {
    // Outside entries everything is junk to the parser, and `@comment` takes the rest of its line.
    const at = text.indexOf('@', i);
    if (at < 0) return undefined;
    i = at;
    if (sticky(BIB.comment) !== undefined) continue;
    i++;
    skip();
    const special = sticky(BIB.special);
    const type = special ?? sticky(BIB.identifier);
    if (type === undefined) return undefined;
    skip();
    if (!sticky(BIB.open)) return undefined;
    skip();
    if (special?.toLowerCase() === 'string') {
      const a = assignment();
      if (!a) return undefined;
      const { name, value } = a;
      if (value.over !== undefined) return { offset: value.over, message: tooMuch };
      if (value.macro && value.length > MAX_BIB_EXPANSION) return { offset: at, message: tooLong(`@string ${name}`, '') };
      // the parser's table is a plain object: `@string{__proto__ = …}` defines nothing
      if (name.toLowerCase() !== '__proto__') macros.set(name.toLowerCase(), value.length);
    } else if (special) {
      const value = expression();
      if (!value) return undefined;
      if (value.over !== undefined) return { offset: value.over, message: tooMuch };
      if (value.macro && value.length > MAX_BIB_EXPANSION) return { offset: at, message: tooLong('@preamble') };
    } else {
      const label = sticky(BIB.label) ?? '';
      skip();
      if (!sticky(BIB.comma)) return undefined;
      skip();
      for (;;) {
        const fieldAt = i;
        const a = assignment();
        if (a === null) break;
        if (!a) return undefined;
        const { name: field, value } = a;
        if (value.over !== undefined) return { offset: value.over, message: tooMuch };
        if (value.macro && value.length > MAX_BIB_EXPANSION) return { offset: fieldAt, message: tooLong(`field ${field} of entry ${label}`) };
        if (!sticky(BIB.comma)) break;
        skip();
      }
    }
    skip();
    if (!sticky(BIB.close)) return undefined;
  }
  return undefined;
}

/** The first entry whose braces are still open when the next entry (a line starting with `@`) or the file ends. */
function unclosedEntry(text: string): { line: number; column: number; key: string } | undefined {
  let depth = 0;
  let start: { line: number; column: number; key: string } | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = /^\s*@([A-Za-z]+)\s*[{(]\s*([^,\s]*)/.exec(line);
    if (at) {
      if (depth > 0 && start) return start;
      depth = 0;
      start = { line: i + 1, column: line.indexOf('@') + 1, key: at[2] || at[1]! };
    }
    for (let j = 0; j < line.length; j++) {
      if (line[j] === '\\') { j++; continue; }
      if (line[j] === '{') depth++;
      else if (line[j] === '}') depth--;
    }
  }
  return depth > 0 ? start : undefined;
}

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

/**
 * Plans appending BibTeX entries to a `.bib` file: one insertion at the end, separated from the
 * existing text by one blank line, in the file's own line ending. Nothing before it changes.
 * Linear in the file's length.
 *
 * @param text - the current text of the file (exactly the text the insertion will be applied to)
 * @param bibtex - the entries to add, as BibTeX with LF line endings
 * @returns the insertion offset and text
 */
export function planBibAppend(text: string, bibtex: string): { offset: number; text: string } {
  const eol = eolOf(text);
  const body = bibtex.slice(0, trailingSpaceStart(bibtex)).replace(/\r?\n/g, eol) + eol;
  // An empty file, or one of white space only (a lone BOM too: `\s` matches U+FEFF), gets the entries alone.
  const contentEnd = trailingSpaceStart(text);
  if (contentEnd === 0) return { offset: text.length, text: body };
  // The white space after the last entry: how many line breaks it already holds.
  let breaks = 0;
  for (let i = contentEnd; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) breaks++;
  }
  const endsWithEol = text.endsWith('\n') || text.endsWith('\r');
  // After a final lone CR, a leading LF would fuse with it into one CRLF break: separate with CRs.
  const sep = text.endsWith('\r') ? '\r' : eol;
  const lead = breaks >= 2 && endsWithEol ? '' : endsWithEol ? sep : sep + sep;
  return { offset: text.length, text: lead + body };
}

/**
 * Titles longer than this are compared on their first this-many characters (no real title comes
 * close). `parseBib` refuses files whose macros expand past {@link MAX_BIB_EXPANSION}, but a title
 * may still be that long (100,000 characters through macros, or a literal as long as the file),
 * and every entry's title is normalised each time a bibliography is compared with the corpus.
 */
const TITLE_LIMIT = 2000;

/**
 * A title reduced for comparison: lower case, TeX commands and braces dropped, punctuation folded
 * to spaces. Only the first 2,000 characters count, so an overlong title field costs no more than
 * a real title.
 */
export function normaliseTitle(t: string): string {
  return t.slice(0, TITLE_LIMIT).toLowerCase().normalize('NFKD').replace(/\\[a-zA-Z]+|[{}]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** What identifies a work, for finding the same work under another key. */
export interface WorkIdentity {
  doi?: string;
  arxiv?: string;
  title: string;
}

/** The identity of a `.bib` entry: DOI, arXiv id (from `eprint` with arXiv, or an arxiv.org URL) and title. */
export function bibIdentity(e: BibEntry): WorkIdentity {
  const f = e.fields;
  const arxivUrl = /arxiv\.org\/(?:abs|pdf)\/([0-9]{4}\.[0-9]{4,5})/i.exec(`${f.url ?? ''} ${f.journal ?? ''} ${f.note ?? ''}`);
  const eprintIsArxiv = f.eprint && (!f.archiveprefix || /arxiv/i.test(f.archiveprefix) || /arxiv/i.test(f.eprinttype ?? ''));
  return {
    doi: f.doi?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').toLowerCase(),
    arxiv: (eprintIsArxiv ? f.eprint!.replace(/^arxiv:/i, '').replace(/v\d+$/, '') : undefined) ?? arxivUrl?.[1],
    title: normaliseTitle(f.title ?? ''),
  };
}

/**
 * Whether two identities name the same work: same DOI, same arXiv id, or the same normalised title.
 */
export function sameWork(a: WorkIdentity, b: WorkIdentity): boolean {
  if (a.doi && b.doi && a.doi.toLowerCase() === b.doi.toLowerCase()) return true;
  if (a.arxiv && b.arxiv && a.arxiv === b.arxiv) return true;
  const ta = normaliseTitle(a.title);
  return !!ta && ta === normaliseTitle(b.title);
}

/** Keys defined more than once in a file (ignoring case, as BibTeX does), each with its occurrences. */
export function duplicateKeys(entries: readonly BibEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.key.toLowerCase(), (counts.get(e.key.toLowerCase()) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}
