import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { indexTerms, queryTerm, tokenize, withAbbreviations } from '../../src/core/search/analysis.js';
import { parseQuery, topicsMatching } from '../../src/core/search/queryLanguage.js';
import { SEARCH_FIELDS, searchDocuments, type SearchDocument } from '../../src/core/search/corpus/corpusDocuments.js';
import { foldAscii } from '../../src/core/cite/key.js';
import type { Entry } from '../../src/core/corpus/schema.js';
import { realCorpus } from './helpers.js';
import { READING_LIST_QUERIES } from './querySets.js';

const index = createSearchIndex(realCorpus());
const keys = (q: string, n = 5) => index.search(q, n).map((h) => h.entry.key);

describe('named queries on the real corpus return the expected entry first', () => {
  it.each(READING_LIST_QUERIES)('%j → %s', (q, key) => {
    expect(keys(q)[0]).toBe(key);
  });

  it('puts a work whose name is the whole query first: every system name of the corpus, whatever else mentions it', () => {
    // An entry's names: its key, its aliases, its title's name before ':' (the whole title without one).
    const fold = (t: string) => foldAscii(t).trim().replace(/\s+/g, ' ');
    const namesOf = (e: Entry) => new Set([e.key, ...(('aliases' in e ? e.aliases : undefined) ?? []), e.title.split(':')[0]!, ('title_en' in e ? e.title_en : undefined)?.split(':')[0] ?? ''].map(fold));
    const aliases = [...new Set(realCorpus().entries.flatMap((e) => e.aliases))].filter((a) => !/\w+:/.test(a));
    expect(aliases.length).toBeGreaterThan(300);
    const misses = aliases.filter((a) => { const first = index.search(a, 1)[0]; return !first || !namesOf(first.entry).has(fold(a)); });
    expect(misses).toEqual([]);
  });

  it('finds both SARATHI and Sarathi-Serve for "sarathi"', () => {
    expect(keys('sarathi', 2).sort()).toEqual(['agrawal2023sarathi', 'agrawal2024taming']);
  });

  it('finds both the vLLM repository and its paper for "vLLM"', () => {
    expect(keys('vLLM', 2).sort()).toEqual(['kwon2023efficient', 'vllm2023vllm']);
  });

  it('matches other forms of a word through its stem, and a known word never as a near word', () => {
    // "caching" finds "Cache": the reading list's prefix caching on the quick pick's first screen
    // (ten rows), "Prefix-Aware KV Cache" (ChunkAttention) and Prompt Cache; SGLang, whose summary
    // says "KV cache"; and never "Catching Silent Errors" (one letter away, but a different word).
    expect(keys('prefix caching', 10)).toEqual(expect.arrayContaining(['gim2024prompt', 'ye2024chunkattention']));
    const caching = keys('caching', realCorpus().entries.length);
    expect(caching).toContain('zheng2024sglang');
    expect(realCorpus().entry('jiang2025training')?.title).toMatch(/Catching Silent Errors/);
    expect(caching).not.toContain('jiang2025training');
    expect(keys('quantized', 3)).toEqual(keys('quantization', 3));
    expect(keys('scheduler', 3)).toEqual(keys('scheduling', 3));
    expect(keys('pagedatt')[0]).toBe('kwon2023efficient'); // half-typed words still prefix-match
  });

  it('finds a work by an abbreviation or by what it stands for', () => {
    // The work whose system name is "MoE" (GShard) comes first for the name and for what it stands for.
    const named = realCorpus().entries.filter((e) => e.aliases.some((a) => a.toLowerCase() === 'moe')).map((e) => e.key);
    expect(named).toEqual(['lepikhin2021gshard']);
    expect(keys('moe', 1)).toEqual(named);
    expect(keys('mixture of experts', 1)).toEqual(named);
    expect(keys('llm serving', 10)).toContain('kwon2023efficient'); // "Large Language Model Serving"
    // A name that ends in the abbreviation is a name of that thing: FasterMoE for "mixture of experts".
    expect(keys('mixture of experts', 50)).toContain('he2022fastermoe');
    expect(index.search('mixture of experts', 50).find((h) => h.entry.key === 'he2022fastermoe')?.partial).toBeUndefined();
  });

  it('finds the Megatron repository first for "megatron", and the Megatron-LM papers on the first screen', () => {
    expect(keys('megatron', 1)).toEqual(['nvidia2019megatron']); // its system name is "Megatron"
    expect(keys('megatron', 10)).toEqual(expect.arrayContaining(['narayanan2021efficient', 'shoeybi2019megatron']));
  });
});

