/**
 * A corpus of the size issue 26 asks for (3,000+ works), for the tests and benches that need one
 * before the field's entries land: the real reading list plus generated `sources: [field]` entries
 * shaped like the ones the record-derived files hold (no level, no summary, a system name in the
 * title where there is one, one DBLP record), from a seeded generator (mulberry32), so every run
 * sees the same corpus.
 *
 * The generated works are meant to compete with the reading list the way the field's literature
 * will: their titles are made of the field's words ("Efficient Memory Management for Serving Large
 * Language Models", "attention", "pipeline parallelism", "KV cache"), a few lead with or mention
 * the reading list's system names ("Beyond PagedAttention: …", "ZeRO-style …"), and their topics
 * are the reading list's, one of them ({@link CROWDED_TOPIC}) holding 300+ of them. No field of a
 * generated entry describes a real work. Imports nothing from vitest: the benches read it too.
 */
import type { CorpusData } from '../../src/core/corpus/model.js';
import type { CorpusEntry, Person } from '../../src/core/corpus/schema.js';

/** The topic that gets the most generated works (300+ of a 3,000-entry corpus): a browsable-at-size check. */
export const CROWDED_TOPIC = 'serving.batching';

/** Entries a corpus of issue 26's size holds. */
export const FIELD_SIZE = 3000;

/** A seeded random source (mulberry32): `next(m)` is an integer in `[0, m)`. */
export function seeded(seed: number): { next(m: number): number; pick<T>(xs: readonly T[]): T } {
  let s = seed >>> 0;
  const next = (m: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % m;
  };
  return { next, pick: (xs) => xs[next(xs.length)]! };
}

const NAME_HEADS = ['Flex', 'Spot', 'Deep', 'Mega', 'Hyper', 'Dyn', 'Torch', 'Pipe', 'Tensor', 'Graph', 'Quant', 'Sparse', 'Infini', 'Llum',
  'Dist', 'Mux', 'Hydra', 'Nimble', 'Tetris', 'Aurora', 'Kelp', 'Echo', 'Helix', 'Zeta', 'Prism', 'Atlas', 'Orion', 'Vega', 'Cobalt', 'Saturn'];
const NAME_TAILS = ['Serve', 'Pipe', 'Flow', 'Gen', 'Sched', 'Store', 'Train', 'MoE', 'Cache', 'Kernel', 'Infer', 'Shard', 'Comm', 'Ckpt', 'ix', 'ia', 'ora', 'io'];
const ADJECTIVES = ['Efficient', 'Scalable', 'Fast', 'Elastic', 'Adaptive', 'Memory-Efficient', 'Fault-Tolerant', 'Heterogeneity-Aware', 'Low-Latency',
  'High-Throughput', 'Cost-Efficient', 'Fair', 'Predictable', 'Decentralized', 'Automatic', 'Holistic', 'Fine-Grained', 'Dynamic'];
const SUBJECTS = ['Serving', 'Training', 'Scheduling', 'Inference', 'Checkpointing', 'Pipeline Parallelism', 'Tensor Parallelism', 'Kernel Fusion',
  'Memory Management', 'KV Cache Management', 'Attention', 'Compilation', 'Collective Communication', 'Offloading', 'Quantization',
  'Sparse Attention', 'Request Scheduling', 'Batching', 'Prefill and Decode', 'Expert Parallelism', 'Data Loading', 'Autoscaling',
  'Speculative Decoding', 'Gradient Compression', 'Operator Placement', 'Cluster Scheduling'];
const OBJECTS = ['Large Language Models', 'Deep Learning Jobs', 'GPU Clusters', 'Mixture-of-Experts Models', 'DNN Inference', 'Transformers',
  'Recommendation Models', 'Graph Neural Networks', 'Diffusion Models', 'Multi-Tenant GPU Clusters', 'LLM Serving', 'Long-Context LLMs',
  'Multimodal Models', 'Edge Devices', 'Heterogeneous GPUs', 'Foundation Models', 'Distributed Training', 'Serverless Inference'];
