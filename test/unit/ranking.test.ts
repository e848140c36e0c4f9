/**
 * One ranking: the same documents in the corpus search (MiniSearch, `core/search/corpus/corpusIndex.ts`) and in the
 * library index (`core/search/library/`) give the same hits, in the same order, with the same
 * scores (up to float rounding: MiniSearch keeps a running mean of field lengths, the library
 * index their sum), for queries both engines match alike.
 *
 * Where the engines differ on purpose, and so which queries are compared:
 * - words before the last: the corpus also matches them as prefixes (and with typos when not in
 *   its words); the library index, built for 100,000 entries, matches them whole (typos likewise).
 *   So a word before the last is one no other word of the index starts with.
 * - a query that is an entry's name: the corpus boosts a hit on a key, alias or title's name
 *   (×1.5), the library puts the entry with that key first. No query here is a name.
 * - a one- or two-letter word (the library's prefix table: `go`, the stem of `Going`; `re` of
 *   `ReRAM`), a prefix of more than {@link MAX_EXPANSIONS} words, and a word in more than
 *   {@link TOP_LIST} postings (its top list) are the library's bounds on a keystroke's work: no
 *   query here has a term of fewer than three letters or a last word with a part that is the prefix
 *   of more than {@link MAX_EXPANSIONS} words, and every search asks for all its hits, so a top list never
 *   stands for its word's whole list. These hold on a corpus of any size.
 * - a term twice in one query (`RLHF OpenRLHF`, whose second word has `rlhf` as a part): the corpus
 *   sums it twice (MiniSearch's OR), the library once. No query here repeats a term.
 * - the corpus also lists entries that match some words (`partial`); the library, every word only.
 */
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { foldAscii } from '../../src/core/cite/key.js';
import { displayName } from '../../src/core/cite/names.js';
import { LibraryIndex, MAX_EXPANSIONS, TOP_LIST } from '../../src/core/search/library/libraryIndex.js';
import { buildCorpus } from '../../src/core/corpus/model.js';
import type { CorpusEntry, Entry, LibraryEntry } from '../../src/core/corpus/schema.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { indexTerms, queryTerm, tokenize } from '../../src/core/search/analysis.js';
import { mergeHits, type SearchHit } from '../../src/core/search/hits.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';
import { BM25, MATCH_WEIGHTS, MAX_FUZZY } from '../../src/core/search/scoring.js';
import { realCorpus } from './helpers.js';

/** A corpus entry as a library file holds it: title, authors, venue, year, key; none of the corpus's curation. */
function asLibraryEntry(e: CorpusEntry, line: number): LibraryEntry {
  const { title_en: _titleEn, venue_full: _venueFull, topics: _t, level: _l, aliases: _a, summary: _s, sources: _so, seed_urls: _su, verified: _v, records: _r, unverified: _u, note: _n, ...rest } = e;
  return {
    ...rest,
    authors: e.authors.map((p) => ('zh' in p ? { given: p.given, family: p.family } : p)),
    library: { uri: 'file:///refs.bib', name: 'refs.bib', line, sourceType: 'inproceedings', format: 'bibtex', keywords: [], groups: [] },
  };
}

/** `n` entries drawn from a few words, compound names and authors (a seeded generator). */
function generated(n: number): Entry[] {
  const words = ['paged', 'attention', 'pipeline', 'parallel', 'training', 'serving', 'memory', 'scheduling', 'sparse', 'kernels',
    'distributed', 'inference', 'compression', 'quantization', 'elastic', 'tensor', 'graph', 'cache', 'offload', 'fusion',
    'FlashAttention-2', 'ZeRO', 'MoE', 'LLM', 'large language models', 'GPUs', 'zygote'];
  let seed = 7;
  const next = (m: number) => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % m;
  };
  const base = realCorpus().entries[0]!;
  return Array.from({ length: n }, (_, i) => asLibraryEntry({
    ...base,
    key: `gen${i}`,
    title: Array.from({ length: 2 + next(6) }, () => words[next(words.length)]!).join(' '),
    authors: Array.from({ length: 1 + next(3) }, () => ({ given: `A${next(5)}`, family: `Family${next(40)}` })),
    venue: `Conf ${next(9)}`,
    year: 2000 + next(25),
  }, i + 1));
}

