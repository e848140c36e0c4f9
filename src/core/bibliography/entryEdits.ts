/**
 * Planning the two edits of a bibliography file's existing entries that the citation service
 * makes, byte for byte: renaming an entry's key, and removing entries. Like the additions of
 * `planAdditions.ts` and the rewrites of `planRewrite.ts`, a plan is a list of splices on the exact
 * text it is applied to (`fileEdit.ts`: the one change, its one apply and its one read-back), touching
 * nothing but the key (and, in BibTeX, the fields of other entries that name it) or the removed
 * entries with the white space that only separated them; and every plan is read back with the
 * format's one reader before it is handed on: the result must read as the same entries, with only
 * the change asked for, or there is no plan.
 *
 * Formats: BibTeX (keys compared ignoring case, as BibTeX does; the fields that name another
 * entry's key are renamed with it: `crossref` of BibTeX 0.99d, biblatex's `xref`, `xdata`,
 * `related` and `entryset`), CSL-JSON (the `id` written inside its quotes, or a number written as
 * a string), CSL-YAML (the `id` plain, single- or double-quoted; a plain scalar the new key cannot
 * be is written double-quoted). A file with an error-level problem is never planned on.
 */
import { createScanner } from 'jsonc-parser/lib/esm/main.js';
import { bibKeyOffset, type BibEntry } from './bibtexFile.js';
import { readBibFile, type BibFile } from './bibFile.js';
import type { EditPlan, Splice } from './fileEdit.js';
import { verified } from './readBack.js';

/** The BibTeX fields whose value is one key (`crossref`, `xref`) or a comma-separated list of keys. */
const KEY_FIELDS = ['crossref', 'xref', 'xdata', 'related', 'entryset'];

/** Whether an entry of this file has key `key` (BibTeX: ignoring case). */
const sameKey = (file: BibFile, a: string, b: string): boolean => (file.format === 'bibtex' ? a.toLowerCase() === b.toLowerCase() : a === b);

/** A field value naming keys, with every one that is `oldKey` (ignoring case) renamed. */
function renamedKeyList(value: string, oldKey: string, newKey: string): string {
  return value.split(',').map((part) => (part.trim().toLowerCase() === oldKey.toLowerCase() ? part.replace(part.trim(), newKey) : part)).join(',');
}

/**
 * Plans renaming the key of every entry of a file whose key is `oldKey` (see the module comment).
 *
 * @param source - the file's path or name (its extension gives the format) and the exact text the
 *   splices will be applied to (read here with the format's reader)
 * @returns the splices, or why there are none (none at all when no entry has the key)
 */
export function planKeyRename(source: { path: string; text: string }, oldKey: string, newKey: string): EditPlan {
  const file = readBibFile(source.path, source.text);
  if (!file || file.error) return { refusal: 'broken' };
  const { text } = file;
  const splices: Splice[] = [];
  for (const e of file.entries) {
    if (!sameKey(file, e.key, oldKey)) continue;
    const s = keySplice(file, e, newKey);
    if (!s) return { refusal: 'unplaced' };
    splices.push(s);
  }
  if (file.format === 'bibtex') {
    for (const e of file.entries) {
      if (e.start === undefined || e.end === undefined || !KEY_FIELDS.some((f) => e.fields[f] !== undefined && renamedKeyList(e.fields[f]!, oldKey, newKey) !== e.fields[f])) continue;
      splices.push(...keyFieldSplices(text, e.start, e.end, oldKey, newKey));
    }
  }
  if (!splices.length) return { splices };
  const expected = file.entries.map((e) => (sameKey(file, e.key, oldKey) ? renamedEntry(file, e, newKey, oldKey) : file.format === 'bibtex' ? renamedEntry(file, e, e.key, oldKey, newKey) : e));
  return verified(file, splices, expected);
}

/** An entry as it should read after the rename: `key`, and (BibTeX) its key fields with `oldKey` renamed to `fieldKey`. */
function renamedEntry(file: BibFile, e: BibEntry, key: string, oldKey: string, fieldKey = key): BibEntry {
  if (e.csl) return { ...e, key, csl: { ...e.csl, id: key } };
  const fields = { ...e.fields };
  for (const f of KEY_FIELDS) if (fields[f] !== undefined) fields[f] = renamedKeyList(fields[f]!, oldKey, fieldKey);
  return { ...e, key, fields };
}

