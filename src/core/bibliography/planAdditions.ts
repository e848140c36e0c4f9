/**
 * Deciding what a citation adds to a document's bibliography: which keys to cite, which entries
 * to add, and which works the bibliography already holds under another key. Pure; the VS Code
 * layer reads the files and applies the result as `WorkspaceEdit`s.
 */
import { isSeq, stringify as stringifyYaml, type Node as YamlNode } from 'yaml';
import { toBibtexAll } from '../cite/writeBibtex.js';
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { toCslJson } from '../cite/formatCitation.js';
import type { Entry } from '../corpus/schema.js';
import { CslJsonReader, type CslLibraryItem, type CslReader } from './readCslJson.js';
import { CslYamlReader, cslYamlReferences } from './readCslYaml.js';
import { parseYaml } from '../text/yaml.js';
import { bibFormatOf, type BibFormat } from '../workspace/bibFormat.js';
import { eolOf, findBibKey, parseBib, planBibAppend, trailingSpaceStart, type BibEntry, type BibProblem, type BibSyntaxError } from './bibtexFile.js';
import { bibEntryIdentity, cslYear, entryIdentity, SameWorkIndex } from '../corpus/sameWork.js';

/** Whether a `.bib` text defines a macro (ignoring case, as BibTeX does). */
function definesMacro(text: string, name: string): boolean {
  const re = new RegExp(`@\\s*string\\s*[{(]\\s*${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\\s*=`, 'i');
  return re.test(text);
}

/**
 * The BibTeX to append for entries to a `.bib` file ({@link toBibtexAll}): the library macros the
 * file does not define yet (BibTeX's and Citation.js's standard ones, month names and the journal
 * macros of BibTeX's styles, never), and the crossref parents it lacks.
 *
 * @param target - the `.bib` file's current text
 */
export function bibtexForAddition(target: string, entries: readonly Entry[]): string {
  return toBibtexAll(entries, { macro: (name) => name in defaultStrings || definesMacro(target, name), key: (key) => findBibKey(target, key) >= 0 });
}

/** A bibliography file as read: its entries' keys and identities, or why it could not be read. */
export interface BibFile {
  path: string;
  format: BibFormat;
  text: string;
  /** The entries that read, in file order, each with its offset and line. */
  entries: BibEntry[];
  /**
   * The first error-level problem: an entry or item that is skipped (the others are in
   * `entries`), or a file that cannot be read at all; nothing is written to the file.
   */
  error?: BibSyntaxError;
  /** Every problem the reader found, in file order. */
  problems?: BibProblem[];
  /** BibTeX: keys of entries commented out with `%`, which BibTeX reads and biber does not (`ParsedBib.commented`). */
  commented?: string[];
}

/**
 * Reads a bibliography file's entries in any of the three formats, with the one reader of each
 * format: BibTeX with `parseBib`, CSL-JSON and CSL-YAML with the library readers
 * (`bibliography/readCslJson.ts`, `bibliography/readCslYaml.ts`: tolerant, a CSL-YAML list split and parsed a few dozen
 * items at a time), so a document's bibliography and a library read alike. Never throws: a broken
 * entry or item is a problem at its line, the others read, and the first error is `error`.
 *
 * @param path - the file's path or name (its extension gives the format, as Pandoc's does)
 * @param text - the file's text
 * @returns undefined when the extension is not a bibliography format's
 */
export function readBibFile(path: string, text: string): BibFile | undefined {
  const format = bibFormatOf(path);
  if (!format) return undefined;
  if (format === 'bibtex') return { path, format, text, ...parseBib(text) };
  const reader = cslReader(format, text);
  reader.read();
  return cslBibFile(path, format, text, reader.items.map(cslEntry), reader.problems);
}

/**
 * {@link readBibFile} in slices, for the language server: a CSL-JSON or CSL-YAML file is read by
 * the same reader a slice at a time (counted work, no clock: one batch of the YAML parser, at most
 * a few dozen items or twice `YAML_BATCH_CHARS`; 16 JSON elements; a 64 KB step of either scan),
 * and `pause()` is awaited between slices so that other requests run (a 50,000-item CSL-YAML file
 * read at once held the server for 43 s). BibTeX is read at once here: the language server's
 * library store reads a large `.bib` in slices and the bibliography cache takes its reading.
 *
 * @param pause - lets other work run (the server's `yield`, a macrotask)
 * @returns what {@link readBibFile} returns for the same text
 */
