/**
 * `npm run bench`: first-search and per-keystroke search latency over the corpus at the size issue
 * 26 asks for (the real corpus padded with generated field entries to 3,000 while it holds fewer:
 * `benchCorpus.ts`), each beside a baseline measured in the same run, printed as ratios.
 *
 * - Load: what the first search pays (parse the compiled `corpus.json`, build the model and
 *   the MiniSearch index; the index waits for the first search) against the baseline of
 *   validating the same corpus as YAML instead.
 * - Memory: the heap the server's corpus holds (the parsed corpus, its model and its search index),
 *   measured as the heap in use after a full collection before and after loading it (`--expose-gc`).
 * - Index build: `createSearchIndex` over the model against plain MiniSearch (its own tokenizer and
 *   term processing) indexing the same documents (`searchDocuments`), run alternately; the target
 *   is ≤ 2× (what our tokenizer, folding, stems and compound parts may cost).
 * - Prebuilt index: building the corpus index at start against loading one built with
 *   MiniSearch's `toJSON` (`MiniSearch.loadJSON`), and what that JSON would add to the package.
 * - Search: our index against a linear scan (substring match of every query word over each entry's
 *   text, ranked by hit count), for queries typed one keystroke at a time; the target is a p95 of
 *   ≤ 5 ms.
 * - Server (`server.bench.ts`): the language server's start to first answer against activation plus
 *   the first search in-process (both from a cold Node process), and its per-request round-trip
 *   against the same search in-process.
 *
 * Timings are wall-clock (`performance.now()`), after a warm-up, on whatever the machine is doing:
 * read the ratios, not the absolute numbers.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { performance } from 'node:perf_hooks';
import { buildCorpus, type CorpusData } from '../src/core/corpus/readCorpus.js';
import { loadCorpusDir } from '../src/host/node/readCorpusFiles.js';
import MiniSearch from 'minisearch';
import { createSearchIndex } from '../src/core/search/corpus/corpusIndex.js';
import { indexTerms, tokenize } from '../src/core/search/analysis.js';
import { SEARCH_FIELDS, searchDocuments } from '../src/core/search/corpus/corpusDocuments.js';
import { displayName } from '../src/core/cite/names.js';
import type { CorpusEntry, Entry } from '../src/core/corpus/schema.js';
import { percentile, QUERIES } from './common.js';
import { serverBench } from './server.bench.js';
import { benchCorpus } from './benchCorpus.js';

const ROOT = join(__dirname, '..');

function time(fn: () => void, repeat: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** The baseline search: every word must occur as a substring; more occurrences rank higher. */
function linearScan(entries: readonly CorpusEntry[]) {
  const texts = entries.map((e) => [e.title, e.title_en, e.key, e.aliases.join(' '), e.authors.map(displayName).join(' '), e.venue, e.year, e.summary, e.topics.join(' ')].join(' ').toLowerCase());
  return (q: string) => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits: { i: number; n: number }[] = [];
    texts.forEach((t, i) => {
      let n = 0;
      for (const w of words) {
        const c = t.split(w).length - 1;
        if (!c) return;
        n += c;
      }
      hits.push({ i, n });
    });
    return hits.sort((a, b) => b.n - a.n).slice(0, 50).map((h) => entries[h.i]);
  };
}

const ms = (x: number) => `${x.toFixed(3)} ms`;
const ratio = (ours: number, base: number) =>
  `ours/baseline = ${(ours / base).toFixed(2)} (${ours <= base ? `${(base / ours).toFixed(1)}× faster` : `${(ours / base).toFixed(1)}× slower`})`;

/**
 * The bench's corpus as a corpus folder (`topics.yaml`, `entries/`): the real YAML files, plus the
 * generated entries as one more file, in a scratch folder removed by `dispose`.
 */