const FRAMES = [
  (a: string, s: string, o: string) => `${a} ${s} for ${o}`,
  (a: string, s: string, o: string) => `Towards ${a} ${s} of ${o}`,
  (a: string, s: string, o: string) => `${s} ${o} with ${a} Scheduling`,
  (a: string, s: string, o: string) => `Rethinking ${s} for ${a} ${o}`,
  (a: string, s: string, o: string) => `Characterizing ${s} in ${o}`,
  (a: string, s: string, o: string) => `${a} and ${a === 'Fast' ? 'Scalable' : 'Fast'} ${s} of ${o} on GPUs`,
];
/** Titles that mention the reading list's systems, as the field's later works do. */
const MENTIONS = ['Beyond PagedAttention: {n} Memory for {o}', 'ZeRO-Style Sharding for {o}', 'Improving FlashAttention Kernels for {o}',
  'Extending Megatron-LM to {o}', 'When vLLM Meets {o}', 'A Study of Continuous Batching for {o}', 'GPipe Revisited: Pipelines for {o}',
  'Ring Attention at Scale: {o}', 'Speculative Decoding for {o} Without a Draft Model', 'Chunked Prefill Scheduling for {o}'];
const FAMILIES = ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Guo', 'He', 'Lin',
  'Kim', 'Lee', 'Park', 'Choi', 'Jeong', 'Smith', 'Johnson', 'Miller', 'Davis', 'Garcia', 'Patel', 'Shah', 'Gupta', 'Singh', 'Kumar', 'Nguyen',
  'Tanaka', 'Suzuki', 'Müller', 'Schmidt', 'Rossi', 'Dubois', 'Novak', 'Cohen', 'Levy', 'Andersen', 'Berg', 'Stoica', 'Zaharia', 'Gonzalez'];
const GIVENS = ['Wei', 'Yi', 'Jun', 'Hao', 'Xin', 'Yu', 'Min', 'Jie', 'Lei', 'Tao', 'Ji-Hoon', 'Seung', 'Minsu', 'Anna', 'James', 'Maria', 'David',
  'Priya', 'Rahul', 'Aditi', 'Kenji', 'Yuki', 'Lukas', 'Sofia', 'Pierre', 'Ana', 'Omar', 'Noa', 'Erik', 'Ion', 'Matei', 'Joseph'];
/** Venues with the share of works they get (out of the sum) and the years they run. */
const VENUES: [venue: string, weight: number, full: string][] = [
  ['OSDI', 8, 'USENIX Symposium on Operating Systems Design and Implementation'], ['SOSP', 6, 'ACM Symposium on Operating Systems Principles'],
  ['NSDI', 8, 'USENIX Symposium on Networked Systems Design and Implementation'], ['USENIX ATC', 8, 'USENIX Annual Technical Conference'],
  ['EuroSys', 8, 'European Conference on Computer Systems'], ['ASPLOS', 9, 'Architectural Support for Programming Languages and Operating Systems'],
  ['SoCC', 5, 'ACM Symposium on Cloud Computing'], ['MLSys', 8, 'Conference on Machine Learning and Systems'],
  ['NeurIPS', 12, 'Advances in Neural Information Processing Systems'], ['ICML', 9, 'International Conference on Machine Learning'],
  ['ICLR', 9, 'International Conference on Learning Representations'], ['SC', 5, 'International Conference for High Performance Computing'],
  ['PPoPP', 3, 'ACM SIGPLAN Symposium on Principles and Practice of Parallel Programming'], ['VLDB', 3, 'Proceedings of the VLDB Endowment'],
  ['FAST', 2, 'USENIX Conference on File and Storage Technologies'],
];

/**
 * `n` generated field entries over the topics `topicIds` (see the module comment). Keys are unique
 * among themselves and never clash with `taken` (the reading list's keys); titles are unique; no
 * system name is one of `names` (a generated work is never a second "DistServe").
 *
 * @param n - entries to make
 * @param topicIds - the leaf topics they are filed under; {@link CROWDED_TOPIC} gets about one in nine
 * @param taken - keys (lower case) that exist already
 * @param names - system names (lower case) that exist already
 */
