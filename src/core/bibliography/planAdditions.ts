/**
 * Deciding what a citation adds to a document's bibliography: which keys to cite, which entries
 * to add, and which works the bibliography already holds under another key; and planning the
 * addition, byte for byte, as the one change of a file (`fileEdit.ts`: splices, applied by
 * `applySplices`, read back before they are handed on). Pure; the hosts apply the result.
 */
import { isSeq, stringify as stringifyYaml, type Node as YamlNode } from 'yaml';
import { toBibtexAll } from '../cite/writeBibtex.js';
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { toCslJson } from '../cite/formatCitation.js';
import type { Entry } from '../corpus/schema.js';
import { cslYamlReferences } from './readCslYaml.js';
import { parseYaml } from '../text/yaml.js';
import { eolOf, findBibKey, parseBib, trailingSpaceStart, type BibEntry } from './bibtexFile.js';
import { readBibFile, type BibFile } from './bibFile.js';
import type { EditPlan, Splice } from './fileEdit.js';
import { verified } from './readBack.js';
import { bibEntryIdentity, entryIdentity, SameWorkIndex } from '../corpus/sameWork.js';

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

/**
 * Plans appending entries to a bibliography file in its own format, touching nothing else: the
 * plan is one insertion (a {@link Splice} of length 0), in the file's own line ending, planned on
 * exactly `source.text` (the text it must be applied to; see `editorText` for an open document).
 *
 * - BibTeX: the entries' BibTeX after the last line ({@link planBibAppend}); a library entry's
 *   own text with the macros and crossref parent the file lacks ({@link bibtexForAddition}).
 * - CSL-JSON: the items after the array's last item (or inside an empty array), indented like
 *   the first item; in a minified array, minified.
 * - CSL-YAML: the items at the end of the `references:` list (before any key, comment or `...`
 *   that follows it; after trailing comments when the `yaml` library would not read the file back
 *   otherwise), indented like its items; in a flow list (`references: []`), as flow items;
 *   a file with lone-CR line breaks is not read (see {@link readBibFile}).
 *
 * Every plan is read back ({@link readsBackAs}): the file's entries, each as it read, then the
 * added ones, every entry asked for among them, with no problem but the added text's own.
 *
 * @returns the insertion, or the refusal: `broken` when the file has an error-level problem
 *   (`source.error`); `shape` when it is not a bibliography of its format we can append to (a
 *   YAML mapping without `references:`, JSON that is not a list); `read-back`
 */
export function planBibAddition(source: BibFile, entries: readonly Entry[]): EditPlan {
  if (source.error) return { refusal: 'broken' };
  if (source.format === 'bibtex') {
    const bibtex = entries.some((e) => e.library?.bibtex) ? bibtexForAddition(source.text, entries) : toBibtexAll(entries);
    const splice = planBibAppend(source.text, bibtex);
    // What the added text holds, read alone: its keys (with any crossref parent) and its own problems.
    const added = parseBib(splice.text);
    const keys = new Set(added.entries.map((e) => e.key.toLowerCase()));
    if (!entries.every((e) => keys.has(e.key.toLowerCase()))) return { refusal: 'read-back' };
    return verified(source, [splice], [...source.entries, ...added.entries.map((a) => (e: BibEntry) => e.key === a.key)], added.problems?.length ?? 0);
  }
  const items = readBibFile('added.json', JSON.stringify(entries.map(toCslJson)));
  const expected = [...source.entries, ...entries.map((a) => (e: BibEntry) => e.key === a.key)];
  const check = (splice: Splice | undefined): EditPlan => (splice ? verified(source, [splice], expected, items?.problems?.length ?? 0) : { refusal: 'shape' });
  if (source.format === 'csl-json') return check(planCslJson(source.text, entries));
  const plan = planCslYaml(source.text, entries);
  const first = check(plan);
  if ('splices' in first) return first;
  // The `yaml` library refuses a last line of spaces and a tab after an indented comment that
  // follows a nested list ("Tabs are not allowed as indentation"), so items put before that
  // comment make the file unreadable; after the comment they read.
  const late = planCslYaml(source.text, entries, { pastComments: true });
  return late && late.offset !== plan?.offset ? check(late) : first;
}

/**
 * Plans appending BibTeX entries to a `.bib` file: one insertion at the end, separated from the
 * existing text by one blank line, in the file's own line ending. Nothing before it changes.
 * Linear in the file's length.
 *
 * @param text - the current text of the file (exactly the text the insertion will be applied to)
 * @param bibtex - the entries to add, as BibTeX with LF line endings
 * @returns the insertion (`length` 0, at the end of the text)
 */
export function planBibAppend(text: string, bibtex: string): Splice {
  const eol = eolOf(text);
  const body = bibtex.slice(0, trailingSpaceStart(bibtex)).replace(/\r?\n/g, eol) + eol;
  // An empty file, or one of white space only (a lone BOM too: `\s` matches U+FEFF), gets the entries alone.
  const contentEnd = trailingSpaceStart(text);
  if (contentEnd === 0) return { offset: text.length, length: 0, text: body };
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
  return { offset: text.length, length: 0, text: lead + body };
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

function planCslJson(text: string, entries: readonly Entry[]): Splice | undefined {
  const eol = eolOf(text);
  const items = entries.map(toCslJson);
  const close = trailingSpaceStart(text) - 1;
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  if (close < bom) {
    // An empty file: it becomes a list of the items.
    return { offset: text.length, length: 0, text: JSON.stringify(items, null, 2).replace(/\n/g, eol) + eol };
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
    return { offset: last + 1, length: 0, text: empty ? flat : `,${flat}` };
  }
  const indent = empty ? indentAt(text, last) + '  ' : indentAt(text, firstItem);
  const unit = /\t/.test(indent) ? '\t' : '  ';
  const body = items.map((i) => indent + JSON.stringify(i, null, unit).replace(/\n/g, eol + indent)).join(`,${eol}`);
  if (empty) return { offset: last + 1, length: 0, text: eol + body + (/[\r\n]/.test(gap) ? '' : eol + indentAt(text, last)) };
  return { offset: last + 1, length: 0, text: `,${eol}${body}` };
}

/**
 * @param opts.pastComments - when the list (or `references:`) is followed only by comments and
 *   blank lines, put the items after them, at the end of the text (the fallback of
 *   {@link planBibAddition})
 */
function planCslYaml(text: string, entries: readonly Entry[], opts: { pastComments?: boolean } = {}): Splice | undefined {
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
  const place = (o: number, s: string): Splice => {
    const at = opts.pastComments && onlyCommentsAfter(text, o) ? text.length : o;
    return { offset: at, length: 0, text: atEnd(at, s) };
  };
  const list = refs.list;
  if (list && isSeq(list) && list.flow) {
    // `references: []` or `[{…}]`: new items go into the flow list as JSON, which is flow YAML.
    const closeAt = list.range![1] - 1;
    if (text[closeAt] !== ']') return undefined;
    const flat = items.map((i) => JSON.stringify(i)).join(', ');
    return { offset: closeAt, length: 0, text: list.items.length ? `, ${flat}` : flat };
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
  return { offset: text.length, length: 0, text: atEnd(text.length, `references:${eol}${block('  ')}`) };
}
