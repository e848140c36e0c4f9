/**
 * A bibliography file as the one reader of its format reads it, whoever reads it (a document's
 * bibliography, a library, the CLI, the planners of `planAdditions.ts`, `entryEdits.ts` and
 * `planRewrite.ts`): one {@link BibFile} of entries with their offsets, lines and problems.
 */
import { CslJsonReader, type CslLibraryItem, type CslReader } from './readCslJson.js';
import { CslYamlReader } from './readCslYaml.js';
import { bibFormatOf, type BibFormat } from '../workspace/bibFormat.js';
import { firstError, parseBib, type BibEntry, type BibProblem, type BibSyntaxError } from './bibtexFile.js';
import { cslYear } from '../corpus/sameWork.js';

/** A bibliography file as read: its entries' keys and identities, or why it could not be read. */
export interface BibFile {
  /** The file's path, name or URI (its extension gives the format, as Pandoc's does). */
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
  /** BibTeX, as a library reads it: the macros at the file's end, and where each `@string` command is (UTF-16 offsets). */
  macros?: Readonly<Record<string, string>>;
  strings?: [string, { start: number; end: number }][];
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

/** A CSL item as a bibliography file's entry (with its offset and its key's, where the reader knows them). */
export const cslEntry = ({ item, line, start, keyStart }: CslLibraryItem): BibEntry => ({
  key: String(item.id), type: typeof item.type === 'string' ? item.type : '', fields: cslFields(item), csl: item, line,
  ...(start !== undefined ? { start } : {}), ...(keyStart !== undefined ? { keyStart } : {}),
});

/** A CSL file's reading as a {@link BibFile}: its entries, the reader's problems, the first error. */
function cslBibFile(path: string, format: BibFormat, text: string, entries: BibEntry[], problems: BibProblem[]): BibFile {
  return { path, format, text, entries, problems, ...firstError(problems) };
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
