/**
 * Search over one library file's entries, built to stay fast at 100,000 entries: the same
 * tokenizer, folding and stems as the corpus search (`core/search.ts`), in a MiniSearch index
 * (BM25+), with three rules that keep each keystroke's work from growing with the library:
 * - only the word being typed (the last) is matched as a prefix, and only from three letters on;
 * - a one- or two-letter word being typed is looked up in a table built with the index (each
 *   such prefix → the newest 200 entries that have a word starting with it), or, after other
 *   words, checked on their hits only;
 * - filters (`author:`, `venue:`, `year:`) test strings folded once, at build time.
 */
import MiniSearch from 'minisearch';
import { foldAscii } from '../cite/key.js';
import { displayName } from '../cite/names.js';
import type { Entry } from '../schema.js';
import { FIELD_BOOSTS, indexTerms, queryTerm, tokenize, type ParsedQuery, type SearchHit } from '../search.js';

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Entries kept per one- or two-letter prefix (the newest first). */
const PREFIX_LIST = 200;

const FIELDS = ['title', 'key', 'authors', 'venue', 'year', 'keywords'] as const;
type Field = (typeof FIELDS)[number];
const BOOSTS: Record<Field, number> = {
  title: FIELD_BOOSTS.title, key: FIELD_BOOSTS.key, authors: FIELD_BOOSTS.authors, venue: FIELD_BOOSTS.venue, year: FIELD_BOOSTS.year, keywords: FIELD_BOOSTS.topics,
};

function fieldOf(e: Entry, field: Field): string {
  switch (field) {
    case 'title': return e.title;
    case 'key': return e.key;
    case 'authors': return e.authors.map(displayName).join(' ');
    case 'venue': return e.venue ?? '';
    case 'year': return e.year?.toString() ?? '';
    case 'keywords': return e.library?.keywords.join(' ') ?? '';
  }
}

/** Folded strings kept per entry, for filters and short prefixes. */
interface Folded {
  /** ` word word …` of title, key and authors: a prefix `p` is a word start when it follows a space. */
  words: string;
  authors: string;
  venue: string;
}

function folded(e: Entry): Folded {
  const authors = foldAscii(e.authors.map(displayName).join('; '));
  const words = ` ${tokenize(`${e.title} ${e.key}`).map(foldAscii).join(' ')} ${authors.replace(/[^a-z0-9]+/g, ' ')}`;
  return { words, authors, venue: foldAscii(e.venue ?? '') };
}

function options(vocabulary: Set<string>, entries: readonly (Entry | undefined)[]) {
  return {
    fields: [...FIELDS],
    storeFields: [],
    idField: 'id',
    extractField: (i: number, field: string) => (field === 'id' ? i : fieldOf(entries[i]!, field as Field)),
    tokenize,
    processTerm: (t: string) => {
      const terms = indexTerms(t);
      for (const term of terms) vocabulary.add(term);
      return terms;
    },
    searchOptions: { boost: { ...BOOSTS }, processTerm: queryTerm },
  };
}

/** The serialised form of a {@link LibraryIndex}, for the cache. */
export interface LibraryIndexJson {
  version: number;
  index: string;
  vocabulary: string[];
  prefixes: [string, number[]][];
}

/** Bumped whenever the serialised index changes shape, so an old cache is not read. */
export const LIBRARY_INDEX_VERSION = 1;

/** A searchable library file; see the module comment. */
export class LibraryIndex {
  /** Entries by id (their position when built; updates add ids and leave holes). */
  private readonly byId: (Entry | undefined)[];
  private readonly folded: (Folded | undefined)[];
  private readonly byKey = new Map<string, number>();
  private idOf?: Map<Entry, number>;

  private constructor(
    byId: (Entry | undefined)[],
    private readonly ms: MiniSearch<number>,
    private readonly vocabulary: Set<string>,
    private readonly prefixes: Map<string, number[]>,
    folded?: Folded[],
  ) {
    this.byId = byId;
    this.folded = folded ?? byId.map((e) => e && folded_(e));
    byId.forEach((e, i) => { if (e && !this.byKey.has(e.key.toLowerCase())) this.byKey.set(e.key.toLowerCase(), i); });
  }

