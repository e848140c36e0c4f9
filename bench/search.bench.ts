/**
 * `npm run bench`: first-search and per-keystroke search latency over the real corpus, each beside
 * a baseline measured in the same run, printed as ratios.
 *
 * - Load: what the first search pays (parse the compiled `dist/corpus.json`, build the model and
 *   the MiniSearch index; activation itself parses and builds the model, the index waits for the
 *   first search) against the baseline of validating the YAML corpus instead.
 * - Index build: `createSearchIndex` over the model against plain MiniSearch (its own tokenizer and
 *   term processing) indexing the same documents (`searchDocuments`), run alternately; the target
 *   is under 2× (what our tokenizer, folding, stems and compound parts may cost).
 * - Prebuilt index: building the corpus index at start against loading one built with
 *   MiniSearch's `toJSON` (`MiniSearch.loadJSON`), and what that JSON would add to the package.
 * - Search: our index against a linear scan (substring match of every query word over each entry's
 *   text, ranked by hit count), for queries typed one keystroke at a time.
 * - Server (`server.bench.ts`): the language server's start to first answer against activation plus
 *   the first search in-process (both from a cold Node process), and its per-request round-trip
 *   against the same search in-process.
 *
 * Timings are wall-clock (`performance.now()`), after a warm-up, on whatever the machine is doing:
 * read the ratios, not the absolute numbers.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCorpus, type CorpusData } from '../src/core/corpus/readCorpus.js';
import { loadCorpusDir } from '../src/host/node/readCorpusFiles.js';
import MiniSearch from 'minisearch';
import { createSearchIndex, indexTerms, SEARCH_FIELDS, searchDocuments, tokenize } from '../src/core/search/corpusSearch.js';
import { displayName } from '../src/core/cite/names.js';
import type { CorpusEntry, Entry } from '../src/core/corpus/schema.js';
import { percentile, QUERIES } from './common.js';
import { serverBench } from './server.bench.js';

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

async function main(): Promise<void> {
  const jsonPath = join(ROOT, 'dist/corpus.json');
  const json = readFileSync(jsonPath, 'utf8');
  const data = JSON.parse(json) as CorpusData;
  console.log(`MLSys Papers benchmark: ${data.entries.length} entries, ${QUERIES.length} queries typed one keystroke at a time`);

  // Warm up both paths.
  for (let i = 0; i < 5; i++) { createSearchIndex(buildCorpus(JSON.parse(json) as CorpusData)); loadCorpusDir(join(ROOT, 'corpus')); }
  const ours = time(() => createSearchIndex(buildCorpus(JSON.parse(json) as CorpusData)).search('x'), 30);
  const yaml = time(() => { const l = loadCorpusDir(join(ROOT, 'corpus')); createSearchIndex(buildCorpus(l.data)).search('x'); }, 30);
  console.log('\nload + index (what the first search pays)');
  console.log(`  ours:     compiled JSON + model + index   p50 ${ms(percentile(ours, 50))}  p95 ${ms(percentile(ours, 95))}`);
  console.log(`  baseline: validate YAML + model + index   p50 ${ms(percentile(yaml, 50))}  p95 ${ms(percentile(yaml, 95))}`);
  console.log(`  ratio (p50): ${ratio(percentile(ours, 50), percentile(yaml, 50))}`);

  const corpus = buildCorpus(data);
  const documents = searchDocuments(corpus);
  const plainMiniSearch = () => new MiniSearch({ fields: [...SEARCH_FIELDS], storeFields: [] }).addAll(documents);
  const build: number[] = [];
  const plainBuild: number[] = [];
  for (let round = 0; round < 70; round++) {
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
  console.log(`  ratio (p50): ${ratio(percentile(build, 50), percentile(plainBuild, 50))} (target < 2×)`);

  // Would a prebuilt index (MiniSearch's toJSON at build time, loadJSON at start) be cheaper?
  const options = { fields: [...SEARCH_FIELDS], storeFields: [], tokenize, processTerm: indexTerms };
  const built = new MiniSearch(options);
  built.addAll(documents);
  const saved = JSON.stringify(built);
  const atStart: number[] = [];
  const loaded: number[] = [];
  for (let round = 0; round < 70; round++) {
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
  console.log(`  size: index JSON ${kb(saved.length)} (gzip ${kb(gzipSync(saved).length)}) beside dist/corpus.json ${kb(json.length)} (gzip ${kb(gzipSync(json).length)})`);

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

  await serverBench();
}

// Errors fail the bench; timings never do.
main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
