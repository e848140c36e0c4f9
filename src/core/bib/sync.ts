/**
 * Deciding what a citation adds to a document's bibliography: which keys to cite, which entries
 * to add, and which works the bibliography already holds under another key. Pure; the VS Code
 * layer reads the files and applies the result as `WorkspaceEdit`s.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { toBibtexAll } from '../cite/bibtex.js';
import { toCslJson } from '../cite/format.js';
import type { Entry } from '../schema.js';
import { bibIdentity, eolOf, lineColumnAt, parseBib, planBibAppend, sameWork, type BibEntry, type BibSyntaxError } from './bibfile.js';

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
export interface BibSource {
  path: string;
  format: BibFormat;
  text: string;
  entries: BibEntry[];
  error?: BibSyntaxError;
}

/**
 * Reads a bibliography file's entries in any of the three formats.
 * CSL items become `BibEntry`s with `doi`, `title` and, from `URL` or `number`, an arXiv id.
 */
export function readBibSource(path: string, text: string): BibSource | undefined {
  const format = bibFormatOf(path);
  if (!format) return undefined;
  if (format === 'bibtex') return { path, format, text, ...parseBib(text) };
  try {
    let items: unknown;
    if (format === 'csl-json') items = text.trim() ? JSON.parse(text.replace(/^\uFEFF/, '')) : [];
    else {
      const doc = parseYaml(text) as unknown;
      items = Array.isArray(doc) ? doc : (doc as { references?: unknown } | null)?.references ?? [];
    }
    if (!Array.isArray(items)) throw new Error('expected a list of CSL items');
    const entries: BibEntry[] = items.map((it: Record<string, unknown>) => ({
      key: String(it.id ?? ''),
      type: String(it.type ?? ''),
      fields: {
        title: String(it.title ?? ''),
        ...(it.DOI ? { doi: String(it.DOI) } : {}),
        ...(it.URL ? { url: String(it.URL) } : {}),
        ...(typeof it.number === 'string' && /^arXiv:/i.test(it.number) ? { eprint: it.number.slice(6) } : {}),
      },
    }));
    return { path, format, text, entries };
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const offset = m ? Number(m[1]) : 0;
    return { path, format, text, entries: [], error: { ...lineColumnAt(text, offset), message: (e as Error).message } };
  }
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
 * @param sources - the document's bibliography files that could be read
 */
export function planBibSync(entries: readonly Entry[], sources: readonly BibSource[]): BibSyncPlan {
  const citeAs = new Map<string, string>();
  const add: Entry[] = [];
  const reused: BibSyncPlan['reused'] = [];
  const all = sources.flatMap((s) => s.entries.map((e) => ({ e, path: s.path })));
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

/**
 * Plans appending entries to a bibliography file in its own format, touching nothing else.
 *
 * - BibTeX: the entries' BibTeX after the last line ({@link planBibAppend}).
 * - CSL-JSON: the items inserted before the closing `]`, indented like the file's first item.
 * - CSL YAML: the items appended as list items, indented like the file's first `- ` line.
 *
 * @returns the insertion, or undefined when the file's shape is not one we can append to safely
 */
export function planBibAddition(source: BibSource, entries: readonly Entry[]): { offset: number; text: string } | undefined {
  const { text } = source;
  if (source.format === 'bibtex') return planBibAppend(text, toBibtexAll(entries));
  const eol = eolOf(text);
  if (source.format === 'csl-json') {
    const close = text.lastIndexOf(']');
    if (close < 0) {
      if (text.trim()) return undefined;
      return { offset: text.length, text: JSON.stringify(entries.map(toCslJson), null, 2).replace(/\n/g, eol) + eol };
    }
    const indent = /\[\s*?\n([ \t]*)\{/.exec(text)?.[1] ?? '  ';
    const items = entries.map((e) => JSON.stringify(toCslJson(e), null, 2).replace(/\n/g, eol + indent)).map((s) => indent + s);
    const before = text.slice(0, close).replace(/\s*$/, '');
    const empty = before.endsWith('[');
    const at = before.length;
    return { offset: at, text: `${empty ? '' : ','}${eol}${items.join(`,${eol}`)}${eol}` };
  }
  const indent = /^([ \t]*)- /m.exec(text)?.[1] ?? (/^references:/m.test(text) ? '  ' : '');
  if (!/^[ \t]*- /m.test(text) && text.trim() && !/^references:\s*(\[\])?\s*$/m.test(text)) return undefined;
  const yaml = stringifyYaml(entries.map(toCslJson)).replace(/\n$/, '').split('\n').map((l) => indent + l).join(eol) + eol;
  const lead = text.length && !/\n$/.test(text) ? eol : '';
  return { offset: text.length, text: lead + yaml };
}
