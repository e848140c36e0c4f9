/**
 * What citing a library entry copies: its BibTeX exactly as the library has it, with what BibTeX
 * needs from the same file to read it (the `@string` macros it uses, and the entry its `crossref`
 * names: the BibTeX manual, §4 "Cross references", wants that one in the same file, after it).
 * Nothing is regenerated, so no field, brace or accent of the user's entry changes.
 */
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import { findBibKey } from '../bib/bibfile.js';
import type { Entry, LibraryInfo } from '../schema.js';
import type { LoadedLibrary } from './load.js';

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
 * @param lib - the loaded library (with `spans`, `strings`)
 * @param text - the text it was loaded from
 * @param i - the entry's position in `lib.entries`
 */
export function verbatimOf(lib: LoadedLibrary, text: string, i: number): Pick<LibraryInfo, 'bibtex' | 'bibtexMacros' | 'crossref'> {
  const span = (n: number) => text.slice(lib.spans![2 * n]!, lib.spans![2 * n + 1]!).trimEnd();
  const bibtex = span(i);
  const strings = new Map(lib.strings ?? []);
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

/** Whether a `.bib` text defines a macro (ignoring case, as BibTeX does). */
function definesMacro(text: string, name: string): boolean {
  const re = new RegExp(`@\\s*string\\s*[{(]\\s*${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\\s*=`, 'i');
  return re.test(text);
}

/**
 * The BibTeX to append for entries, given the text of the file it goes into: each entry's own
 * text when it comes from a library (else `generate(entry)`), preceded by the library macros the
 * file does not define yet and followed by crossref parents the file and the list lack.
 * Standard macros (month names, the journal macros of BibTeX's styles) are never copied.
 *
 * @param target - the `.bib` file's current text
 * @param entries - the entries to add, in order
 * @param generate - BibTeX for an entry that has no text of its own (a corpus entry)
 */
export function bibtexForAddition(target: string, entries: readonly Entry[], generate: (e: Entry) => string): string {
  const macros: string[] = [];
  const bodies: string[] = [];
  const parents: string[] = [];
  const named = new Set<string>();
  const keys = new Set(entries.map((e) => e.key.toLowerCase()));
  for (const e of entries) {
    const lib = e.library;
    if (!lib?.bibtex) { bodies.push(generate(e).trimEnd()); continue; }
    for (const m of lib.bibtexMacros ?? []) {
      if (named.has(m.name) || m.name in defaultStrings || definesMacro(target, m.name)) continue;
      named.add(m.name);
      macros.push(m.text);
    }
    bodies.push(lib.bibtex.trimEnd());
    const parent = lib.crossref;
    if (parent && !keys.has(parent.key.toLowerCase()) && findBibKey(target, parent.key) < 0) {
      keys.add(parent.key.toLowerCase());
      parents.push(parent.bibtex.trimEnd());
    }
  }
  return [...macros, ...bodies, ...parents].map((t) => `${t}\n`).join('\n');
}