/** The splice that writes `newKey` over an entry's key, or undefined when the reader did not place it where its text is. */
function keySplice(file: BibFile, e: BibEntry, newKey: string): Splice | undefined {
  const { text } = file;
  if (file.format === 'bibtex') {
    const at = e.start === undefined ? -1 : bibKeyOffset(text, e.start);
    return at >= 0 && text.slice(at, at + e.key.length) === e.key ? { offset: at, length: e.key.length, text: newKey } : undefined;
  }
  const at = e.keyStart;
  if (at === undefined) return undefined;
  const before = text[at - 1];
  const quoted = before === '"' || before === '\'';
  const id = e.csl?.id;
  if (typeof id === 'number' && !quoted) {
    // A number written as one: the new key is a string.
    const written = String(id);
    return text.slice(at, at + written.length) === written ? { offset: at, length: written.length, text: JSON.stringify(newKey) } : undefined;
  }
  if (text.slice(at, at + e.key.length) !== e.key) return undefined;
  if (file.format === 'csl-json') return quoted && text[at + e.key.length] === '"' ? { offset: at, length: e.key.length, text: newKey } : undefined;
  // CSL-YAML: a quoted id keeps its quotes when the new key needs no escape in them; a plain one stays plain when YAML reads it back as that string.
  if (before === '\'') return newKey.includes('\'') ? undefined : { offset: at, length: e.key.length, text: newKey };
  if (before === '"') return /["\\]/.test(newKey) ? undefined : { offset: at, length: e.key.length, text: newKey };
  return { offset: at, length: e.key.length, text: plainYamlKey(newKey) ? newKey : JSON.stringify(newKey) };
}

/**
 * Whether a key can be written as a plain YAML scalar where an `id:` value was: it starts with a
 * letter, digit or `_`, holds no `: `, ` #`, flow indicator or white space, and is no word YAML 1.2's
 * core schema reads as something else (a number, `true`, `null`…). The result is read back anyway.
 */
function plainYamlKey(key: string): boolean {
  if (!/^[\p{L}\p{N}_][^\s,[\]{}#]*$/u.test(key) || key.endsWith(':') || key.includes(': ')) return false;
  return !/^(?:[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|0x[\da-fA-F]+|0o[0-7]+|true|false|null|yes|no|on|off|~)$/i.test(key);
}

/**
 * The splices that rename `oldKey` in the key fields of the entry at `[start, end)`: its fields
 * walked as BibTeX reads them (`name = value`, a value a `#`-concatenation of `{…}`, `"…"`, numbers
 * and macro names), each of a key field's comma-separated keys compared ignoring case.
 */
function keyFieldSplices(text: string, start: number, end: number, oldKey: string, newKey: string): Splice[] {
  const out: Splice[] = [];
  const want = oldKey.toLowerCase();
  const key = bibKeyOffset(text, start);
  if (key < 0) return out;
  let i = key;
  while (i < end && text[i] !== ',' && !/\s/.test(text[i]!)) i++;
  const skip = () => { while (i < end && /\s/.test(text[i]!)) i++; };
  skip();
  while (text[i] === ',') {
    i++;
    skip();
    const nameAt = i;
    while (i < end && !/[\s=,{}"#%'()]/.test(text[i]!)) i++;
    const name = text.slice(nameAt, i).toLowerCase();
    skip();
    if (!name || text[i] !== '=') break;
    i++;
    const parts: [number, number][] = [];
    for (;;) {
      skip();
      const at = i;
      if (text[i] === '{' || text[i] === '"') {
        const closeAt = valueClose(text, i, end);
        if (closeAt < 0) return out;
        parts.push([at + 1, closeAt]);
        i = closeAt + 1;
      } else {
        while (i < end && !/[\s,#{}"()]/.test(text[i]!)) i++;
        if (i === at) return out;
      }
      skip();
      if (text[i] !== '#') break;
      i++;
    }
    if (!KEY_FIELDS.includes(name) || parts.length !== 1) continue;
    const [from, to] = parts[0]!;
    let part = from;
    for (let k = from; k <= to; k++) {
      if (k < to && text[k] !== ',') continue;
      const raw = text.slice(part, k);
      const lead = raw.length - raw.trimStart().length;
      if (raw.trim().toLowerCase() === want) out.push({ offset: part + lead, length: raw.trim().length, text: newKey });
      part = k + 1;
    }
  }
  return out;
}

/** Where the `{…}` or `"…"` value opened at `open` closes (its `}` or `"`, outside inner braces); -1 before `end`. */
function valueClose(text: string, open: number, end: number): number {
  const quote = text[open] === '"';
  let depth = 0;
  for (let k = open + 1; k < end; k++) {
    const ch = text[k];
    if (ch === '{') depth++;
    else if (ch === '}') { if (depth === 0) return quote ? -1 : k; depth--; }
    else if (ch === '"' && quote && depth === 0) return k;
  }
  return -1;
}

/**
 * Plans removing entries of a file, with the white space that only separated them: a `.bib` entry
 * alone on its lines goes with its lines (and one blank line after it when one is before it); a
 * CSL-JSON item with the `,` and white space that separate it from the next (or, last, from the
 * one before); a CSL-YAML item of a block list with its lines.
 *
 * @param source - the file's path or name and the exact text the splices will be applied to
 * @param remove - which entries go, asked of each entry as read here
 */
export function planEntryRemoval(source: { path: string; text: string }, remove: (e: BibEntry) => boolean): EditPlan {
  const file = readBibFile(source.path, source.text);
  if (!file || file.error) return { refusal: 'broken' };
  const gone = new Set(file.entries.filter(remove));
  const indexes = file.entries.flatMap((e, i) => (gone.has(e) ? [i] : []));
  if (!indexes.length) return { splices: [] };
  let ranges: [number, number][] | undefined;
  if (file.format === 'bibtex') ranges = bibtexRanges(file, indexes);
  else if (file.format === 'csl-json') ranges = jsonRanges(file, indexes);
  else ranges = yamlRanges(file, indexes);
  if (!ranges) return { refusal: 'shape' };
  const splices = mergeRanges(ranges).map(([a, b]) => ({ offset: a, length: b - a, text: '' }));
  const expected = file.entries.filter((e) => !gone.has(e));
  return verified(file, splices, expected);
}

/** Touching or overlapping ranges as one, in order. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
/** Where the line holding `i` starts. */
function lineStart(text: string, i: number): number {
  let k = i;
  while (k > 0 && text[k - 1] !== '\n' && text[k - 1] !== '\r') k--;
  return k;
}
/** Where the line break that holds `i` (its last character) starts: a CRLF's CR. */
function breakStart(text: string, i: number): number {
  return text[i] === '\n' && text[i - 1] === '\r' ? i - 1 : i;
}
/** After the line break at `i` (CRLF, LF or a lone CR); `i` itself when none is there. */
function afterBreak(text: string, i: number): number {
  if (text[i] === '\r') return text[i + 1] === '\n' ? i + 2 : i + 1;
  return text[i] === '\n' ? i + 1 : i;
}
/** The end of the line that starts at `i`, after its line break; undefined when it holds more than blanks. */
function blankLineEnd(text: string, i: number): number | undefined {
  let k = i;
  while (isBlank(text[k])) k++;
  if (k >= text.length) return k > i ? k : undefined;
  const next = afterBreak(text, k);
  return next > k ? next : undefined;
}

/** `.bib` entries' ranges (see {@link planEntryRemoval}). */
function bibtexRanges(file: BibFile, indexes: readonly number[]): [number, number][] | undefined {
  const { text } = file;
  const out: [number, number][] = [];
  for (const i of indexes) {
    const e = file.entries[i]!;
    if (e.start === undefined || e.end === undefined) return undefined;
    const ls = lineStart(text, e.start);
    let k = e.end;
    while (isBlank(text[k])) k++;
    const eol = afterBreak(text, k);
    const alone = [...text.slice(ls, e.start)].every(isBlank) && (eol > k || k >= text.length);
    if (!alone) { out.push([e.start, e.end]); continue; }
    let a = ls;
    let b = eol > k ? eol : k;
    // One blank line after it goes too when one is before it (or it starts the file): the entries around stay one blank line apart.
    const before = ls === 0 ? undefined : lineStart(text, breakStart(text, ls - 1));
    const blankBefore = before === undefined || blankLineEnd(text, before) !== undefined;
    const after = blankLineEnd(text, b);
    if (blankBefore && after !== undefined) b = after;
    // Last in the file: the blank line before it goes instead.
    else if (before !== undefined && blankBefore && b >= text.length) a = before;
    out.push([a, b]);
  }
  return out;
}

/** The end of the JSON value that starts at `start` (after its last character), by jsonc-parser's scanner; -1 when it does not close. */
function jsonValueEnd(text: string, start: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(start);
  let depth = 0;
  for (;;) {
    const token = scanner.scan();
    // jsonc-parser's SyntaxKind: 1 `{`, 2 `}`, 3 `[`, 4 `]`, 17 end of file.
    if (token === 17) return -1;
    if (token === 1 || token === 3) depth++;
    else if (token === 2 || token === 4) depth--;
    if (depth === 0) return scanner.getTokenOffset() + scanner.getTokenLength();
  }
}

/** CSL-JSON items' ranges: runs of removed items with the separators after them, or (at the end) before them. */
function jsonRanges(file: BibFile, indexes: readonly number[]): [number, number][] | undefined {
  const { text, entries } = file;
  const spans: [number, number][] = [];
  for (const e of entries) {
    if (e.start === undefined || text[e.start] !== '{') return undefined;
    const end = jsonValueEnd(text, e.start);
    if (end < 0) return undefined;
    spans.push([e.start, end]);
  }
  const out: [number, number][] = [];
  const removed = new Set(indexes);
  for (let i = 0; i < entries.length; i++) {
    if (!removed.has(i)) continue;
    let j = i;
    while (removed.has(j + 1)) j++;
    if (j + 1 < entries.length) out.push([spans[i]![0], spans[j + 1]![0]]);
    else if (i > 0) out.push([spans[i - 1]![1], spans[j]![1]]);
    else out.push([spans[i]![0], spans[j]![1]]);
    i = j;
  }
  return out;
}

/** CSL-YAML items' ranges: each item of a block list from its `-` line to the next item's, or (last) through its more-indented lines. */
function yamlRanges(file: BibFile, indexes: readonly number[]): [number, number][] | undefined {
  const { text, entries } = file;
  const dashes: number[] = [];
  for (const e of entries) {
    if (e.start === undefined) return undefined;
    let k = e.start - 1;
    while (k >= 0 && isBlank(text[k])) k--;
    if (text[k] === '\n' || text[k] === '\r') {
      // `-` alone on the line before the item's first key.
      k = breakStart(text, k) - 1;
      while (k >= 0 && isBlank(text[k])) k--;
    }
    if (text[k] !== '-') return undefined;
    const ls = lineStart(text, k);
    if (![...text.slice(ls, k)].every(isBlank)) return undefined;
    dashes.push(k);
  }
  const out: [number, number][] = [];
  for (const i of indexes) {
    const a = lineStart(text, dashes[i]!);
    if (i + 1 < entries.length) { out.push([a, lineStart(text, dashes[i + 1]!)]); continue; }
    // The last item: its lines, and the lines after them indented further than its `-` (blank lines inside it too).
    const indent = dashes[i]! - a;
    let b = a;
    let k = a;
    for (let first = true; k < text.length; first = false) {
      let e = k;
      while (e < text.length && text[e] !== '\n' && text[e] !== '\r') e++;
      const next = afterBreak(text, e);
      const line = text.slice(k, e);
      const lead = line.length - line.trimStart().length;
      if (!first && line.trim() && lead <= indent) break;
      if (line.trim()) b = next > e ? next : e;
      if (next === e) break;
      k = next;
    }
    out.push([a, b]);
  }
  return out;
}