describe('a query, term by term', () => {
  it('scores an entry as MiniSearch\'s query does: the sum of its terms\' scores times the distinct terms it matches (OR); all terms: the AND query', () => {
    // The corpus search sums each query term's own hits (kept between keystrokes) instead of
    // running the whole query: this holds the two equal, score for score, on MiniSearch itself.
    const words = ['paged', 'attention', 'pipeline', 'parallel', 'serving', 'memory', 'cache', 'caching', 'zero', 'offload', 'kernels', 'fusion'];
    const docs = fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 40 });
    const query = fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom('pag', 'pip', 'cach', 'atention', 'zer')), { minLength: 1, maxLength: 4 });
    fc.assert(fc.property(docs, query, (titles, q) => {
      const ms = new MiniSearch({ fields: ['title'], searchOptions: { prefix: (t) => t.length >= 2, fuzzy: (t) => (t.length >= 5 ? 0.2 : false), processTerm: queryTerm }, processTerm: indexTerms });
      ms.addAll(titles.map((t, id) => ({ id, title: t.join(' ') })));
      const terms = q.map(queryTerm);
      const sums = new Map<number, { score: number; terms: Set<string> }>();
      for (const term of terms) {
        for (const r of ms.search(term, { tokenize: (t) => [t], processTerm: (t) => t })) {
          const s = sums.get(r.id as number);
          if (s) { s.score += r.score; s.terms.add(term); } else sums.set(r.id as number, { score: r.score, terms: new Set([term]) });
        }
      }
      const byId = (rs: [number, number][]) => rs.sort((x, y) => x[0] - y[0]);
      const ours = byId([...sums].map(([id, s]) => [id, s.score * s.terms.size]));
      expect(ours).toEqual(byId(ms.search(q.join(' '), { combineWith: 'OR' }).map((r) => [r.id as number, r.score])));
      const all = byId([...sums].filter(([, s]) => s.terms.size === new Set(terms).size).map(([id, s]) => [id, s.score * s.terms.size]));
      expect(all).toEqual(byId(ms.search(q.join(' '), { combineWith: 'AND' }).map((r) => [r.id as number, r.score])));
    }), { numRuns: 300, seed: 7 });
  });
});

describe('the term hits an index keeps between queries', () => {
  it('change no answer: a query typed keystroke by keystroke after others answers as on a fresh index', () => {
    const queries = ['mixture of experts training', 'paged attention', 'speculatve decodng', '深度学习', 'attention year:2023..2024 venue:iclr', 'zero offload zero'];
    const used = createSearchIndex(realCorpus());
    for (const q of queries) for (let i = 1; i <= q.length; i++) used.search(q.slice(0, i), 20);
    for (const q of [...queries].reverse()) {
      const fresh = createSearchIndex(realCorpus());
      expect(used.search(q, 20), q).toEqual(fresh.search(q, 20));
    }
  });
});

describe('filters', () => {
  it('author: matches any author, accents and case ignored', () => {
    const hits = index.search('author:stoica', 50);
    expect(hits.length).toBeGreaterThan(1);
    for (const h of hits) expect(h.entry.authors.some((a) => 'family' in a && a.family === 'Stoica')).toBe(true);
  });
  it('year: single year and ranges', () => {
    for (const h of index.search('year:2023', 100)) expect(h.entry.year).toBe(2023);
    const range = index.search('year:2022..2023 serving', 100);
    expect(range.length).toBeGreaterThan(0);
    for (const h of range) expect([2022, 2023]).toContain(h.entry.year);
    for (const h of index.search('year:..2016', 100)) expect(h.entry.year!).toBeLessThanOrEqual(2016);
  });
  it('venue: and topic: (topic ids, labels and subtopics)', () => {
    const osdi = index.search('venue:osdi', 100);
    expect(osdi.map((h) => h.entry.key)).toContain('zheng2022alpa');
    for (const h of osdi) expect(h.entry.venue).toBe('OSDI');
    const under = realCorpus().entriesUnder('serving').map((e) => e.key);
    expect(index.search('topic:serving', realCorpus().entries.length).map((h) => h.entry.key).sort()).toEqual([...new Set(under)].sort());
    expect(index.search('topic:serving', 10)).toHaveLength(Math.min(10, under.length));
    expect(index.search('topic:"GPU memory management"', 10).map((h) => h.entry.key)).toContain('kwon2023efficient');
  });
  it('topicsMatching: an id with its subtopics, else a label; nothing for an unknown topic', () => {
    const corpus = realCorpus();
    const serving = topicsMatching(corpus, 'serving');
    expect(serving.has('serving')).toBe(true);
    for (const t of corpus.topics) if (t.id.startsWith('serving.')) expect(serving.has(t.id)).toBe(true);
    expect(topicsMatching(corpus, 'gpu memory management').size).toBeGreaterThan(0);
    expect(topicsMatching(corpus, 'no such topic').size).toBe(0);
  });
  it('combines filters and text', () => {
    expect(keys('attention year:2023..2024 venue:iclr')).toContain('liu2024ringattention');
    expect(keys('attention year:2023..2024 venue:iclr')).not.toContain('dao2022flashattention');
  });
  it('parses filters and reports the ones it cannot read', () => {
    expect(parseQuery('paged attention year:2023')).toEqual({ text: 'paged attention', filters: { yearFrom: 2023, yearTo: 2023 }, invalid: [] });
    expect(parseQuery('author:"Woosuk Kwon" x').filters.author).toEqual(['woosuk kwon']);
    expect(parseQuery('year:abc').invalid).toEqual(['year:abc']);
    expect(parseQuery('author:').filters).toEqual({});
  });
});