  /**
   * Builds the index in slices: call `step` until it returns the index; between calls other work
   * may run. `deadline()` is asked every 256 entries.
   *
   * @param entries - the entries, in file order (copied: later changes to the array do not reach the index)
   */
  static builder(entries: readonly Entry[]): { step(deadline: () => boolean): LibraryIndex | undefined; readonly done: number } {
    const byId = [...entries];
    const vocabulary = new Set<string>();
    const ms = new MiniSearch<number>(options(vocabulary, byId));
    const all: Folded[] = [];
    const buckets = new Map<string, number[]>();
    let i = 0;
    return {
      get done() { return i; },
      step(deadline) {
        while (i < byId.length) {
          ms.add(i);
          const f = folded_(byId[i]!);
          all.push(f);
          addPrefixes(buckets, f, i);
          i++;
          if ((i & 255) === 0 && deadline()) return undefined;
        }
        const year = (n: number) => byId[n]!.year ?? 0;
        for (const [p, list] of buckets) {
          // Newest first; file order among equals (stable sort).
          buckets.set(p, list.sort((a, b) => year(b) - year(a)).slice(0, PREFIX_LIST));
        }
        return new LibraryIndex(byId, ms, vocabulary, buckets, all);
      },
    };
  }

  /** Builds the index at once (tests, small libraries). */
  static build(entries: readonly Entry[]): LibraryIndex {
    return LibraryIndex.builder(entries).step(() => false)!;
  }

  /**
   * Takes entries out and puts others in (an edited file's changed entries), without rebuilding:
   * cost proportional to the entries changed.
   *
   * @param removed - entries of this index (the same objects)
   * @param added - new entries
   */
  update(removed: readonly Entry[], added: readonly Entry[]): void {
    if (!this.idOf) {
      this.idOf = new Map();
      this.byId.forEach((e, i) => { if (e) this.idOf!.set(e, i); });
    }
    for (const e of removed) {
      const id = this.idOf.get(e);
      if (id === undefined) continue;
      this.ms.discard(id);
      this.byId[id] = undefined;
      this.folded[id] = undefined;
      this.idOf.delete(e);
      if (this.byKey.get(e.key.toLowerCase()) === id) this.byKey.delete(e.key.toLowerCase());
    }
    for (const e of added) {
      const id = this.byId.length;
      this.byId.push(e);
      const f = folded_(e);
      this.folded.push(f);
      this.idOf.set(e, id);
      this.ms.add(id);
      if (!this.byKey.has(e.key.toLowerCase())) this.byKey.set(e.key.toLowerCase(), id);
      // New entries lead their prefixes' lists (they are what the user just wrote).
      for (const p of prefixesOf(f)) {
        const list = this.prefixes.get(p) ?? [];
        this.prefixes.set(p, [id, ...list].slice(0, PREFIX_LIST));
      }
    }
  }

  /** Restores an index saved with {@link toJSON} over the same entries; undefined when it is of another version. */
  static fromJSON(entries: readonly Entry[], json: LibraryIndexJson): LibraryIndex | undefined {
    if (json.version !== LIBRARY_INDEX_VERSION) return undefined;
    const byId = [...entries];
    const vocabulary = new Set(json.vocabulary);
    const ms = MiniSearch.loadJSON<number>(json.index, options(vocabulary, byId));
    return new LibraryIndex(byId, ms, vocabulary, new Map(json.prefixes));
  }

  /** The index as data for the cache (of an index not updated since it was built: ids are positions). */
  toJSON(): LibraryIndexJson {
    return { version: LIBRARY_INDEX_VERSION, index: JSON.stringify(this.ms), vocabulary: [...this.vocabulary], prefixes: [...this.prefixes] };
  }

  /** The entry with a key (ignoring case; the first of duplicates). */
  entry(key: string): Entry | undefined {
    const i = this.byKey.get(key.toLowerCase());
    return i === undefined ? undefined : this.byId[i];
  }

