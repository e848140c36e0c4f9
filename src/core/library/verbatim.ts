/**
 * What citing a library entry copies: its BibTeX exactly as the library has it, with what BibTeX
 * needs from the same file to read it (the `@string` macros it uses, and the entry its `crossref`
 * names: the BibTeX manual, §4 "Cross references", wants that one in the same file, after it).
 * Nothing is regenerated, so no field, brace or accent of the user's entry changes. What an
 * addition to a `.bib` file writes of it is `bibtexForAddition` (`bibliography/planAdditions.ts`).
 */
import type { Entry, LibraryInfo } from '../corpus/schema.js';
import type { LoadedLibrary } from './loadLibrary.js';

/**
 * The names of the macros a BibTeX text uses: identifiers that start a value or follow `#`,
 * outside braces and quotes (one pass).
 */
export function macroReferences(text: string): Set<string> {
  const out = new Set<string>();
  let depth = 0;
  let quoted = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') { i++; continue; }
    if (quoted) { if (c === '"' && depth === 1) quoted = false; else if (c === '{') depth++; else if (c === '}') depth--; continue; }
    if (c === '{' || c === '(') { depth++; expectValue = false; continue; }
    if (c === '}' || c === ')') { depth--; continue; }
    if (depth !== 1) continue;
    if (c === '"') { quoted = true; expectValue = false; continue; }
    if (c === '=' || c === '#') { expectValue = true; continue; }
    if (c === ',') { expectValue = false; continue; }
    if (expectValue && /[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_:+-]/.test(text[j]!)) j++;
      out.add(text.slice(i, j).toLowerCase());
      i = j - 1;
      expectValue = false;
    } else if (!/\s/.test(c)) expectValue = false;
  }
  return out;
}

/**
 * The library's text for entry `i` of a loaded BibTeX library, with its macros and crossref parent
 * (see the module comment), as {@link LibraryInfo} fields.
 *
 * @param lib - the loaded BibTeX library (its file's entries' offsets and `@string` commands)
 * @param text - the text it was loaded from
 * @param i - the entry's position in `lib.entries`
 */
export function verbatimOf(lib: LoadedLibrary, text: string, i: number): Pick<LibraryInfo, 'bibtex' | 'bibtexMacros' | 'crossref'> {
  const { entries, strings: commands } = lib.file;
  const span = (n: number) => text.slice(entries[n]!.start!, entries[n]!.end!).trimEnd();
  const bibtex = span(i);
  const strings = new Map(commands ?? []);
  const macros: { name: string; text: string }[] = [];
  const seen = new Set<string>();
  const want = (t: string) => {
    for (const name of macroReferences(t)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const at = strings.get(name);
      if (!at) continue; // defined by BibTeX's style or not at all: nothing to copy
      const def = text.slice(at.start, at.end).trimEnd();
      want(def.replace(/^@\s*string\s*[{(]\s*[^=\s]+\s*=/i, '{='));
      macros.push({ name, text: def });
    }
  };
  want(bibtex);
  let crossref: LibraryInfo['crossref'];
  const parentKey = lib.entries[i]?.library && /crossref\s*=\s*[{"]\s*([^}"\s]+)/i.exec(bibtex)?.[1];
  if (parentKey) {
    const parent = parentKey.toLowerCase();
    const p = lib.entries.findIndex((e) => e.key.toLowerCase() === parent);
    if (p >= 0 && p !== i) {
      crossref = { key: lib.entries[p]!.key, bibtex: span(p) };
      want(crossref.bibtex);
    }
  }
  return { bibtex, bibtexMacros: macros, crossref };
}

/**
 * A loaded BibTeX library's entry as citing and output copy it: with its own text, macros and
 * crossref parent ({@link verbatimOf}). (Into a CSL bibliography it goes through `toCslJson`, from
 * the fields read at load: title, names, year, container, volume, issue, pages, publisher, DOI, URL.)
 *
 * @returns a copy of the entry; the entry itself when it is not one of `lib`'s
 */
export function prepareEntry(lib: LoadedLibrary, text: string, e: Entry): Entry {
  if (!e.library) return e;
  const i = lib.entries.indexOf(e);
  if (i < 0 || lib.file.format !== 'bibtex') return e;
  return { ...e, library: { ...e.library, ...verbatimOf(lib, text, i) } };
}