export async function readBibFileSliced(path: string, text: string, pause: () => Promise<void>): Promise<BibFile | undefined> {
  const format = bibFormatOf(path);
  if (format !== 'csl-json' && format !== 'csl-yaml') return readBibFile(path, text);
  const reader = cslReader(format, text);
  // Each slice's items converted as they come: no step converts the whole file.
  const entries: BibEntry[] = [];
  for (;;) {
    const done = reader.read(() => true);
    entries.push(...reader.items.map(cslEntry));
    reader.items.length = 0;
    if (done) break;
    await pause();
  }
  return cslBibFile(path, format, text, entries, reader.problems);
}

const cslReader = (format: 'csl-json' | 'csl-yaml', text: string): CslReader => (format === 'csl-json' ? new CslJsonReader(text) : new CslYamlReader(text));

/** A CSL item as a bibliography file's entry. */
const cslEntry = ({ item, line, start, keyStart }: CslLibraryItem): BibEntry => ({
  key: String(item.id), type: typeof item.type === 'string' ? item.type : '', fields: cslFields(item), csl: item, line,
  ...(start !== undefined ? { start } : {}), ...(keyStart !== undefined ? { keyStart } : {}),
});

/** A CSL file's reading as a {@link BibFile}: its entries, the reader's problems, the first error. */
function cslBibFile(path: string, format: BibFormat, text: string, entries: BibEntry[], problems: BibProblem[]): BibFile {
  const first = problems.find((p) => p.severity === 'error');
  return { path, format, text, entries, problems, ...(first ? { error: { line: first.line, column: first.column, message: first.message } } : {}) };
}

/** A CSL variable as text (strings and numbers). */
const cslString = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * What cards and completion show of a CSL item, as `.bib` fields: `title`, `author` (CSL names as
 * a BibTeX name list, `Family, Given and …`), `year` (of `issued`), `journal` (`container-title`),
 * `doi`, `url`.
 */
function cslFields(item: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, v: string | undefined) => { if (v) out[name] = v; };
  put('title', cslString(item.title));
  if (Array.isArray(item.author)) {
    const names = item.author.map((n: unknown) => {
      const p = (n && typeof n === 'object' ? n : {}) as Record<string, unknown>;
      const family = cslString(p.family);
      return family ? [family, cslString(p.given)].filter(Boolean).join(', ') : cslString(p.literal) ?? '';
    }).filter(Boolean);
    put('author', names.join(' and '));
  }
  const year = cslYear(item);
  put('year', year === undefined ? undefined : String(year));
  put('journal', cslString(item['container-title']));
  put('doi', cslString(item.DOI));
  put('url', cslString(item.URL));
  return out;
}

/** The outcome of {@link planBibSync}. */
export interface BibSyncPlan {
  /** For each requested entry's key, the key to cite (the bibliography's own key for a work it already has). */
  citeAs: Map<string, string>;
  /** Entries to add to the target bibliography. */
  add: Entry[];
  /** Works the bibliography already has under another key. */
  reused: { entry: Entry; key: string; path: string }[];
}

/**
 * Decides, for each entry, whether the bibliographies already have it (same key, ignoring case),
 * have the same work under another key (`sameWork.ts`'s rule: same DOI, arXiv id, or normalised
 * title with no different year or identifier; the first file's, in file order), or need it added.
 *
 * @param entries - the entries being cited
 * @param files - the document's bibliography files that could be read
 */