/** The query words whose hits both engines find alike (see the module comment), from the documents' titles. */
function queries(entries: readonly Entry[]): string[] {
  const vocabulary = new Set<string>();
  for (const e of entries) {
    for (const text of [e.title, e.key, e.authors.map(displayName).join(' '), e.venue ?? '', String(e.year ?? '')]) {
      for (const token of tokenize(text)) for (const term of indexTerms(token)) vocabulary.add(term);
    }
  }
  const terms = [...vocabulary];
  const whole = (w: string) => !terms.some((t) => t !== queryTerm(w) && t.startsWith(queryTerm(w)));
  const words = [...new Set(entries.flatMap((e) => tokenize(e.title)).filter((w) => /^[a-z]{4,}$/i.test(w)))];
  // A word before the last is matched whole by the library, as a prefix by the corpus: one that no longer word starts with, nor any of its parts.
  const heads = words.filter((w) => tokenize(w).every(whole));
  // The names the corpus boosts a whole-query hit on (`createSearchIndex`): keys and titles' names before ':'.
  const names = new Set(entries.flatMap((e) => [e.key, e.title.split(':')[0]!].map((n) => foldAscii(n).trim())));
  // Within the library's bounds (see the module comment): terms of three letters or more, each once;
  // a last word none of whose parts is the prefix of more than MAX_EXPANSIONS words.
  const bounded = (q: string) => {
    const ts = tokenize(q).map(queryTerm);
    const last = tokenize(q.split(' ').pop()!).map(queryTerm);
    return ts.every((t) => t.length >= 3) && new Set(ts).size === ts.length
      && last.every((l) => terms.filter((t) => t !== l && t.startsWith(l)).length <= MAX_EXPANSIONS);
  };
  const out = new Set<string>();
  for (const w of words) if (!names.has(foldAscii(w))) out.add(w);
  for (let i = 0; i < heads.length; i++) {
    const last = words[(i * 7) % words.length]!;
    if (queryTerm(last) !== queryTerm(heads[i]!)) out.add(`${heads[i]} ${last}`);
  }
  return [...out].filter(bounded);
}