export function fieldEntries(n: number, topicIds: readonly string[], taken: ReadonlySet<string> = new Set(), names: ReadonlySet<string> = new Set()): CorpusEntry[] {
  const r = seeded(2026);
  const venueWeights = VENUES.flatMap((v, i) => Array.from({ length: v[1] }, () => i));
  const keys = new Set(taken);
  // Two works with one title and year would be the same work (the corpus's check refuses them).
  const titles = new Set<string>();
  const people: Person[] = Array.from({ length: 900 }, () => ({ given: r.pick(GIVENS), family: r.pick(FAMILIES) }));
  const out: CorpusEntry[] = [];
  for (let i = 0; i < n; i++) {
    const obj = r.pick(OBJECTS);
    let name = r.next(10) < 6 ? `${r.pick(NAME_HEADS)}${r.pick(NAME_TAILS)}` : '';
    if (name && r.next(4) === 0) name += String(2 + r.next(3));
    if (names.has(name.toLowerCase())) name = '';
    const phrase = r.next(25) === 0
      ? r.pick(MENTIONS).replace('{n}', r.pick(ADJECTIVES)).replace('{o}', obj)
      : r.pick(FRAMES)(r.pick(ADJECTIVES), r.pick(SUBJECTS), obj);
    const title = name && !phrase.includes(':') ? `${name}: ${phrase}` : phrase;
    if (titles.has(title.toLowerCase())) { i--; continue; }
    titles.add(title.toLowerCase());
    // Each entry its own person objects (a YAML writer would otherwise share them as anchors and aliases).
    const authors = [...new Set(Array.from({ length: 2 + r.next(7) }, () => r.pick(people)))].map((p) => ({ ...p }));
    const [venue, , full] = VENUES[r.pick(venueWeights)]!;
    // Recent years weigh more, as the field's output does.
    const year = 2016 + Math.min(9, Math.floor(Math.sqrt(r.next(100))));
    const topics = [r.next(9) === 0 ? CROWDED_TOPIC : r.pick(topicIds)];
    if (r.next(5) === 0) topics.push(r.pick(topicIds));
    const family = (authors[0] as { family: string }).family.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    const word = (name || title.split(/\W+/).find((w) => w.length > 3 && !/^(Towards|Rethinking|Characterizing|Beyond|When)$/.test(w)) || 'work').toLowerCase();
    let key = `${family}${year}${word}`;
    for (let s = 0; keys.has(key.toLowerCase()); s++) key = `${family}${year}${word}${String.fromCharCode(97 + (s % 26))}${s >= 26 ? s : ''}`;
    keys.add(key.toLowerCase());
    const dblp = `conf/${venue.toLowerCase().replace(/\W/g, '')}/${family}${year % 100}${i}`;
    out.push({
      key, type: 'inproceedings', kind: 'paper', title, authors, year, venue,
      venue_full: full, booktitle: `${full} (${venue} ${year})`,
      ...(r.next(3) === 0 ? { pages: `${1 + r.next(900)}--${920 + r.next(80)}` } : {}),
      ...(r.next(2) === 0 ? { doi: `10.1145/${3500000 + i}.${3600000 + i}` } : {}),
      topics: [...new Set(topics)], aliases: name ? [name] : [], sources: ['field'], seed_urls: [],
      verified: [`https://dblp.org/rec/${dblp}`], records: [`dblp:${dblp}`], unverified: [],
    });
  }
  return out;
}

/**
 * The real corpus with generated field entries after it, to `size` entries in all (the real
 * corpus unchanged when it holds that many already: once the field's entries land, this is the
 * real corpus).
 *
 * @param real - the compiled corpus (`dist/corpus.json`, or the validated YAML)
 * @param size - entries wanted (default {@link FIELD_SIZE})
 */
export function corpusOfSize(real: CorpusData, size = FIELD_SIZE): CorpusData {
  if (real.entries.length >= size) return real;
  const leaves: string[] = [];
  const walk = (ts: CorpusData['topics']) => { for (const t of ts) { if (!t.children?.length) leaves.push(t.id); walk(t.children ?? []); } };
  walk(real.topics);
  const taken = new Set(real.entries.map((e) => e.key.toLowerCase()));
  const names = new Set(real.entries.flatMap((e) => [...e.aliases, e.title.split(':')[0]!]).map((n) => n.trim().toLowerCase()));
  return { topics: real.topics, entries: [...real.entries, ...fieldEntries(size - real.entries.length, leaves, taken, names)] };
}
