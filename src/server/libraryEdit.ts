/**
 * The incremental edit of an open library `.bib`: an edit re-reads only the entries it touches (a
 * range of whole lines read with the file's macros, grown while what it reads runs into the next
 * entry), and the library's search entries and index are updated in place; its `BibFile` is a new
 * one, of the new text (a reading taken before the edit stays a reading of the text it was taken
 * of). A change that touches an `@string`, or a file with lone CR line breaks, is read in full instead.
 */
import { bibEntryAt, STRING_COMMAND, type BibEntry } from '../core/bibliography/bibtexFile.js';
import { BibtexLibraryReader } from '../core/bibliography/readBibtex.js';
import { entryFromBibtex, type LibraryRef } from '../core/library/entries.js';
import { libraryFile, type LoadedLibrary } from '../core/library/loadLibrary.js';
import type { Entry } from '../core/corpus/schema.js';

/**
 * Brings a loaded BibTeX library from `old` to `text` in place.
 *
 * @param lib - a BibTeX library loaded from `old`; changed in place (its `file` replaced)
 * @param old - the text it was loaded from
 * @param text - the edited text
 * @param ref - the library's URI and name, for the entries read again
 * @returns the entries replaced and their replacements; false (nothing changed) when the edit needs a full read
 */
export function updateBibtexLibrary(lib: LoadedLibrary, old: string, text: string, ref: LibraryRef): { removed: Entry[]; added: Entry[] } | false {
  // The reader counts a lone CR as a line break; the line arithmetic here counts LFs: such a file is read in full.
  if (/\r(?!\n)/.test(text) || /\r(?!\n)/.test(old)) return false;
  const { file } = lib;
  const was = file.entries;
  const startOf = (i: number) => was[i]!.start!;
  const endOf = (i: number) => was[i]!.end!;
  let p = 0;
  const max = Math.min(old.length, text.length);
  while (p < max && old.charCodeAt(p) === text.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && old.charCodeAt(old.length - 1 - s) === text.charCodeAt(text.length - 1 - s)) s++;
  const oldEnd = old.length - s;
  const delta = text.length - old.length;
  // A change inside or next to an @string block changes what every later entry expands to.
  for (const [, at] of file.strings ?? []) if (at.start <= oldEnd && at.end >= p) return false;
  if (STRING_COMMAND.test(text.slice(p, text.length - s))) return false;
  const n = lib.entries.length;
  // What is read again is whole lines, from the line the change starts on to the start of a line
  // where an entry after the change begins: the entries in it are replaced, and so are the
  // problems on its lines (a problem has a line, and entries can share one).
  const atLineStart = (offset: number) => offset === 0 || old.charCodeAt(offset - 1) === 10;
  let first = 0;
  while (first < n && endOf(first) < p) first++;
  let from = lineStartOf(old, p);
  // Text between the previous entry and the change that is not blank (a broken entry, a stray
  // "@" whose type the changed line gives) may read differently with the change after it: the
  // range starts where the previous entry ends. (Found by the property test: "@\ntring{…" edited
  // to "@\n{…" kept the old error.)
  const gapStart = first > 0 ? endOf(first - 1) : 0;
  if (gapStart < from && /\S/.test(old.slice(gapStart, from))) from = lineStartOf(old, gapStart);
  for (;;) {
    // An entry that ends after the range starts (on its first line, before the change) is read again too.
    while (first > 0 && endOf(first - 1) > from) first--;
    if (first < n && startOf(first) < from) from = lineStartOf(old, startOf(first));
    else break;
  }
  let last = n;
  while (last > first && startOf(last - 1) > oldEnd) last--;
  const startLine = lineOfOffset(old, from);
  // What an edit opens may run into the entries after it (an unclosed brace, an entry that now
  // starts mid-line), as a fresh read of the file would read it: while the range read has an
  // error, it takes in the next entry too, a few times; past that, the errors are the file's.
  let to: number;
  let reader: BibtexLibraryReader;
  for (let grown = 0; ; grown++) {
    while (last < n && !atLineStart(startOf(last))) last++;
    to = last < n ? startOf(last) + delta : text.length;
    if (to < from) return false;
    // An @string in what is read again (one that an edit made or unmade) changes what later
    // entries expand to: the whole file is read.
    if (STRING_COMMAND.test(text.slice(from, to)) || STRING_COMMAND.test(old.slice(from, to - delta))) return false;
    reader = new BibtexLibraryReader(text, { start: from, end: to, line: startLine, macros: file.macros });
    reader.read();
    if (last === n || grown === 4 || !reader.problems.some((q) => q.severity === 'error')) break;
    last++;
  }
  // Keys commented out with `%` are kept without their places: a file with any is read in full (they are rare).
  if (file.commented?.length || reader.commented.length) return false;
  const added = reader.entries.map((raw) => entryFromBibtex(raw, ref));
  const removed = lib.entries.slice(first, last);
  const oldTo = to - delta;
  const lineDelta = lineBreaks(text, from, to) - lineBreaks(old, from, oldTo);
  // The last line of the range in the old text (the range ends at a line start, or at the end).
  const lastLine = oldTo > from ? startLine + lineBreaks(old, from, oldTo - 1) : startLine - 1;
  for (let i = last; i < n; i++) lib.entries[i]!.library!.line += lineDelta;
  // The new text's entries, each reading its fields from the new text (the old file's entries keep reading the old one).
  const source = { text, macros: file.macros ?? {} };
  const at = (e: BibEntry, shift: number, lines: number) => bibEntryAt({ key: e.key, type: e.type, start: e.start! + shift, end: e.end! + shift, line: e.line! + lines }, source);
  const entries = [...was.slice(0, first).map((e) => at(e, 0, 0)), ...reader.entries.map((r) => bibEntryAt(r, source)), ...was.slice(last).map((e) => at(e, delta, lineDelta))];
  lib.entries.splice(first, last - first, ...added);
  const strings = (file.strings ?? []).map(([name, s]): [string, { start: number; end: number }] => [name, s.start >= oldEnd ? { start: s.start + delta, end: s.end + delta } : s]);
  const problems = [...(file.problems ?? []).filter((q) => q.line < startLine), ...reader.problems,
    ...(file.problems ?? []).filter((q) => q.line > lastLine).map((q) => ({ ...q, line: q.line + lineDelta }))];
  lib.file = libraryFile(ref, 'bibtex', text, entries, problems, { macros: source.macros, strings });
  lib.index.update(removed, added);
  return { removed, added };
}

/** The offset where the line holding `offset` starts. */
function lineStartOf(text: string, offset: number): number {
  // `lastIndexOf` reads a negative position as 0: at offset 0 it would find a line break there.
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** Line breaks (LF) in `[from, to)`. */
function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The 1-based line of an offset. */
function lineOfOffset(text: string, offset: number): number {
  return lineBreaks(text, 0, offset) + 1;
}
