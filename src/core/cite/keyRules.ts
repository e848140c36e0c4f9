/**
 * Which citation keys each place a key is written in can hold as it is, for renaming a key: the new
 * name must read back as the same one key in every citation and entry it is written into.
 *
 * - LaTeX citation commands (`\cite{a,b}`, `\cites{a}{b}`): the key list is read by TeX before any
 *   package sees it, so a key holds none of TeX's special characters (`\ { } % # & $ ^ ~`, the
 *   TeXbook, chapter 7) and no `,` (the list's separator) nor white space (natbib and biblatex
 *   drop it; BibTeX's key ends at it).
 * - A BibTeX entry's key: it runs to the first `,` or white space, and in a `{…}` entry to the first
 *   `}` (`bibtex.web` § 267); biber reads `"`, `(`, `)` and `=` as its syntax too.
 * - A pandoc citation written bare (`@key`, `[@a; @b]`): a letter, digit or `_` first, then those
 *   and internal punctuation `:.#$%&-+?<>~/` followed by one of them (pandoc's User's Guide,
 *   "Citation syntax"; the reader is `markdown/pandocInline.ts`'s `pandocKeyAt`, used here as it is).
 * - A CSL-JSON `id` written inside its quotes as it is: no `"`, `\` or control character (RFC 8259 § 7).
 *   A CSL-YAML `id` depends on how the item writes it, and is read back by the planner
 *   (`bibliography/entryEdits.ts`).
 */
import { pandocKeyAt } from '../markdown/pandoc.js';

/** The places a key may be written in (see the module comment). */
export type KeyPlace = 'latex' | 'bibtex' | 'pandoc' | 'csl-json';

/**
 * Why a key cannot be written somewhere: it is empty; it holds a character that place reads
 * otherwise (`char`, the first one); or, in pandoc, it is not a bare key.
 */
export type KeyRefusal = { kind: 'empty' } | { kind: 'character'; place: KeyPlace; char: string } | { kind: 'pandoc' };

/** White space, control characters, and what TeX, BibTeX and biber read as syntax in a key. */
const NOT_IN_LATEX_KEY = /[\s\u0000-\u001f\u007f\\{}%#&$^~,"()=]/u;
const NOT_IN_JSON_STRING = /["\\\u0000-\u001f]/u;

/**
 * Whether `key` can be written as it is in every place of `places`.
 *
 * @returns undefined when it can; else the first reason it cannot
 */
export function keyRefusal(key: string, places: Iterable<KeyPlace>): KeyRefusal | undefined {
  if (!key) return { kind: 'empty' };
  for (const place of places) {
    const bad = place === 'latex' || place === 'bibtex' ? NOT_IN_LATEX_KEY.exec(key) : place === 'csl-json' ? NOT_IN_JSON_STRING.exec(key) : null;
    if (bad) return { kind: 'character', place, char: bad[0] };
    if (place === 'pandoc' && !isBarePandocKey(key)) return { kind: 'pandoc' };
  }
  return undefined;
}

/** Whether pandoc reads `@` followed by `key` as exactly that key, unbraced (`@*` is no key). */
export function isBarePandocKey(key: string): boolean {
  if (!key || key.startsWith('*')) return false;
  const found = pandocKeyAt(key, 0);
  return !!found && found.keyStart === 0 && found.keyEnd === key.length && found.end === key.length;
}
