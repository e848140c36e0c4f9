/**
 * Generated libraries for the scale bench (`scale.bench.ts`): a user's own `.bib` of any size, made
 * the same way on every run from a seed, never committed.
 *
 * Half of the entries are real, from TeX Live's Beebe bibliographies (`tugboat.bib`, `texbook*.bib`,
 * `font.bib`, …: Nelson Beebe's TeX and typography bibliographies, with `@string` macros, `#`
 * concatenation, TeX accents and `crossref`): taken evenly across the files when fewer are needed
 * than the 9,733 they hold, and past that all of them, then copies re-keyed (`Knuth:1984:TB-c2`)
 * with their year moved a little. Their `@string` and `@preamble` blocks head the file. The other
 * half are synthetic ML-systems papers (titles, authors and venues from word lists, some in
 * Chinese, some with `doi`, `eprint`, `keywords`, `abstract`, venues through `@string` macros, one
 * `crossref`), with a planted author `Kwon, Woosuk` for `author:kwon`.
 *
 * Synthetic entries alone also come as CSL-JSON ({@link generateCslJson}), for the CSL reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's `texlive-bibtex-extra` puts the Beebe bibliographies. */
export const BEEBE_DIR = '/usr/share/texlive/texmf-dist/bibtex/bib/beebe';

/** A tiny seeded PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

// ---------------------------------------------------------------------------------------------
// Real entries

/** One entry of a Beebe file: its text (from `@` to the closing delimiter) and where its key ends in it. */
interface RealEntry {
  text: string;
  keyEnd: number;
}

/** The Beebe files read once: `@string`/`@preamble` blocks (all of them, to head the library) and entries. */
interface Beebe {
  definitions: string[];
  entries: RealEntry[];
}

let beebe: Beebe | undefined;

/**
 * Splits a `.bib` text into its `@` blocks by matching delimiters (a field may hold a line that
 * starts with `@`, so lines are not enough). Text between blocks (`%` comments) is dropped.
 */