function corpusFolder(): { dir: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'mlsys-papers-bench-corpus-'));
  mkdirSync(join(root, 'entries'));
  symlinkSync(join(ROOT, 'corpus/topics.yaml'), join(root, 'topics.yaml'));
  for (const f of readdirSync(join(ROOT, 'corpus/entries'))) symlinkSync(join(ROOT, 'corpus/entries', f), join(root, 'entries', f));
  const { data, real } = benchCorpus();
  if (data.entries.length > real) writeFileSync(join(root, 'entries/zz-generated.yaml'), stringify(data.entries.slice(real), { aliasDuplicateObjects: false }));
  return { dir: root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** The heap in use after a full collection, in bytes (undefined without `--expose-gc`). */
function heapAfterGc(): number | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const bench = benchCorpus();
  const json = bench.json;
  const data = JSON.parse(json) as CorpusData;
  console.log(`MLSys Papers benchmark: ${bench.describe()}, ${QUERIES.length} queries typed one keystroke at a time`);

  // Memory first, before the runs below leave garbage behind.
  const before = heapAfterGc();
  const held = createSearchIndex(buildCorpus(JSON.parse(json) as CorpusData));
  held.search('paged attention');
  const after = heapAfterGc();
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log('\nmemory for the corpus (what the language server holds: parsed corpus.json, model, search index)');
  if (before === undefined || after === undefined) console.log('  not measured: run with node --expose-gc (npm run bench does)');
  else console.log(`  heap in use after a full GC: before ${mb(before)}, after ${mb(after)}: ${mb(after - before)} for ${data.entries.length} entries (corpus.json ${mb(json.length)})`);

  // Warm up both paths.
  const folder = corpusFolder();
  for (let i = 0; i < 3; i++) { createSearchIndex(buildCorpus(JSON.parse(json) as CorpusData)); loadCorpusDir(folder.dir); }
  const ours = time(() => createSearchIndex(buildCorpus(JSON.parse(json) as CorpusData)).search('x'), 20);
  const yaml = time(() => { const l = loadCorpusDir(folder.dir); createSearchIndex(buildCorpus(l.data)).search('x'); }, 20);
  folder.dispose();
  held.search('x'); // kept alive through the measurement above
  console.log('\nload + index (what the first search pays)');
  console.log(`  ours:     compiled JSON + model + index   p50 ${ms(percentile(ours, 50))}  p95 ${ms(percentile(ours, 95))}`);
  console.log(`  baseline: validate YAML + model + index   p50 ${ms(percentile(yaml, 50))}  p95 ${ms(percentile(yaml, 95))}`);
  console.log(`  ratio (p50): ${ratio(percentile(ours, 50), percentile(yaml, 50))}`);

  const corpus = buildCorpus(data);
  const documents = searchDocuments(corpus);
  const plainMiniSearch = () => new MiniSearch({ fields: [...SEARCH_FIELDS], storeFields: [] }).addAll(documents);
  const build: number[] = [];
  const plainBuild: number[] = [];
  for (let round = 0; round < 40; round++) {
    let t = performance.now();
    createSearchIndex(corpus);
    const ours = performance.now() - t;
    t = performance.now();
    plainMiniSearch();
    const plain = performance.now() - t;
    if (round >= 10) { build.push(ours); plainBuild.push(plain); }
  }
  build.sort((a, b) => a - b);
  plainBuild.sort((a, b) => a - b);
  console.log(`\nindex build over the model (${corpus.entries.length} entries, ${build.length} builds each, alternating)`);
  console.log(`  ours:     createSearchIndex (tokenizer, folding, stems, compound parts)  p50 ${ms(percentile(build, 50))}  p95 ${ms(percentile(build, 95))}`);
  console.log(`  baseline: plain MiniSearch over the same documents                     p50 ${ms(percentile(plainBuild, 50))}  p95 ${ms(percentile(plainBuild, 95))}`);
  console.log(`  ratio (p50): ${ratio(percentile(build, 50), percentile(plainBuild, 50))} (target ≤ 2×)`);

  // Would a prebuilt index (MiniSearch's toJSON at build time, loadJSON at start) be cheaper?
  const options = { fields: [...SEARCH_FIELDS], storeFields: [], tokenize, processTerm: indexTerms };
  const built = new MiniSearch(options);
  built.addAll(documents);
  const saved = JSON.stringify(built);
  const atStart: number[] = [];
  const loaded: number[] = [];
  for (let round = 0; round < 40; round++) {
    let t = performance.now();
    createSearchIndex(corpus);
    const ours = performance.now() - t;
    t = performance.now();
    MiniSearch.loadJSON(saved, options);
    const load = performance.now() - t;
    if (round >= 10) { atStart.push(ours); loaded.push(load); }
  }
  atStart.sort((a, b) => a - b);
  loaded.sort((a, b) => a - b);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`\nprebuilt corpus index (${atStart.length} runs each, alternating)`);
  console.log(`  ours:     createSearchIndex at start                p50 ${ms(percentile(atStart, 50))}  p95 ${ms(percentile(atStart, 95))}`);
  console.log(`  baseline: MiniSearch.loadJSON of a toJSON index     p50 ${ms(percentile(loaded, 50))}  p95 ${ms(percentile(loaded, 95))}`);
  console.log(`  ratio (p50): ${ratio(percentile(atStart, 50), percentile(loaded, 50))}`);
  console.log(`  size: index JSON ${kb(saved.length)} (gzip ${kb(gzipSync(saved).length)}) beside corpus.json ${kb(json.length)} (gzip ${kb(gzipSync(json).length)})`);

  const index = createSearchIndex(corpus);
  const scan = linearScan(corpus.entries);
  const prefixes = QUERIES.flatMap((q) => [...q].map((_, i) => q.slice(0, i + 1)));
  for (const p of prefixes) { index.search(p); scan(p); }
  const oursQ: number[] = [];
  const baseQ: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const p of prefixes) {
      let t = performance.now();
      index.search(p, 50);
      oursQ.push(performance.now() - t);
      t = performance.now();
      scan(p);
      baseQ.push(performance.now() - t);
    }
  }
  oursQ.sort((a, b) => a - b);
  baseQ.sort((a, b) => a - b);
  console.log(`\nsearch per keystroke (${oursQ.length} samples each)`);
  console.log(`  ours:     MiniSearch (prefix, fuzzy, filters, boosts)  p50 ${ms(percentile(oursQ, 50))}  p95 ${ms(percentile(oursQ, 95))}`);
  console.log(`  baseline: linear substring scan                        p50 ${ms(percentile(baseQ, 50))}  p95 ${ms(percentile(baseQ, 95))}`);
  console.log(`  ratio (p50): ${ratio(percentile(oursQ, 50), percentile(baseQ, 50))}`);
  console.log(`  ratio (p95): ${ratio(percentile(oursQ, 95), percentile(baseQ, 95))}`);
  console.log(`  target p95 ≤ 5 ms: ${percentile(oursQ, 95) <= 5 ? 'met' : 'NOT met'}`);

  await serverBench();
}

// Errors fail the bench; timings never do.
main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
