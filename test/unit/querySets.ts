/**
 * The search's query sets: queries a writer types, each with the entry that must come back, and
 * the mean reciprocal rank (MRR) the search reaches on a set. `search.test.ts` holds the named
 * queries first on the reading list; `searchScale.test.ts` holds them, and the MRR of every set,
 * with the field's literature in the index too.
 */
import { foldAscii } from '../../src/core/cite/key.js';
import type { Corpus } from '../../src/core/corpus/model.js';
import { onReadingList, type CorpusEntry } from '../../src/core/corpus/schema.js';
import type { SearchIndex } from '../../src/core/search/corpus/corpusIndex.js';

/** A query and the key of the entry it is after. */
export type NamedQuery = readonly [query: string, key: string];

/**
 * Reading-list entries by the names writers use: system names, title words, typos, half-typed
 * words, key prefixes, Chinese titles and names. Each must rank its entry first.
 */
export const READING_LIST_QUERIES: readonly NamedQuery[] = [
  ['paged attention', 'kwon2023efficient'],
  ['PagedAttention', 'kwon2023efficient'],
  ['efficient memory management kwon', 'kwon2023efficient'],
  ['ZeRO', 'rajbhandari2020zero'],
  ['zero offload', 'ren2021zero'],
  ['GPipe', 'huang2019gpipe'],
  ['gpip', 'huang2019gpipe'], // prefix, while typing
  ['pipedream', 'narayanan2019pipedream'],
  ['1F1B', 'narayanan2021memory'],
  ['ring attention', 'liu2024ringattention'],
  ['striped attention', 'brandon2023striped'],
  ['flashattention 2', 'dao2024flashattention'],
  ['FlashAttention-2', 'dao2024flashattention'],
  ['orca', 'yu2022orca'],
  ['speculative decoding', 'leviathan2023fast'],
  ['speculatve decodng', 'leviathan2023fast'], // fuzzy: typos
  ['sarathi-serve', 'agrawal2024taming'],
  ['chunked prefill', 'agrawal2023sarathi'], // the paper that introduced chunked prefills
  ['splitwise', 'patel2024splitwise'],
  ['FSDP', 'zhao2023pytorch'],
  ['pytorch ddp', 'li2020pytorch'],
  ['horovod', 'sergeev2018horovod'],
  ['gshard', 'lepikhin2021gshard'],
  ['alpa', 'zheng2022alpa'],
  ['quantization gptq', 'frantar2023optq'],
  ['smoothquant', 'xiao2023smoothquant'],
  ['distrifusion', 'li2024distrifusion'],
  ['sublinear memory', 'chen2016training'],
  ['activation checkpointing', 'chen2016training'],
  ['kwon2023', 'kwon2023efficient'],
  ['深度学习', 'zhangnddive'],
  ['李宏毅', 'lee2021machine'],
  ['大规模语言模型', 'zhang2023large'],
];

/**
 * More of the reading list as writers look for it: a system name typed in lower case, a title's
 * name before its colon, an author with a year, a phrase of the title.
 */
export const READING_LIST_MORE: readonly NamedQuery[] = [
  ['vllm sosp', 'kwon2023efficient'],
  ['continuous batching', 'yu2022orca'],
  ['distserve', 'zhong2024distserve'],
  ['sglang', 'zheng2024sglang'],
  ['deepspeed ulysses', 'jacobs2024system'],
  ['pipedream flush', 'narayanan2021memory'],
  ['rajbhandari 2020', 'rajbhandari2020zero'],
  ['huang 2019 pipeline', 'huang2019gpipe'],
  ['efficient large-scale language model training on gpu clusters', 'narayanan2021efficient'],
  ['blockwise transformers ring', 'liu2024ringattention'],
];

/** The reciprocal rank of `key` in the first `depth` hits of `query` (0 when not there). */
export function reciprocalRank(index: SearchIndex, [query, key]: NamedQuery, depth = 10): number {
  const i = index.search(query, depth).findIndex((h) => h.entry.key === key);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** The mean reciprocal rank of a query set, and the queries whose entry was not first (with its rank, 0: not in the first `depth`). */
export function mrr(index: SearchIndex, set: readonly NamedQuery[], depth = 10): { mrr: number; misses: [string, string, number][] } {
  let sum = 0;
  const misses: [string, string, number][] = [];
  for (const q of set) {
    const rr = reciprocalRank(index, q, depth);
    sum += rr;
    if (rr < 1) misses.push([q[0], q[1], rr ? Math.round(1 / rr) : 0]);
  }
  return { mrr: set.length ? sum / set.length : 1, misses };
}

/**
 * Every system name of the reading list that names one entry only (no other reading-list entry has
 * it as an alias or a title's name), as a query for that entry: the set a writer's "the X paper"
 * draws from. Generated from the corpus, so it grows with the reading list.
 */
export function aliasQueries(corpus: Corpus): NamedQuery[] {
  const owners = new Map<string, Set<string>>();
  const reading = corpus.entries.filter(onReadingList);
  for (const e of reading) {
    for (const n of namesOf(e)) {
      const k = foldAscii(n);
      if (!owners.has(k)) owners.set(k, new Set());
      owners.get(k)!.add(e.key);
    }
  }
  const out: NamedQuery[] = [];
  for (const e of reading) {
    for (const a of e.aliases) {
      const set = owners.get(foldAscii(a));
      // A name of one entry, that looks like a name (not a phrase such as "iteration-level scheduling").
      if (set?.size === 1 && a.length >= 3 && !/\s.*\s/.test(a)) out.push([a, e.key]);
    }
  }
  return out;
}

/** The names an entry is known by: its aliases and its title's name before a colon. */
function namesOf(e: CorpusEntry): string[] {
  const head = e.title.includes(':') ? [e.title.split(':')[0]!.trim()] : [];
  return [...e.aliases, ...head];
}