describe('tokenize', () => {
  it('splits compound names into their parts', () => {
    expect(tokenize('PagedAttention')).toEqual(['PagedAttention', 'Paged', 'Attention']);
    expect(tokenize('FlashAttention-2')).toEqual(['FlashAttention', 'Flash', 'Attention', '2']);
    expect(tokenize('Megatron-LM')).toEqual(['Megatron', 'LM']);
  });
  it('adds the other form of an abbreviation a text has in one form only', () => {
    expect(withAbbreviations('Large Language Model Serving')).toBe('Large Language Model Serving LLM');
    expect(withAbbreviations('LLM inference')).toBe('LLM inference large language model');
    expect(withAbbreviations('MoE training for large language models (LLMs)')).toBe('MoE training for large language models (LLMs) mixture of experts');
    expect(withAbbreviations('Megatron-LM')).toBe('Megatron-LM');
    // The abbreviation as the last part of a compound name (after a lower-case letter), not inside a word.
    expect(withAbbreviations('FasterMoE: training')).toBe('FasterMoE: training mixture of experts');
    expect(withAbbreviations('DeepSeekMoE')).toBe('DeepSeekMoE mixture of experts');
    expect(withAbbreviations('MOEA optimizer')).toBe('MOEA optimizer');
    expect(withAbbreviations('Homoeopathy')).toBe('Homoeopathy');
  });
  it('indexes Chinese by character bigrams', () => {
    expect(tokenize('动手学深度学习')).toEqual(expect.arrayContaining(['深度', '学习', '动手学深度学习']));
  });
  it('gives, for any text, the tokens of the plain statement of its rules (its shortcuts change nothing)', () => {
    const alphabet = ['a', 'z', 'Q', 'LM', 'Attention', '2', '0', '-', '_', '.', '+', ' ', '\n', ',', '(', '"', '“', '/', '·', '、', '深', '度', 'の', '한', 'é', 'ß', '\u0301'];
    const text = fc.array(fc.oneof(fc.constantFrom(...alphabet), fc.string({ maxLength: 3 })), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (t) => { expect(tokenize(t)).toEqual(plainTokenize(t)); }), { numRuns: 3000 });
    for (const t of ['PagedAttention', 'FlashAttention-2', '1F1B', '--x--', 'GPT-4o', 'NVLink', 'ZeRO++', 'a.b.c', '动手学deep学习', '深']) expect(tokenize(t)).toEqual(plainTokenize(t));
  });
});

/** The tokenizer's rules stated plainly, without the shortcuts that make `tokenize` fast. */
function plainTokenize(text: string): string[] {
  const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;
  const out: string[] = [];
  for (const raw of text.split(/[\s,;:!?()[\]{}"'“”‘’/|·、，。：；！？（）《》]+/u)) {
    if (!raw) continue;
    if (CJK.test(raw)) {
      for (const run of raw.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+/g) ?? []) {
        if (CJK.test(run)) {
          out.push(run);
          const chars = [...run];
          for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
          if (chars.length === 1) out.push(run);
        } else out.push(...plainTokenize(run));
      }
      continue;
    }
    const word = raw.replace(/^[-.+_]+|[-.+_]+$/g, '');
    if (!word) continue;
    for (const piece of word.split(/[-_.+]+/).filter(Boolean)) {
      out.push(piece);
      const parts = piece.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/);
      if (parts.length > 1) out.push(...parts.filter((p) => p.length > 1 || /\d/.test(p)));
    }
  }
  return out;
}