export function planBibSync(entries: readonly Entry[], files: readonly BibFile[]): BibSyncPlan {
  const citeAs = new Map<string, string>();
  const add: Entry[] = [];
  const reused: BibSyncPlan['reused'] = [];
  const keys = new Set<string>();
  const works = new SameWorkIndex<{ e: BibEntry; path: string }>();
  for (const s of files) {
    for (const e of s.entries) {
      keys.add(e.key.toLowerCase());
      works.add(bibEntryIdentity(e), { e, path: s.path });
    }
  }
  for (const entry of entries) {
    if (keys.has(entry.key.toLowerCase())) {
      citeAs.set(entry.key, entry.key);
      continue;
    }
    const same = works.find(entryIdentity(entry));
    if (same) {
      citeAs.set(entry.key, same.e.key);
      reused.push({ entry, key: same.e.key, path: same.path });
      continue;
    }
    citeAs.set(entry.key, entry.key);
    add.push(entry);
  }
  return { citeAs, add, reused };
}

/** An insertion into a file's text: `text` goes in at `offset` (UTF-16 code units); nothing else changes. */
export interface BibInsertion {
  offset: number;
  text: string;
}

/**
 * Plans appending entries to a bibliography file in its own format, touching nothing else: the
 * plan is one insertion, in the file's own line ending, planned on exactly `source.text` (the
 * text it must be applied to; see `editorText` for an open document).
 *
 * - BibTeX: the entries' BibTeX after the last line ({@link planBibAppend}).
 * - CSL-JSON: the items after the array's last item (or inside an empty array), indented like
 *   the first item; in a minified array, minified.
 * - CSL-YAML: the items at the end of the `references:` list (before any key, comment or `...`
 *   that follows it; after trailing comments when the `yaml` library would not read the file back
 *   otherwise), indented like its items; in a flow list (`references: []`), as flow items;
 *   a file with lone-CR line breaks is not read (see {@link readBibFile}).
 *
 * Every plan for CSL is checked by reading the result back: it must hold the old items and then
 * the new ones. A file whose shape we cannot append to safely gets no plan.
 *
 * @returns the insertion, or undefined when the file cannot be read (`source.error`), is not a
 *   bibliography of its format (a YAML mapping without `references:`, JSON that is not a list),
 *   or the result would not read back as old + new
 */
export function planBibAddition(source: BibFile, entries: readonly Entry[]): BibInsertion | undefined {
  if (source.error) return undefined;
  if (source.format === 'bibtex') {
    if (!entries.some((e) => e.library?.bibtex)) return planBibAppend(source.text, toBibtexAll(entries));
    // A library entry's own text (with its macros and crossref parent): it must read back, with every key.
    const plan = planBibAppend(source.text, bibtexForAddition(source.text, entries));
    const back = parseBib(source.text.slice(0, plan.offset) + plan.text);
    const keys = new Set(back.entries.map((e) => e.key.toLowerCase()));
    return !back.error && entries.every((e) => keys.has(e.key.toLowerCase())) ? plan : undefined;
  }
  const readsBack = (plan: BibInsertion): boolean => {
    const after = source.text.slice(0, plan.offset) + plan.text + source.text.slice(plan.offset);
    const back = readBibFile(source.path, after);
    const want = [...source.entries.map((e) => e.key), ...entries.map((e) => e.key)];
    return !!back && !back.error && back.entries.length === want.length && back.entries.every((e, i) => e.key === want[i]);
  };
  if (source.format === 'csl-json') {
    const plan = planCslJson(source.text, entries);
    return plan && readsBack(plan) ? plan : undefined;
  }
  const plan = planCslYaml(source.text, entries);
  if (plan && readsBack(plan)) return plan;
  // The `yaml` library refuses a last line of spaces and a tab after an indented comment that
  // follows a nested list ("Tabs are not allowed as indentation"), so items put before that
  // comment make the file unreadable; after the comment they read.
  const late = planCslYaml(source.text, entries, { pastComments: true });
  return late && late.offset !== plan?.offset && readsBack(late) ? late : undefined;
}

/** Whether only comment lines, blank lines and white space follow `offset` in a YAML text. */
function onlyCommentsAfter(text: string, offset: number): boolean {
  let i = offset;
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '#') while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    if (i < text.length && text[i] !== '\n' && text[i] !== '\r') return false;
    i++;
  }
  return true;
}