function splitBib(text: string, out: Beebe): void {
  const head = /^[ \t]*@[ \t]*([A-Za-z]+)[ \t\r\n]*([{(])/gm;
  let m: RegExpExecArray | null;
  while ((m = head.exec(text))) {
    const type = m[1]!.toLowerCase();
    const open = m.index + m[0].length;
    const at = text.indexOf('@', m.index);
    let depth = 0;
    let end = -1;
    for (let i = open; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 123) depth++;
      else if (c === 125) {
        if (depth === 0 && m[2] === '{') { end = i + 1; break; }
        depth--;
      } else if (c === 41 && depth === 0 && m[2] === '(') { end = i + 1; break; }
    }
    if (end < 0) break;
    head.lastIndex = end;
    const block = text.slice(at, end);
    if (type === 'comment') continue;
    if (type === 'string' || type === 'preamble') { out.definitions.push(block); continue; }
    const keyFrom = open - at;
    const comma = block.indexOf(',', keyFrom);
    if (comma < 0) continue;
    out.entries.push({ text: block, keyEnd: keyFrom + block.slice(keyFrom, comma).trimEnd().length });
  }
}

/** Every `*.bib` of {@link BEEBE_DIR}, in name order, read once; throws when the folder is missing. */
function readBeebe(): Beebe {
  if (beebe) return beebe;
  const out: Beebe = { definitions: [], entries: [] };
  let files: string[];
  try {
    files = readdirSync(BEEBE_DIR).filter((f) => f.endsWith('.bib')).sort();
  } catch (e) {
    throw new Error(`cannot read the Beebe bibliographies in ${BEEBE_DIR} (Debian: apt-get install texlive-bibtex-extra): ${(e as Error).message}`);
  }
  for (const f of files) splitBib(readFileSync(join(BEEBE_DIR, f), 'utf8'), out);
  if (!out.entries.length) throw new Error(`no BibTeX entries in ${BEEBE_DIR}`);
  return (beebe = out);
}

/** How many real entries the Beebe files hold (before copies). */
export function beebeEntryCount(): number {
  return readBeebe().entries.length;
}

/** The `i`-th real entry of `count`: evenly across the files, then re-keyed copies (`-c2`, `-c3`, …) with the year moved. */
function realEntry(i: number, count: number, rng: Rng): string {
  const all = readBeebe().entries;
  const round = Math.floor(i / all.length);
  const e = count <= all.length ? all[Math.floor((i * all.length) / count)]! : all[i % all.length]!;
  if (round === 0) return e.text;
  const keyed = `${e.text.slice(0, e.keyEnd)}-c${round + 1}${e.text.slice(e.keyEnd)}`;
  const shift = pick(rng, [-2, -1, 1, 2]);
  return keyed.replace(/(\n[ \t]*year[ \t]*=[ \t]*["{]?)(\d{4})/i, (_m, lead: string, y: string) => `${lead}${Number(y) + shift}`);
}

// ---------------------------------------------------------------------------------------------
// Synthetic ML-systems entries

const ADJECTIVES = ['Efficient', 'Distributed', 'Scalable', 'Elastic', 'Fast', 'Memory-Efficient', 'Adaptive', 'Fault-Tolerant', 'Heterogeneous', 'Communication-Efficient', 'Low-Latency', 'High-Throughput', 'Cost-Effective', 'Serverless'];
const TOPICS = ['Training', 'Serving', 'Inference', 'Pipeline Parallelism', 'Tensor Parallelism', 'Sequence Parallelism', 'Attention', 'Mixture of Experts', 'GPU Kernels', 'KV Cache Management', 'Paged Attention', 'Speculative Decoding', 'Quantization', 'Checkpointing', 'Scheduling', 'Data Loading', 'Kernel Fusion', 'Collective Communication', 'Offloading', 'Sparse Attention', 'Gradient Compression', 'Autotuning'];
const TARGETS = ['Large Language Models', 'Deep Learning', 'Transformers', 'Recommendation Models', 'Diffusion Models', 'LLM Agents', 'Graph Neural Networks', 'Multi-Tenant GPU Clusters', 'Edge Devices', 'Long-Context LLMs', 'MoE Models', 'DNN Training Jobs'];
const SYLLABLES = ['Pipe', 'Dream', 'Flex', 'Gen', 'Orca', 'Zero', 'Mega', 'Tron', 'Alpa', 'Ray', 'Hive', 'Spot', 'Serve', 'Flash', 'Turbo', 'Lumen', 'Quill', 'Vortex', 'Hydra', 'Nimbus', 'Tetris', 'Parrot', 'Llumnix', 'Sarathi'];
/** Acronyms protected with braces in BibTeX titles, as people write them. */
const ACRONYMS = /\b(GPU|LLMs?|MoE|KV|DNN|CPU|TPU|RDMA|IO)\b/g;

const FAMILIES = ['Zhang', 'Li', 'Wang', 'Chen', 'Liu', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Guo', 'He', 'Lin', 'Luo', 'Gao', 'Smith', 'Johnson', 'Stoica', 'Gonzalez', 'Zaharia', 'Narayanan', 'Shoeybi', 'Rajbhandari', 'Dao', 'M{\\"u}ller', 'Kim', 'Park', 'Lee', 'Choi', 'Patel', 'Gupta', 'Singh', 'Nguyen', 'Tanaka', 'Sato', 'Dubois', 'Rossi', "Garc{\\'\\i}a", 'Novak', 'Ivanov', 'de Vries', 'van der Berg', 'O\'Brien', 'Schr{\\"o}der', 'Jeon'];
const GIVENS = ['Wei', 'Yu', 'Jing', 'Hao', 'Xin', 'Lei', 'Tao', 'Ion', 'Joseph E.', 'Matei', 'Deepak', 'Mohammad', 'Samyam', 'Tri', 'Christopher', 'Hans', 'Minjia', 'Zhuohan', 'Lianmin', 'Ying', 'Siyuan', 'Ana', 'Luca', 'Marie', 'Jan', 'Olga', 'Kenji', 'Aiko', 'Priya', 'Arjun', 'Minh', 'Sung-Min', 'Jiwon', '{\\AA}sa', 'Fran{\\c{c}}ois'];
const ZH_FAMILIES = ['张', '李', '王', '陈', '刘', '杨', '黄', '赵', '吴', '周'];
/** Pinyin of {@link ZH_FAMILIES}, for keys (`zhang2023zh`). */
const ZH_PINYIN: Record<string, string> = { 张: 'zhang', 李: 'li', 王: 'wang', 陈: 'chen', 刘: 'liu', 杨: 'yang', 黄: 'huang', 赵: 'zhao', 吴: 'wu', 周: 'zhou' };
const ZH_GIVENS = ['伟', '娜', '敏', '静', '磊', '洋', '勇', '艳', '杰', '涛', '明', '超'];

/** Venues: a macro name (defined by `@string` at the top), its text, and the entry type it goes with. */
const VENUES: { macro: string; name: string; short: string; type: 'inproceedings' | 'article' }[] = [
  { macro: 'osdi', short: 'OSDI', name: 'USENIX Symposium on Operating Systems Design and Implementation (OSDI)', type: 'inproceedings' },
  { macro: 'sosp', short: 'SOSP', name: 'ACM Symposium on Operating Systems Principles (SOSP)', type: 'inproceedings' },
  { macro: 'mlsys', short: 'MLSys', name: 'Conference on Machine Learning and Systems (MLSys)', type: 'inproceedings' },
  { macro: 'neurips', short: 'NeurIPS', name: 'Advances in Neural Information Processing Systems (NeurIPS)', type: 'inproceedings' },
  { macro: 'eurosys', short: 'EuroSys', name: 'European Conference on Computer Systems (EuroSys)', type: 'inproceedings' },
  { macro: 'nsdi', short: 'NSDI', name: 'USENIX Symposium on Networked Systems Design and Implementation (NSDI)', type: 'inproceedings' },
  { macro: 'atc', short: 'ATC', name: 'USENIX Annual Technical Conference (ATC)', type: 'inproceedings' },
  { macro: 'asplos', short: 'ASPLOS', name: 'ACM International Conference on Architectural Support for Programming Languages and Operating Systems (ASPLOS)', type: 'inproceedings' },
  { macro: 'icml', short: 'ICML', name: 'International Conference on Machine Learning (ICML)', type: 'inproceedings' },
  { macro: 'sc', short: 'SC', name: 'International Conference for High Performance Computing, Networking, Storage and Analysis (SC)', type: 'inproceedings' },
  { macro: 'pvldb', short: 'PVLDB', name: 'Proceedings of the VLDB Endowment', type: 'article' },
  { macro: 'tocs', short: 'TOCS', name: 'ACM Transactions on Computer Systems', type: 'article' },
];
const ZH_VENUES = ['计算机学报', '软件学报', '计算机研究与发展'];
const KEYWORDS = ['llm serving', 'kv cache', 'gpu', 'distributed training', 'pipeline parallelism', 'mixture of experts', 'attention', 'scheduling', 'quantization', 'compilers', 'memory management', 'fault tolerance', 'inference', 'networking'];
const ABSTRACT = [
  'We present a system that improves the throughput of {X} by {N}x over the state of the art.',
  'Existing systems waste memory on fragmentation and redundant copies.',
  'Our design co-optimizes scheduling and memory placement across GPUs.',
  'We implement it on top of PyTorch and evaluate it on clusters of up to {M} GPUs.',
  'The evaluation shows lower tail latency at the same cost.',
];

/** A synthetic paper, rendered to BibTeX or CSL-JSON. */
interface Paper {
  key: string;
  title: string;
  chinese: boolean;
  authors: { family: string; given: string }[];
  year: number;
  venue: (typeof VENUES)[number] | { macro?: undefined; name: string; short: string; type: 'article' };
  pages?: string;
  doi?: string;
  arxiv?: string;
  keywords?: string[];
  abstract?: string;
  url?: string;
}

/** Plain text of a TeX-ish name part (`M{\"u}ller` → `Müller`), for CSL and for keys. */
function plain(s: string): string {
  return s
    .replace(/\{\\"u\}/g, 'ü').replace(/\{\\"o\}/g, 'ö').replace(/\{\\'\\i\}/g, 'í').replace(/\{\\AA\}/g, 'Å').replace(/\{\\c\{c\}\}/g, 'ç')
    .replace(/[{}]/g, '');
}

/** Makes synthetic papers with unique keys. */
class PaperMaker {
  private readonly used = new Set<string>();
  constructor(private readonly rng: Rng) {}

  make(): Paper {
    const rng = this.rng;
    const chinese = rng() < 0.04;
    const year = int(rng, 2015, 2025);
    const authors: Paper['authors'] = [];
    const count = int(rng, 1, 8);
    for (let a = 0; a < count; a++) {
      authors.push(chinese ? { family: pick(rng, ZH_FAMILIES), given: pick(rng, ZH_GIVENS) } : { family: pick(rng, FAMILIES), given: pick(rng, GIVENS) });
    }
    if (!chinese && rng() < 0.012) authors.splice(int(rng, 0, authors.length - 1), 1, { family: 'Kwon', given: 'Woosuk' });
    else if (!chinese && rng() < 0.005) authors.push({ family: 'Kwon', given: pick(rng, ['Jiwon', 'Sung-Min', 'Hyunwoo']) });
    let title: string;
    if (chinese) {
      title = `面向${pick(rng, ['大模型', '深度学习', '混合专家模型', '推荐模型'])}的${pick(rng, ['高效', '低延迟', '可扩展', '弹性'])}${pick(rng, ['分布式训练', '推理服务', '流水线并行', '显存优化', '任务调度'])}${pick(rng, ['系统', '框架', '方法', '研究'])}`;
    } else {
      const name = pick(rng, SYLLABLES) + (rng() < 0.6 ? pick(rng, SYLLABLES) : '');
      const form = rng();
      const adjective = pick(rng, ADJECTIVES);
      const topic = pick(rng, TOPICS);
      title = form < 0.45
        ? `${name}: ${adjective} ${topic} for ${pick(rng, TARGETS)}`
        : form < 0.8
          ? `${adjective} and ${pick(rng, ADJECTIVES.filter((a) => a !== adjective))} ${topic} of ${pick(rng, TARGETS)} with ${pick(rng, TOPICS.filter((t) => t !== topic))}`
          : `Towards ${adjective} ${topic}: A Study of ${pick(rng, TOPICS.filter((t) => t !== topic))} in ${pick(rng, TARGETS)}`;
    }
    const venue = chinese
      ? { name: pick(rng, ZH_VENUES), short: 'zh', type: 'article' as const }
      : rng() < 0.15 ? { name: 'arXiv preprint', short: 'arXiv', type: 'article' as const } : pick(rng, VENUES);
    const firstFamily = ZH_PINYIN[authors[0]!.family] ?? (plain(authors[0]!.family).normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase() || 'anon');
    const firstWord = chinese ? 'zh' : title.split(/[^A-Za-z]+/).find((w) => w.length > 3)?.toLowerCase() ?? 'paper';
    let key = `${firstFamily}${year}${firstWord}`;
    for (let k = 2; this.used.has(key); k++) key = `${firstFamily}${year}${firstWord}${k}`;
    this.used.add(key);
    const first = int(rng, 1, 900);
    const paper: Paper = { key, title, chinese, authors, year, venue, pages: rng() < 0.8 ? `${first}--${first + int(rng, 8, 20)}` : undefined };
    if (rng() < 0.35) paper.doi = `10.${pick(rng, ['1145', '5555', '48550'])}/${int(rng, 3_000_000, 3_999_999)}.${int(rng, 1_000_000, 9_999_999)}`;
    if (venue.short === 'arXiv' || rng() < 0.25) paper.arxiv = `${String(year % 100).padStart(2, '0')}${String(int(rng, 1, 12)).padStart(2, '0')}.${int(rng, 10000, 29999)}`;
    if (rng() < 0.4) paper.keywords = [...new Set([pick(rng, KEYWORDS), pick(rng, KEYWORDS), pick(rng, KEYWORDS)])];
    if (!chinese && rng() < 0.3) paper.abstract = ABSTRACT.slice(0, int(rng, 2, ABSTRACT.length)).join(' ').replace('{X}', pick(rng, TOPICS).toLowerCase()).replace('{N}', String(int(rng, 2, 24))).replace('{M}', String(2 ** int(rng, 3, 12)));
    if (rng() < 0.2) paper.url = `https://example.org/papers/${key}.pdf`;
    return paper;
  }
}

/** A synthetic paper as BibTeX: acronyms braced, venue by macro half the time. */
function paperToBibtex(p: Paper, rng: Rng): string {
  const names = p.authors.map((a) => (p.chinese ? `${a.family}${a.given}` : rng() < 0.8 ? `${a.family}, ${a.given}` : `${a.given} ${a.family}`));
  const title = p.chinese ? p.title : p.title.replace(ACRONYMS, '{$1}').replace(/^(\w+):/, (_m, n: string) => (rng() < 0.5 ? `{${n}}:` : `${n}:`));
  const type = p.venue.short === 'arXiv' ? 'misc' : p.venue.type;
  const lines = [`@${type}{${p.key},`, `  author = {${names.join(' and ')}},`, `  title = {${title}},`];
  if (p.venue.short === 'arXiv') lines.push('  howpublished = {arXiv preprint},');
  else {
    const field = p.venue.type === 'article' ? 'journal' : 'booktitle';
    const macro = p.venue.macro;
    const value = macro && rng() < 0.5 ? (rng() < 0.3 ? `"Proceedings of the " # ${macro}` : macro) : `{${p.venue.type === 'inproceedings' ? 'Proceedings of the ' : ''}${p.venue.name}}`;
    lines.push(`  ${field} = ${value},`);
  }
  lines.push(`  year = {${p.year}},`);
  if (rng() < 0.3) lines.push(`  month = ${pick(rng, ['jan', 'mar', 'jul', 'oct', 'dec'])},`);
  if (p.pages) lines.push(`  pages = {${p.pages}},`);
  if (p.doi) lines.push(`  doi = {${p.doi}},`);
  if (p.arxiv) lines.push(`  eprint = {${p.arxiv}},`, '  archiveprefix = {arXiv},', '  primaryclass = {cs.DC},');
  if (p.url) lines.push(`  url = {${p.url}},`);
  if (p.keywords) lines.push(`  keywords = {${p.keywords.join(', ')}},`);
  if (p.abstract) lines.push(`  abstract = {${p.abstract}},`);
  lines.push('}');
  return lines.join('\n');
}

/** A synthetic paper as a CSL item (CSL 1.0.2 variables). */
function paperToCsl(p: Paper): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: p.key,
    type: p.venue.short === 'arXiv' ? 'article' : p.venue.type === 'article' ? 'article-journal' : 'paper-conference',
    title: p.title,
    author: p.authors.map((a) => ({ family: plain(a.family), given: plain(a.given) })),
    issued: { 'date-parts': [[p.year]] },
    'container-title': p.venue.short === 'arXiv' ? undefined : p.venue.name,
  };
  if (p.pages) item.page = p.pages.replace('--', '-');
  if (p.doi) item.DOI = p.doi;
  if (p.arxiv) item.number = `arXiv:${p.arxiv}`;
  if (p.url) item.URL = p.url;
  if (p.keywords) item.keyword = p.keywords.join(', ');
  if (p.abstract) item.abstract = p.abstract;
  return item;
}

/** The `@string` macros the synthetic entries use. */
function synthStrings(): string {
  return VENUES.map((v) => `@string{${v.macro} = {${v.name}}}`).join('\n');
}

/** The one `crossref` pair: an entry that takes its booktitle and year from a `@proceedings` after it (BibTeX's order). */
function crossrefPair(): string[] {
  return [
    '@inproceedings{kwon2024crossref,\n  author = {Kwon, Woosuk and Li, Zhuohan},\n  title = {Paged Attention Across a Cluster: Cross-Referenced Proceedings},\n  pages = {1--14},\n  crossref = {mlsys2024proceedings},\n}',
    '@proceedings{mlsys2024proceedings,\n  title = {Proceedings of Machine Learning and Systems 6 (MLSys 2024)},\n  booktitle = {Proceedings of Machine Learning and Systems 6 (MLSys 2024)},\n  editor = {Gibbons, Phil and Pekhimenko, Gennady and De Sa, Christopher},\n  publisher = {mlsys.org},\n  year = {2024},\n}',
  ];
}

/** How a generated library of `n` entries is made up. */
export interface LibraryMix {
  real: number;
  synthetic: number;
  /** Re-keyed copies among the real entries. */
  copies: number;
}

/** The real/synthetic split of {@link generateLibrary} for `n` entries (half and half, real rounded up). */
export function libraryMix(n: number): LibraryMix {
  const real = Math.ceil(n / 2);
  return { real, synthetic: n - real, copies: Math.max(0, real - beebeEntryCount()) };
}

/**
 * A `.bib` library of exactly `n` entries (`@string`, `@preamble` not counted), the same text for
 * the same `n` and `seed`: all the Beebe `@string`/`@preamble` blocks and the synthetic macros
 * first, then real and synthetic entries interleaved, the `crossref` pair last.
 *
 * @param n - entries (at least 2)
 * @param seed - PRNG seed
 * @returns the file's text
 */
export function generateLibrary(n: number, seed: number): string {
  const rng = mulberry32(seed);
  const { real, synthetic } = libraryMix(n);
  const maker = new PaperMaker(rng);
  const parts = [`% Generated by bench/library/generate.ts: ${n} entries, seed ${seed}. Not for citing.`, ...readBeebe().definitions, synthStrings()];
  const pair = synthetic >= 2 ? crossrefPair() : [];
  const synthBody = synthetic - pair.length;
  let r = 0;
  let s = 0;
  while (r < real || s < synthBody) {
    // Interleave in proportion (Bresenham), so both kinds are spread over the file.
    if (s >= synthBody || (r < real && r * synthBody <= s * real)) parts.push(realEntry(r++, real, rng));
    else { parts.push(paperToBibtex(maker.make(), rng)); s++; }
  }
  parts.push(...pair);
  return `${parts.join('\n\n')}\n`;
}

/**
 * A CSL-JSON library (a JSON array, two-space indented like a Zotero export) of `n` synthetic
 * papers, the same for the same `n` and `seed`.
 *
 * @param n - items
 * @param seed - PRNG seed
 * @returns the file's text
 */
export function generateCslJson(n: number, seed: number): string {
  const maker = new PaperMaker(mulberry32(seed));
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) items.push(paperToCsl(maker.make()));
  return `${JSON.stringify(items, null, 2)}\n`;
}
