/**
 * Deciding what a citation adds to a document's bibliography: which keys to cite, which entries
 * to add, and which works the bibliography already holds under another key. Pure; the VS Code
 * layer reads the files and applies the result as `WorkspaceEdit`s.
 */
import { isMap, isScalar, isSeq, stringify as stringifyYaml, type Document, type Node as YamlNode } from 'yaml';
import { toBibtexAll } from '../cite/bibtex.js';
import { bibtexForAddition } from '../library/verbatim.js';
import { toCslJson } from '../cite/format.js';
import type { Entry } from '../schema.js';
import { parseJson } from '../json.js';
import { parseYaml } from '../yaml.js';
import {
  bibIdentity, eolOf, lineColumnAt, parseBib, planBibAppend, sameWork, trailingSpaceStart, type BibEntry, type BibProblem, type BibSyntaxError,
} from './bibfile.js';

/** Bibliography formats Pandoc reads and we can append to. */
export type BibFormat = 'bibtex' | 'csl-json' | 'csl-yaml';

/** The format of a bibliography file, from its extension (Pandoc's rule). */
export function bibFormatOf(path: string): BibFormat | undefined {
  if (/\.(bib|bibtex)$/i.test(path)) return 'bibtex';
  if (/\.json$/i.test(path)) return 'csl-json';
  if (/\.ya?ml$/i.test(path)) return 'csl-yaml';
  return undefined;
}

/** A bibliography file as read: its entries' keys and identities, or why it could not be read. */
export interface BibFile {
  path: string;
  format: BibFormat;
  text: string;
  entries: BibEntry[];
  /** The first error-level problem: for BibTeX, an entry that is skipped (the others are in `entries`); nothing is written to the file. */
  error?: BibSyntaxError;
  /** BibTeX: every problem the reader found, in file order. */
  problems?: BibProblem[];
}

/**
 * Where the CSL items of a CSL-YAML bibliography are: Pandoc's `references:` list (Pandoc's User's
 * Guide, "Citations": a YAML bibliography is a mapping whose `references` field holds CSL items),
 * or a top-level list of items. Anything else is not a CSL-YAML bibliography.
 */
export function cslYamlReferences(doc: Document.Parsed): { list?: YamlNode; pairKey?: YamlNode; error?: string } {
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return {};
  if (isSeq(root)) return { list: root };
  if (!isMap(root)) return { error: 'not a CSL-YAML bibliography (expected "references:" with a list of CSL items)' };
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'references');
  if (!pair) return { error: 'not a CSL-YAML bibliography: it has no "references:" field' };
  const value = pair.value as YamlNode | null;
  if (value === null || (isScalar(value) && value.value === null)) return { pairKey: pair.key as YamlNode };
  if (!isSeq(value)) return { error: '"references:" must be a list of CSL items' };
  return { list: value, pairKey: pair.key as YamlNode };
}

/**
 * Reads a bibliography file's entries in any of the three formats. Never throws: a file that
 * cannot be read carries an `error` with its position.
 * CSL items become `BibEntry`s with `doi`, `title` and, from `URL` or `number`, an arXiv id.
 *
 * @param path - the file's path or name (its extension gives the format, as Pandoc's does)
 * @param text - the file's text
 * @returns undefined when the extension is not a bibliography format's
 */
export function readBibFile(path: string, text: string): BibFile | undefined {
  const format = bibFormatOf(path);
  if (!format) return undefined;
  if (format === 'bibtex') return { path, format, text, ...parseBib(text) };
  const fail = (offset: number, message: string): BibFile =>
    ({ path, format, text, entries: [], error: { ...lineColumnAt(text, offset), message } });
  let items: unknown;
  if (format === 'csl-json') {
    if (!text.replace(/^\uFEFF/, '').trim()) items = [];
    else {
      // The error's place from a parser (`core/json.ts`), not from the engine's message text.
      const parsed = parseJson(text);
      if (parsed.error) return fail(parsed.error.offset, `not JSON: ${parsed.error.message}`);
      items = parsed.value;
    }
  } else {
    // YAML 1.2 counts a lone CR as a line break, but the `yaml` library reads it as part of the
    // line, so such a file would be misread (and written into wrongly): it is reported instead.
    const loneCr = /\r(?!\n)/.exec(text);
    if (loneCr) return fail(loneCr.index, 'a line ends with a lone CR (classic Mac OS line endings), which we cannot read as YAML; save the file with LF or CRLF line endings');
    const parsed = parseYaml(text);
    const bad = parsed.problems.find((p) => p.severity === 'error');
    if (bad || !parsed.doc) return fail(bad?.offset ?? 0, bad ? `YAML: ${bad.message}` : 'YAML: cannot be read');
    const refs = cslYamlReferences(parsed.doc);
    if (refs.error) return fail(0, refs.error);
    if (isSeq(parsed.doc.contents)) items = parsed.value;
    else items = refs.list ? (parsed.value as { references: unknown }).references : [];
  }
  if (!Array.isArray(items)) return fail(0, 'expected a list of CSL items');
  const entries: BibEntry[] = [];
  for (const it of items as unknown[]) {
    if (!it || typeof it !== 'object' || Array.isArray(it)) return fail(0, 'expected a list of CSL items (each a mapping with an "id")');
    const item = it as Record<string, unknown>;
    entries.push({
      key: String(item.id ?? ''),
      type: String(item.type ?? ''),
      fields: {
        title: String(item.title ?? ''),
        ...(item.DOI ? { doi: String(item.DOI) } : {}),
        ...(item.URL ? { url: String(item.URL) } : {}),
        ...(typeof item.number === 'string' && /^arXiv:/i.test(item.number) ? { eprint: item.number.slice(6) } : {}),
      },
    });
  }
  return { path, format, text, entries };
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
 * have the same work under another key (same DOI, arXiv id or normalised title), or need it added.
 *
 * @param entries - the entries being cited
 * @param files - the document's bibliography files that could be read
 */
export function planBibSync(entries: readonly Entry[], files: readonly BibFile[]): BibSyncPlan {
  const citeAs = new Map<string, string>();
  const add: Entry[] = [];
  const reused: BibSyncPlan['reused'] = [];
  const all = files.flatMap((s) => s.entries.map((e) => ({ e, path: s.path })));
  for (const entry of entries) {
    if (all.some(({ e }) => e.key.toLowerCase() === entry.key.toLowerCase())) {
      citeAs.set(entry.key, entry.key);
      continue;
    }
    const id = { doi: entry.doi, arxiv: entry.arxiv, title: entry.title };
    const same = all.find(({ e }) => sameWork(id, bibIdentity(e)));
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
