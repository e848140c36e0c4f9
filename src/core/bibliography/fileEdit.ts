/**
 * The one change of a user's bibliography file, whichever planner makes it: an addition of entries
 * (`planAdditions.ts`), a key renamed or entries removed (`entryEdits.ts`), an entry rewritten
 * in place (`planRewrite.ts`). A plan is a list of {@link Splice}s on the exact text it is applied
 * to, applied by {@link applySplices} alone (by the CLI on disk, by the service as one workspace
 * edit), or a {@link EditRefusal} code that each host renders in its own language. Every byte
 * outside the splices is kept, by construction; and before a plan is handed on, the result is read
 * back with the format's one reader ({@link readsBackAs}): it must read as the same entries with
 * only the change asked for, or there is no plan.
 */
import { readBibFile, type BibFile } from './bibFile.js';
import type { BibEntry } from './bibtexFile.js';

/**
 * One change of a text: the UTF-16 code units `[offset, offset + length)` are replaced with
 * `text`. An insertion has `length` 0, a deletion `text` ''.
 */
export interface Splice {
  offset: number;
  length: number;
  text: string;
}

/**
 * Why a planner gives no plan; nothing is written for any of them. A code, never a sentence: the
 * host says it in its language.
 *
 * - `broken`: the file has an error-level problem where the edit would go (an addition or a key
 *   rename or removal: anywhere in the file), or the file is not in a format we write;
 * - `unplaced`: the reader did not place the key or the entry, or placed it where its text differs
 *   (an escaped id, an entry whose extent is unknown);
 * - `shape`: the file or the entry is not in a shape the planner can cut or write into (a
 *   flow-style YAML list to remove from, a YAML mapping without `references:`, JSON that is not a
 *   list, a `.bib` entry whose fields the planner cannot lay out, a field to fix that is not there);
 * - `overlap`: two of the entries to rewrite at once overlap;
 * - `read-back`: the result did not read back as the same entries with only the change asked for
 *   ({@link readsBackAs}).
 */
export type EditRefusal = 'broken' | 'unplaced' | 'shape' | 'overlap' | 'read-back';

/** A plan, or why there is none. `splices` are not overlapping, in file order; empty when there is nothing to change. */
export type EditPlan = { splices: Splice[] } | { refusal: EditRefusal };

/**
 * Applies splices to a text: the one apply of every plan.
 *
 * @param text - exactly the text the splices were planned on
 * @param splices - not overlapping (two insertions may share an offset: they go in the order
 *   given), in any order
 * @returns the text with each splice's range replaced by its text; every other code unit kept
 * @throws RangeError when two splices overlap or one lies outside the text (a planner's defect)
 */
export function applySplices(text: string, splices: readonly Splice[]): string {
  let out = '';
  let at = 0;
  for (const s of [...splices].sort((a, b) => a.offset - b.offset)) {
    if (s.offset < at || s.length < 0 || s.offset + s.length > text.length) throw new RangeError(`splice ${s.offset}+${s.length} overlaps another or lies outside a text of ${text.length}`);
    out += text.slice(at, s.offset) + s.text;
    at = s.offset + s.length;
  }
  return out + text.slice(at);
}

/**
 * What one entry of an edited file must read back as: an entry (the same key and entry type, and
 * the same `.bib` fields or CSL item), or, for a new or rewritten entry, a test of the entry read.
 */
export type ExpectedEntry = BibEntry | ((read: BibEntry) => boolean);

/** A flat record's members, whatever their order. */
function sameMembers(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/**
 * Whether two entries of a file of this format read alike: the same key and entry type, and the
 * same `.bib` fields (values as read, macros expanded; in any order) or the same CSL item.
 */
export function sameEntry(format: BibFile['format'], a: BibEntry, b: BibEntry): boolean {
  if (a.key !== b.key || a.type !== b.type) return false;
  return format === 'bibtex' ? sameMembers(a.fields, b.fields) : JSON.stringify(a.csl) === JSON.stringify(b.csl);
}

/**
 * The one read-back of every plan: whether `file`'s text with the splices applied reads, with the
 * format's one reader ({@link readBibFile}), as exactly the entries `expected`, in order, with no
 * error-level problem where `file` had none, and no more problems of any severity (a field
 * repeated, an undefined macro, an entry skipped) than `file` had and the added text brings.
 *
 * @param file - the file as read, on exactly the text the splices are applied to
 * @param expected - each entry of the result, in file order ({@link ExpectedEntry})
 * @param added - the problems the text an addition writes has of its own (a library entry's text
 *   as the user wrote it), which the result may hold too; 0 for every other edit
 */
export function readsBackAs(file: BibFile, splices: readonly Splice[], expected: readonly ExpectedEntry[], added = 0): boolean {
  const back = readBibFile(file.path, applySplices(file.text, splices));
  if (!back || back.entries.length !== expected.length) return false;
  if ((back.problems?.length ?? 0) > (file.problems?.length ?? 0) + added) return false;
  if (back.problems?.some((p) => p.severity === 'error') && !file.problems?.some((p) => p.severity === 'error')) return false;
  return back.entries.every((e, i) => {
    const want = expected[i]!;
    return typeof want === 'function' ? want(e) : sameEntry(file.format, e, want);
  });
}

/** A plan of these splices when the result reads back as `expected` ({@link readsBackAs}), else the refusal `read-back`. */
export function verified(file: BibFile, splices: Splice[], expected: readonly ExpectedEntry[], added = 0): EditPlan {
  return readsBackAs(file, splices, expected, added) ? { splices } : { refusal: 'read-back' };
}
