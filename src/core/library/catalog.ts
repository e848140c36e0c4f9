/**
 * The catalog: the corpus plus the user's libraries as one read model, the one the language
 * server's citation service and the CLI both read. Lookup by key (the corpus first, then the
 * libraries in order), the same work (a library entry that is a corpus entry's work, by
 * `corpus/sameWork.ts`'s rule; {@link Catalog.sameWorkInLibrary}),
 * one search ranking both sides (`mergeHits`), and the text citing a library entry carries
 * (`library/verbatim.ts`). Loading, caching and watching the files stay with the host (the
 * server's `LibraryStore`, the CLI's `host/node/libraries.ts`); they hand the catalog what they
 * loaded, and tell it when a library changed in place.
 */
import type { Corpus } from '../corpus/model.js';
import type { Entry } from '../corpus/schema.js';
import { mergeHits, type SearchHit } from '../search/hits.js';
import { parseQuery, type ParsedQuery } from '../search/queryLanguage.js';
import type { SearchIndex } from '../search/corpus/corpusIndex.js';
import type { LoadedLibrary } from './loadLibrary.js';
import { entryIdentity, SameWorkIndex } from '../corpus/sameWork.js';
import { prepareEntry } from './verbatim.js';

/** The corpus side: the corpus and its search index (read when a search needs it, so it may be built lazily). */
export interface CatalogCorpus {
  readonly corpus: Corpus;
  readonly index: SearchIndex;
}

/** A loaded library as the catalog reads it. */
export interface CatalogLibrary {
  /** The file's URI, as its entries' `library.uri` has it. */
  readonly id: string;
  /** The file's name, for messages. */
  readonly name: string;
  readonly lib: LoadedLibrary;
  /** The text it was loaded from (citing a BibTeX entry copies it from there); undefined: entries as read. */
  readonly text: string | undefined;
  /**
   * Whether the user named it as a library (`mlsysPapers.libraries`, `--library`): its entries
   * that are corpus entries' works are what citing those corpus entries cites, and its keys are checked against earlier libraries'. An
   * open document's bibliography is searched but is not another document's source.
   */
  readonly named: boolean;
}

/** A key a library defines that an earlier named library defines too (the earlier one is used). */
export interface DuplicateKey {
  library: CatalogLibrary;
  entry: Entry;
  earlier: CatalogLibrary;
}

/** The corpus plus the libraries; see the module comment. */
export class Catalog {
  /** Whether citing a corpus entry whose work a library holds cites the corpus key (`mlsysPapers.preferCorpusKeys`). */
  preferCorpusKeys = false;
  /** The corpus's works: identity → corpus key. */
  private works: SameWorkIndex<string>;
  private libraries: readonly CatalogLibrary[] = [];
  /** Per library: its entries that are a corpus entry's work, library entry → corpus key (found once per load or change). */
  private sameWorks = new WeakMap<LoadedLibrary, Map<Entry, string>>();
  /** Corpus key (lower case) → the named library entry that is its work (the first library's). */
  private libraryWork = new Map<string, Entry>();

  constructor(private side: CatalogCorpus, libraries: readonly CatalogLibrary[] = []) {
    this.works = corpusWorks(side.corpus);
    this.setLibraries(libraries);
  }

  /** The corpus. */
  get corpus(): Corpus {
    return this.side.corpus;
  }

  /** The corpus changed: every library's same works are found again. */
  setCorpus(side: CatalogCorpus): void {
    const changed = side.corpus !== this.side.corpus;
    this.side = side;
    if (!changed) return;
    this.works = corpusWorks(side.corpus);
    this.sameWorks = new WeakMap();
    this.setLibraries(this.libraries);
  }

  /**
   * Sets the libraries, in lookup order. A library seen before keeps its same works unless
   * {@link libraryChanged} said its entries changed.
   */
  setLibraries(libraries: readonly CatalogLibrary[]): void {
    this.libraries = libraries;
    for (const l of libraries) if (!this.sameWorks.has(l.lib)) this.sameWorks.set(l.lib, this.findSameWorks(l.lib));
    this.libraryWork = new Map();
    for (const l of libraries) {
      if (!l.named) continue;
      for (const [e, key] of this.sameWorks.get(l.lib)!) if (!this.libraryWork.has(key.toLowerCase())) this.libraryWork.set(key.toLowerCase(), e);
    }
  }

  /** A library's entries changed in place (an incremental edit): its same works are found again at the next {@link setLibraries}. */
  libraryChanged(lib: LoadedLibrary): void {
    this.sameWorks.delete(lib);
  }