/** Each index's hits for a query, by key; the corpus's partial hits left out. */
function both(entries: Entry[]): (q: string) => { corpus: SearchHit[]; library: SearchHit[] } {
  // The corpus side holds the same records with empty curation, as library entries have none.
  const asCorpus = entries.map(({ library: _library, ...record }): CorpusEntry => ({ ...record, topics: [], aliases: [], summary: '', sources: [], seed_urls: [], verified: [], records: [], unverified: [] }));
  const corpus = createSearchIndex(buildCorpus({ topics: [], entries: asCorpus }));
  const library = LibraryIndex.build(entries);
  // Every hit: a search that asks for fewer may read a common word's top list only (see the module comment).
  return (q) => ({ corpus: corpus.search(q, entries.length).filter((h) => !h.partial), library: library.search(parseQuery(q), entries.length) });
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

function expectSameRanking(entries: Entry[], min: number): void {
  const run = both(entries);
  // At most 400 queries, spread over the list: the check's cost stays bounded as the corpus grows.
  const all = queries(entries);
  const qs = all.filter((_, i) => Math.floor((i * 400) / all.length) !== Math.floor(((i - 1) * 400) / all.length));
  let compared = 0;
  for (const q of qs) {
    const { corpus, library } = run(q);
    if (!corpus.length) continue;
    compared++;
    expect(library.map((h) => h.entry.key).sort(), q).toEqual(corpus.map((h) => h.entry.key).sort());
    const byKey = new Map(library.map((h) => [h.entry.key, h.score]));
    for (const h of corpus) expect(close(h.score, byKey.get(h.entry.key)!), `${q}: ${h.entry.key} ${h.score} vs ${byKey.get(h.entry.key)}`).toBe(true);
    // The same order, where scores differ by more than rounding (ties: each engine in its own order).
    for (let i = 1; i < library.length; i++) {
      const [a, b] = [library[i - 1]!.score, library[i]!.score];
      expect(a >= b || close(a, b), q).toBe(true);
    }
    // mergeHits takes each side's scores relative to its best: the same documents, the same figures.
    const best = (hs: SearchHit[]) => Math.max(...hs.map((h) => h.score));
    const merged = mergeHits(corpus, library, corpus.length + library.length);
    expect(merged.length).toBe(corpus.length * 2);
    for (const h of corpus) expect(close(h.score / best(corpus), byKey.get(h.entry.key)! / best(library))).toBe(true);
  }
  expect(compared).toBeGreaterThanOrEqual(min);
}

describe('one ranking: the corpus search and the library index', () => {
  it('give the same hits, order and scores over real corpus entries as a library holds them', () => {
    const entries = realCorpus().entries.map(asLibraryEntry);
    expectSameRanking(entries, 200);
  });

  it('give the same hits, order and scores over generated entries (compound names, abbreviations)', () => {
    expectSameRanking(generated(200), 20);
  });

  it('give the same hits and scores for any documents and any query of their words both engines match alike (property)', () => {
    const base = asLibraryEntry(realCorpus().entries[0]!, 1);
    const pool = ['paged', 'attention', 'serving', 'memory', 'sparse', 'kernels', 'tensor', 'cache', 'caching', 'cached', 'PagedAttention',
      'ZeRO', 'MoE', 'mixture of experts', 'LLMs', 'large language model', 'GPUs', 'GPU', 'zygote', 'zygotes', 'pipe', 'pipeline', '深度学习'];
    const title = fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' '));
    const doc = fc.record({ title, family: fc.constantFrom('Kwon', 'Zheng', 'Li', 'Rajbhandari'), year: fc.integer({ min: 2015, max: 2025 }) });
    const docs = fc.array(doc, { minLength: 1, maxLength: 30 }).map((ds) => ds.map((d, i) => ({
      ...base, key: `k${i}`, title: d.title, authors: [{ given: 'A', family: d.family }], year: d.year, venue: 'OSDI',
    })));
    fc.assert(fc.property(docs, fc.nat(), (entries, pick) => {
      const candidates = queries(entries);
      const q = candidates[pick % candidates.length];
      if (!q) return;
      const { corpus, library } = both(entries)(q);
      const byKey = new Map(library.map((h) => [h.entry.key, h.score]));
      expect(library.map((h) => h.entry.key).sort(), q).toEqual(corpus.map((h) => h.entry.key).sort());
      for (const h of corpus) expect(close(h.score, byKey.get(h.entry.key)!), `${q}: ${h.entry.key}`).toBe(true);
    }), { numRuns: 200, seed: 42 });
  });

  it('splits a last word typed in capitals as the corpus does (`GPUs` → `gpus`, `gp`, `us`), not folded first', () => {
    const base = asLibraryEntry(realCorpus().entries[0]!, 1);
    const entries = ['Scaling GPUs', 'GPU kernels for us', 'Sparse attention'].map((title, i) => ({ ...base, key: `k${i}`, title }));
    const { corpus, library } = both(entries)('GPUs');
    expect(library.map((h) => [h.entry.key, h.score])).toEqual(corpus.map((h) => [h.entry.key, expect.closeTo(h.score, 9)]));
  });

  it('scores with MiniSearch\'s own defaults: our shared parameters change nothing in a plain MiniSearch', () => {
    const docs = realCorpus().entries.slice(0, 60).map((e, id) => ({ id, title: e.title, summary: e.summary }));
    const plain = new MiniSearch({ fields: ['title', 'summary'] });
    const ours = new MiniSearch({ fields: ['title', 'summary'], searchOptions: { bm25: { ...BM25 }, weights: { ...MATCH_WEIGHTS }, maxFuzzy: MAX_FUZZY } });
    plain.addAll(docs);
    ours.addAll(docs);
    for (const q of ['memory', 'pipeline parallel', 'atten', 'schedulng']) {
      const opts = { prefix: true, fuzzy: 0.2 };
      expect(ours.search(q, opts).map((r) => [r.id, r.score]), q).toEqual(plain.search(q, opts).map((r) => [r.id, r.score]));
    }
  });
});
