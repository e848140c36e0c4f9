/**
 * Search over one library file's entries, built to stay fast and small at 100,000 entries.
 *
 * The text rules are the corpus search's (`core/search/analysis.ts`, `scoring.ts`): its tokenizer,
 * folding and Porter stems, abbreviations and field boosts, and BM25+ with the parameters and match weights the corpus
 * search hands MiniSearch (`core/search/scoring.ts`; the hits of all words, each scored in every
 * field, summed, times the number of words), so that the same entry scores the same in either
 * (`test/unit/ranking.test.ts`). The index is our own, of typed arrays: MiniSearch keeps a `Map` per
 * term and field and builds an object per hit, which at 100,000 entries took 275 MB and 40–100 ms
 * on a keystroke whose word is common.
 *
 * What keeps a keystroke's work from growing with the library:
 * - only the word being typed (the last) is matched as a prefix, and only from two characters on
 *   (`CJK` bigrams) or three (other words); a one- or two-letter word being typed is looked up in a
 *   table built with the index (each such prefix → the newest 200 entries that have a word
 *   starting with it), or, after other words, checked on their hits only;
 * - a prefix expands to at most {@link MAX_EXPANSIONS} of the index's words (those in most entries);
 * - a query of one word reads, of each word it expands to that is in more than {@link TOP_LIST}
 *   entries, only those entries where it scores highest (kept per word when the index is built),
 *   unless that leaves fewer hits than asked for (filters, entries to skip);
 * - words of several-word queries are read from the rarest: the others are looked up in its hits
 *   (by binary search) when that is cheaper than reading them;
 * - filters (`author:`, `venue:`, `year:`) test what was folded once, at build time, and only on
 *   the candidates the words give (a venue once per distinct venue); a query of filters alone
 *   lists entries in file order until the limit, from those `indexOf` finds in the authors' folded
 *   strings (kept a thousand entries to a string) for `author:`.
 *
 * Memory at 100,000 entries: 3.7 million postings in one `Int32Array` (15 MB), 74,000 words, and
 * a few strings per thousand entries; see `bench/scale.bench.ts`.
 *
 * The parts: `index/data.ts` (layout, scoring of a posting), `index/build.ts`, `index/query.ts`,
 * `index/serialize.ts`, `index/heap.ts` (the one bounded heap), `index/haystack.ts`.
 */
import type { Entry } from '../../corpus/schema.js';
import type { ParsedQuery } from '../queryLanguage.js';
import type { SearchHit } from '../hits.js';
import { buildSteps, updateIndex } from './build.js';
import { IndexData, MAX_DOCS } from './data.js';
import { searchIndex } from './query.js';
import { jsonPieces, restoreInto, type LibraryIndexJson } from './serialize.js';

export { LIBRARY_INDEX_VERSION, MAX_EXPANSIONS, TOP_LIST } from './data.js';
export type { LibraryIndexJson } from './serialize.js';

/** A searchable library file; see the module comment. */
export class LibraryIndex {
  private constructor(private readonly data: IndexData) {}

  /**
   * Builds the index in slices: call `step` until it returns the index; between calls other work
   * may run. `deadline()` is asked every 16 entries, and every 65,536 postings while they are laid out.
   *
   * @param entries - the entries, in file order (copied: later changes to the array do not reach the index)
   * @throws Error for more than 2^25 entries
   */
  static builder(entries: readonly Entry[]): { step(deadline: () => boolean): LibraryIndex | undefined; readonly done: number } {
    if (entries.length > MAX_DOCS) throw new Error(`LibraryIndex: ${entries.length} entries are more than the ${MAX_DOCS} it can index`);
    const steps = buildSteps(new IndexData(entries));
    let index: LibraryIndex | undefined;
    return {
      get done() { return steps.done; },
      step(deadline) {
        const data = steps.step(deadline);
        return data && (index ??= new LibraryIndex(data));
      },
    };
  }

  /** Builds the index at once (tests, small libraries). */
  static build(entries: readonly Entry[]): LibraryIndex {
    return LibraryIndex.builder(entries).step(() => false)!;
  }

  /**
   * Takes entries out and puts others in (an edited file's changed entries), without rebuilding:
   * cost proportional to the entries changed. An updated index is not saved ({@link toJSON}).
   *
   * @param removed - entries of this index (the same objects)
   * @param added - new entries
   * @throws Error when edits have used up the 2^25 entry ids
   */
  update(removed: readonly Entry[], added: readonly Entry[]): void {
    updateIndex(this.data, removed, added);
  }

  /**
   * Restores an index saved with {@link toJSON} (or {@link jsonPieces}) over the same entries.
   *
   * @returns undefined when it is of another version, or damaged (then the library is read again)
   */
  static fromJSON(entries: readonly Entry[], json: LibraryIndexJson): LibraryIndex | undefined {
    const restoring = LibraryIndex.restoring(entries, json);
    for (;;) {
      const r = restoring.next();
      if (r.done) return r.value;
    }
  }

  /**
   * {@link fromJSON} in pieces of a few milliseconds each (at 100,000 entries the whole takes most
   * of a second): run the generator on, between other work, until it returns; what it returns is
   * {@link fromJSON}'s. Every id and bound is checked, as a search reads them unchecked.
   */
  static *restoring(entries: readonly Entry[], json: LibraryIndexJson): Generator<void, LibraryIndex | undefined, undefined> {
    const data = yield* restoreInto(new IndexData(entries), json);
    return data && new LibraryIndex(data);
  }

  /**
   * The index as JSON text for the cache, in pieces of a few milliseconds' work each (joined, the
   * JSON of {@link toJSON}).
   *
   * @throws Error (when the generator runs) for an index that {@link update} changed: its ids are no longer the entries' positions
   */
  jsonPieces(): Generator<string, void, undefined> {
    return jsonPieces(this.data);
  }

  /**
   * The index as data for the cache (tests; the cache is written with {@link jsonPieces}).
   *
   * @throws Error like {@link jsonPieces}
   */
  toJSON(): LibraryIndexJson {
    return JSON.parse([...this.jsonPieces()].join('')) as LibraryIndexJson;
  }

  /**
   * What the last {@link search} read: postings, and candidates looked up or ranked. For tests of
   * the bounds in the module comment (work, unlike time, does not depend on the machine).
   */
  get lastSearchWork(): number {
    return this.data.work;
  }

  /** The entry with a key (ignoring case; the first of duplicates). */
  entry(key: string): Entry | undefined {
    const i = this.data.byKey.get(key.toLowerCase());
    return i === undefined ? undefined : this.data.byId[i];
  }

  /**
   * Runs a parsed query (see `parseQuery`; `topic:` filters match no library entry).
   *
   * @param query - free text and filters
   * @param limit - hits at most
   * @param skip - entries not to return (library entries that are a corpus entry's work: the corpus row stands for them)
   * @returns hits, best first (equal scores in file order); scores are BM25+ like the corpus search's
   */
  search(query: ParsedQuery, limit: number, skip?: (e: Entry) => boolean): SearchHit[] {
    return searchIndex(this.data, query, limit, skip);
  }
}