  /**
   * Runs a parsed query (see `parseQuery`; `topic:` filters match no library entry).
   *
   * @param query - free text and filters
   * @param limit - hits at most
   * @param skip - entries not to return (the corpus's twins)
   * @returns hits, best first; scores are BM25+ like the corpus search's
   */
  search(query: ParsedQuery, limit: number, skip?: (e: Entry) => boolean): SearchHit[] {
    const { filters } = query;
    if (filters.topic?.length) return [];
    const passes = (i: number): boolean => {
      const e = this.byId[i];
      if (!e || skip?.(e)) return false;
      if (filters.yearFrom !== undefined && (e.year === undefined || e.year < filters.yearFrom)) return false;
      if (filters.yearTo !== undefined && (e.year === undefined || e.year > filters.yearTo)) return false;
      const f = this.folded[i]!;
      if (filters.author && !filters.author.some((a) => f.authors.includes(a))) return false;
      if (filters.venue && !filters.venue.some((v) => f.venue.includes(v))) return false;
      return true;
    };
    // A Chinese or Japanese run is matched by its character pairs (the index has those of every
    // title), not as a whole: a phrase typed from the middle of a title still finds it.
    // The query's words, each split as the index splits text (`kwon2023e` → `kwon2023e`, `kwon`,
    // `2023`, `e`); a Chinese or Japanese run is matched by its character pairs (the index has those
    // of every title), not as a whole, so a phrase from the middle of a title still finds it.
    const terms = (text: string) => tokenize(text).map(foldAscii).filter((w) => w && !(CJK.test(w) && [...w].length > 2));
    const raw = query.text.trim().split(/\s+/).filter(Boolean);
    const head = terms(raw.slice(0, -1).join(' '));
    const lastWord = foldAscii(raw[raw.length - 1] ?? '');
    if (!head.length && !lastWord) {
      if (!Object.keys(filters).length) return [];
      const out: SearchHit[] = [];
      for (let i = 0; i < this.byId.length && out.length < limit; i++) if (passes(i)) out.push({ entry: this.byId[i]!, score: 0 });
      return out;
    }
    // A one- or two-letter last word is the start of a word being typed (even when it is a word itself: `a`, initials).
    const typingShort = lastWord.length < 3 && /^[a-z0-9]+$/.test(lastWord);
    // The word being typed is matched as a prefix by each of its parts of two letters or more.
    const tail = typingShort ? [] : terms(lastWord).filter((t, i, all) => all.length === 1 || [...t].length >= 2);
    const full = [...head, ...tail];
    if (!full.length) {
      // One short word: the table's newest entries with a word that starts with it.
      return (this.prefixes.get(lastWord) ?? []).filter(passes).slice(0, limit).map((i) => ({ entry: this.byId[i]!, score: 1 }));
    }
    const hits = this.ms.search(full.join(' '), {
      combineWith: 'AND',
      // The terms are split already: MiniSearch must not split them again.
      tokenize: (q) => q.split(' '),
      prefix: (term, i) => i >= head.length && term.length >= 2,
      fuzzy: (term, i) => (i < head.length && term.length >= 5 && /^[a-z]+$/.test(term) && !this.vocabulary.has(term) ? 0.2 : false),
      // Without filters no callback runs per hit: a common word has tens of thousands at 100,000 entries.
      filter: skip || Object.keys(filters).length || typingShort
        ? (r) => passes(r.id as number) && (!typingShort || this.folded[r.id as number]!.words.includes(` ${lastWord}`))
        : undefined,
    });
    const ranked = hits.slice(0, limit).map((r) => ({ entry: this.byId[r.id as number]!, score: r.score }));
    // The entry whose key is the whole query comes first.
    const id = this.byKey.get(query.text.trim().toLowerCase());
    if (id !== undefined && passes(id)) {
      const top = ranked[0]?.score ?? 1;
      return [{ entry: this.byId[id]!, score: top * 1.5 }, ...ranked.filter((h) => h.entry !== this.byId[id])].slice(0, limit);
    }
    return ranked;
  }
}

const folded_ = folded;

/** The one- and two-letter prefixes of an entry's words. */
function prefixesOf(f: Folded): Set<string> {
  const seen = new Set<string>();
  for (const w of f.words.split(' ')) {
    if (!w) continue;
    seen.add(w.slice(0, 1));
    if (w.length >= 2) seen.add(w.slice(0, 2));
  }
  return seen;
}

function addPrefixes(buckets: Map<string, number[]>, f: Folded, id: number): void {
  for (const p of prefixesOf(f)) {
    let list = buckets.get(p);
    if (!list) buckets.set(p, list = []);
    list.push(id);
  }
}
