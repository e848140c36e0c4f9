/**
 * A BibTeX library the store has loaded, as `parseBib` would give the same text (the same one
 * reader): what the store publishes into the citation service's bibliography cache and answers on
 * its miss (`LibraryStore.readingOf`), so that a file that is both a library and a document's
 * bibliography is parsed once.
 */
import type { BibEntry, ParsedBib } from '../core/bibliography/bibtexFile.js';
import { readEntryAt } from '../core/bibliography/readBibtex.js';
import type { LoadedLibrary } from '../core/library/loadLibrary.js';
import type { Entry } from '../core/corpus/schema.js';

/**
 * A library entry as `parseBib` gives it: key, entry type and fields (names in lower case, macros
 * expanded), the fields read from the entry's text when first asked for.
 */
function bibEntryAt(e: Entry, text: string, start: number, end: number, macros: Readonly<Record<string, string>>): BibEntry {
  let fields: Record<string, string> | undefined;
  return {
    key: e.key,
    type: (e.library?.sourceType ?? e.type).toLowerCase(),
    start,
    line: e.library?.line,
    get fields() {
      fields ??= Object.fromEntries(Object.entries(readEntryAt(text, start, end, macros)?.properties ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      return fields;
    },
  };
}

/**
 * A loaded BibTeX library as `parseBib` gives its text: the entries that read, the problems, the
 * first error; each entry's `fields` are read from the text when first asked for.
 *
 * @param lib - a BibTeX library (with `spans`) loaded from `text`
 * @returns undefined for a library with an error: `parseBib` keeps the key of an entry broken
 *   after its key (BibTeX does), which a library leaves out, so the file is parsed as a document's
 *   bibliography instead (broken files are few; the others are still parsed once)
 */
export function parsedBibOf(lib: LoadedLibrary, text: string): ParsedBib | undefined {
  const spans = lib.spans!;
  const macros = lib.macros ?? {};
  const first = lib.problems.find((p) => p.severity === 'error');
  if (first) return undefined;
  return {
    entries: lib.entries.map((e, i) => bibEntryAt(e, text, spans[2 * i]!, spans[2 * i + 1]!, macros)),
    problems: lib.problems,
  };
}
