/**
 * The one read-back of every plan of a bibliography file (`fileEdit.ts`), with the format's one
 * reader (`bibFile.ts`'s `readBibFile`): the result must read as the same entries with only the
 * change asked for, and no new problem, or there is no plan.
 */
import { readBibFile, type BibFile } from './bibFile.js';
import type { BibEntry } from './bibtexFile.js';
import { applySplices, type EditPlan, type Splice } from './fileEdit.js';

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