  /** Library entry → the corpus key of the same work; sets each entry's `library.sameWorkAs`. */
  private findSameWorks(lib: LoadedLibrary): Map<Entry, string> {
    const out = new Map<Entry, string>();
    const none = this.works.empty;
    for (const e of lib.entries) {
      const key = none ? undefined : this.works.find(entryIdentity(e));
      if (key) out.set(e, key);
      if (e.library) e.library.sameWorkAs = key;
    }
    return out;
  }

  /** How many libraries there are. */
  get libraryCount(): number {
    return this.libraries.length;
  }

  /** Every library entry, library by library, in file order. */
  libraryEntries(): Entry[] {
    return this.libraries.flatMap((l) => l.lib.entries);
  }

  /** Every key, the corpus's then the libraries' (for "did you mean"). */
  keys(): string[] {
    return [...this.side.corpus.entries, ...this.libraryEntries()].map((e) => e.key);
  }

  /** An entry by key, ignoring case: the corpus's, else the first library's that has it. */
  entry(key: string): Entry | undefined {
    return this.side.corpus.entry(key) ?? this.libraryEntry(key);
  }

  /** A library entry by key, ignoring case: the first library's that has it. */
  libraryEntry(key: string): Entry | undefined {
    for (const l of this.libraries) {
      const e = l.lib.index.entry(key);
      if (e) return e;
    }
    return undefined;
  }

  /**
   * What citing `key` cites: a corpus entry, or the same work in a named library (the user's key)
   * unless {@link preferCorpusKeys}; else a library entry.
   */
  toCite(key: string): Entry | undefined {
    const c = this.side.corpus.entry(key);
    return c ? (this.preferCorpusKeys ? undefined : this.sameWorkInLibrary(c.key)) ?? c : this.libraryEntry(key);
  }

  /**
   * The named library entry that is the same work as a corpus entry, whatever the preference (to
   * show "in your library as …"; the search result's `sameWorkInLibraries`).
   */
  sameWorkInLibrary(corpusKey: string): Entry | undefined {
    return this.libraryWork.get(corpusKey.toLowerCase());
  }

  /**
   * One ranking of the corpus and the libraries (`mergeHits`); a query with neither words nor
   * filters searches the corpus only (its index lists entries for an empty query).
   *
   * @param query - the user's query, filters included (`parseQuery`)
   * @param limit - hits at most
   */
  search(query: string, limit = 50): SearchHit[] {
    const fromCorpus = this.side.index.search(query, limit);
    const parsed = parseQuery(query);
    if (!parsed.text && !Object.keys(parsed.filters).length) return fromCorpus;
    return mergeHits(fromCorpus, this.searchLibraries(parsed, limit), limit);
  }

  /** Library hits, best first; entries that are a corpus entry's work are left out (the corpus row stands for them). */
  searchLibraries(query: ParsedQuery, limit: number): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const l of this.libraries) {
      const same = this.sameWorks.get(l.lib);
      hits.push(...l.lib.index.search(query, limit, same?.size ? (e) => same.has(e) : undefined));
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /**
   * Entries as citing and output copy them: a BibTeX library entry with its own text, macros and
   * crossref parent (`prepareEntry`); a CSL library's entry carries its item from the load; other
   * entries come back as they are.
   */
  prepare(entries: readonly Entry[]): Entry[] {
    return entries.map((e) => {
      if (!e.library || e.library.format !== 'bibtex') return e;
      const uri = e.library.uri;
      const l = this.libraries.find((x) => x.id === uri && x.text !== undefined && x.lib.entries.includes(e));
      return l ? prepareEntry(l.lib, l.text!, e) : e;
    });
  }

  /**
   * Keys a named library defines that an earlier named library defines too, in library and file
   * order (a warning: the earlier one is what lookups find). Open documents' bibliographies are left
   * out: they hold what was cited from the libraries, under the same keys, on purpose.
   */
  duplicateKeys(): DuplicateKey[] {
    const out: DuplicateKey[] = [];
    const seen = new Map<string, CatalogLibrary>();
    for (const l of this.libraries) {
      if (!l.named) continue;
      const mine = new Set<string>();
      for (const e of l.lib.entries) {
        const k = e.key.toLowerCase();
        const earlier = seen.get(k);
        if (earlier && !mine.has(k)) out.push({ library: l, entry: e, earlier });
        mine.add(k);
      }
      for (const k of mine) if (!seen.has(k)) seen.set(k, l);
    }
    return out;
  }
}

/** The corpus's works, to find the corpus entry a library entry is the same work as (the first entry's, by DOI, arXiv id, then title). */
export function corpusWorks(corpus: Corpus): SameWorkIndex<string> {
  const works = new SameWorkIndex<string>();
  for (const e of corpus.entries) works.add(entryIdentity(e), e.key);
  return works;
}