/** The indentation of the line that holds `offset`, as written. */
function indentAt(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function planCslJson(text: string, entries: readonly Entry[]): BibInsertion | undefined {
  const eol = eolOf(text);
  const items = entries.map(toCslJson);
  const close = trailingSpaceStart(text) - 1;
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  if (close < bom) {
    // An empty file: it becomes a list of the items.
    return { offset: text.length, text: JSON.stringify(items, null, 2).replace(/\n/g, eol) + eol };
  }
  if (text[close] !== ']') return undefined;
  const last = trailingSpaceStart(text.slice(0, close)) - 1;
  const empty = text[last] === '[';
  // The first item's indentation, or none when the list is written on one line.
  const open = text.indexOf('[', bom);
  const firstItem = empty ? -1 : open + 1 + (/^\s*/.exec(text.slice(open + 1, open + 200))![0].length);
  const gap = empty ? text.slice(last + 1, close) : text.slice(open + 1, firstItem);
  const multiline = empty ? true : /[\r\n]/.test(gap);
  if (!multiline) {
    const flat = items.map((i) => JSON.stringify(i)).join(',');
    return { offset: last + 1, text: empty ? flat : `,${flat}` };
  }
  const indent = empty ? indentAt(text, last) + '  ' : indentAt(text, firstItem);
  const unit = /\t/.test(indent) ? '\t' : '  ';
  const body = items.map((i) => indent + JSON.stringify(i, null, unit).replace(/\n/g, eol + indent)).join(`,${eol}`);
  if (empty) return { offset: last + 1, text: eol + body + (/[\r\n]/.test(gap) ? '' : eol + indentAt(text, last)) };
  return { offset: last + 1, text: `,${eol}${body}` };
}

/**
 * @param opts.pastComments - when the list (or `references:`) is followed only by comments and
 *   blank lines, put the items after them, at the end of the text (the fallback of
 *   {@link planBibAddition})
 */
function planCslYaml(text: string, entries: readonly Entry[], opts: { pastComments?: boolean } = {}): BibInsertion | undefined {
  const eol = eolOf(text);
  const parsed = parseYaml(text);
  if (!parsed.doc) return undefined;
  const refs = cslYamlReferences(parsed.doc);
  if (refs.error) return undefined;
  const items = entries.map(toCslJson);
  const block = (indent: string) =>
    stringifyYaml(items).replace(/\n$/, '').split('\n').map((l) => (l ? indent + l : l)).join(eol) + eol;
  const lineEnd = (o: number) => {
    let i = o;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    if (text[i] === '\r' && text[i + 1] === '\n') return i + 2;
    return i < text.length ? i + 1 : i;
  };
  const atEnd = (o: number, s: string) => (o === text.length && o > 0 && !/[\r\n]$/.test(text) ? eol + s : s);
  const place = (o: number, s: string): BibInsertion => {
    const at = opts.pastComments && onlyCommentsAfter(text, o) ? text.length : o;
    return { offset: at, text: atEnd(at, s) };
  };
  const list = refs.list;
  if (list && isSeq(list) && list.flow) {
    // `references: []` or `[{…}]`: new items go into the flow list as JSON, which is flow YAML.
    const closeAt = list.range![1] - 1;
    if (text[closeAt] !== ']') return undefined;
    const flat = items.map((i) => JSON.stringify(i)).join(', ');
    return { offset: closeAt, text: list.items.length ? `, ${flat}` : flat };
  }
  if (list && isSeq(list) && list.items.length) {
    // After the line that ends the list's last item: before a following key, comment or `...`.
    const dash = text.lastIndexOf('-', (list.items[0] as YamlNode).range![0]);
    return place(lineEnd(Math.max(list.range![1] - 1, 0)), block(indentAt(text, dash)));
  }
  if (refs.pairKey) {
    // `references:` with no value yet: the list goes on the lines after it.
    return place(lineEnd(refs.pairKey.range![1]), block(indentAt(text, refs.pairKey.range![0]) + '  '));
  }
  if (list) return undefined;
  // An empty file (or only comments): it becomes a CSL-YAML bibliography.
  if (/^\.\.\.[ \t]*$/m.test(text)) return undefined;
  return { offset: text.length, text: atEnd(text.length, `references:${eol}${block('  ')}`) };
}
