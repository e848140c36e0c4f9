/**
 * The one change of a user's bibliography file, whichever planner makes it: an addition of entries
 * (`planAdditions.ts`), a key renamed or entries removed (`entryEdits.ts`), an entry rewritten
 * in place (`planRewrite.ts`). A plan is a list of {@link Splice}s on the exact text it is applied
 * to, applied by {@link applySplices} alone (by the CLI on disk, by the service as one workspace
 * edit), or a {@link EditRefusal} code that each host renders in its own language. Every byte
 * outside the splices is kept, by construction; and before a plan is handed on, the result is read
 * back with the format's one reader (`readBack.ts`'s `readsBackAs`): it must read as the same
 * entries with only the change asked for, or there is no plan. A leaf: the extension applies
 * splices without bundling a reader.
 */

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
 *   (`readBack.ts`).
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
