/**
 * `npm run bench:scale`: the user's own library at scale. For generated `.bib` libraries of 10,000
 * and 100,000 entries (`library/generate.ts`: Beebe's real TeX bibliographies plus seeded
 * synthetic ML-systems papers, written to the temp folder), measured in one run beside peers that
 * parse the same text:
 *
 * - cold load-to-searchable: `loadLibrary` from the text to a searchable index (also sliced, as the
 *   language server runs it: the read and index phases, the longest slice, the peak heap);
 * - cached reopen: what a reopen of an unchanged file costs: sha256 of its text, read the cache
 *   file, `libraryFromJson`; and the cache file's size against the library's (target: no larger);
 * - peers: `@retorquere/bibtex-parser` (Better BibTeX's parser) in its default mode and with
 *   `{ raw: true }`, and LaTeX Workshop's `latex-utensils`; printed as ratios ours ÷ peer;
 * - per-keystroke search latency (p50/p95/max) for queries typed one keystroke at a time, right
 *   after the first load (before the peers fill this process's heap);
 * - memory: heap growth and peak RSS of a fresh CLI-like process that loads the file
 *   (`library/peak-rss.ts`), and heap and RSS in this process after a load;
 * - a CSL-JSON library of the same size (synthetic papers only), for the CSL reader.
 *
 * A peer that would take too long at 100,000 entries is not run there (Better BibTeX's default
 * parse takes minutes) unless `MLSYS_BENCH_FULL=1`: its time is extrapolated linearly in the text
 * length from the 10,000-entry run, and the output says so. `MLSYS_BENCH_SEED` sets the seed.
 *
 * Usage: node --expose-gc dist-test/bench-scale.js [<entries> …]   (default: 10000 100000)
 *
 * Timings are wall-clock on whatever the machine is doing: read the ratios, not the absolute numbers.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parse as bbtParse } from '@retorquere/bibtex-parser';
import { bibtexParser } from 'latex-utensils';
import { libraryFromJson, libraryJsonPieces } from '../src/core/library/libraryCacheFormat.js';
import { LibraryLoader, loadLibrary, type LoadedLibrary } from '../src/core/library/loadLibrary.js';
import { parseQuery } from '../src/core/search/queryLanguage.js';
import { percentile } from './common.js';
import { generateCslJson, generateLibrary, libraryMix } from './library/generate.js';
import { problemMessage } from '../src/core/text/problemText.js';

const SEED = Number(process.env.MLSYS_BENCH_SEED ?? 20240601);
const FULL = process.env.MLSYS_BENCH_FULL === '1';
const DIR = join(tmpdir(), 'mlsys-bench');
/** Hits asked per keystroke (what a completion list or the search box shows at most). */
const LIMIT = 50;
const KEYSTROKE_REPS = 20;
/** Repetitions of the cheap measurements (our loads, a peer that takes under {@link REPEAT_UNDER_MS}). */
const ROUNDS = 3;
const REPEAT_UNDER_MS = 10_000;
/** A peer estimated to take longer than this at a size is extrapolated there (unless `MLSYS_BENCH_FULL=1`). */
const PEER_BUDGET_MS = 90_000;
/** The language server's slice length, for the sliced load. */
const SLICE_MS = 20;

/** Queries typed one keystroke at a time (`p`, `pa`, `pag`, …). */
const TYPED = ['paged attention', 'author:kwon', 'year:2023 serving', '分布式训练', 'tex', 'typesetting', 'distributed training pipeline'];

/** The targets of the issue, at 100,000 entries. */
const TARGETS = { coldVsBbt: 1.0, cachedVsBbt: 0.25, keystrokeP95: 20, keystrokeMax: 50, cliPeakRssMb: 600, heapGrowthMb: 250, cacheVsLibrary: 1.0 };

/** What was bundled (set by `build-scale.mjs`): src is edited while benches run, so say which. */
declare const __BENCH_SOURCE__: string | undefined;
const SOURCE = typeof __BENCH_SOURCE__ === 'string' ? __BENCH_SOURCE__ : 'unknown source';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Formatting

const secs = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
const msec = (ms: number) => `${ms.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const num = (n: number) => n.toLocaleString('en-US');
const times = (r: number) => `${r < 0.1 ? r.toFixed(3) : r.toFixed(2)}×`;
/** Pads to `n` columns as a terminal shows them (a Chinese character takes two). */
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - [...s].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(c) ? 2 : 1), 0)));
const lpad = (s: string, n: number) => s.padStart(n);
const median = (xs: readonly number[]) => percentile([...xs].sort((a, b) => a - b), 50);

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // ignored: the version is only printed.
    return '?';
  }
}

// ---------------------------------------------------------------------------------------------
// Peers

interface Peer {
  id: string;
  label: string;
  /** Parses the text; returns how many entries it read and how many errors it reported. */
  run(text: string): { entries: number; errors: number };
  /** Run above the smallest size only with `MLSYS_BENCH_FULL=1`, whatever its estimate. */
  fullOnly?: boolean;
}

const PEERS: Peer[] = [
  {
    id: 'bbt', label: 'BBT parse(text)', fullOnly: true,
    run: (t) => { const l = bbtParse(t); return { entries: l.entries.length, errors: l.errors.length }; },
  },
  {
    id: 'bbt-raw', label: 'BBT parse(text, { raw: true })',
    run: (t) => { const l = bbtParse(t, { raw: true }); return { entries: l.entries.length, errors: l.errors.length }; },
  },
  {
    id: 'lu', label: 'latex-utensils bibtexParser.parse',
    run: (t) => { const l = bibtexParser.parse(t); return { entries: l.content.filter(bibtexParser.isEntry).length, errors: 0 }; },
  },
];

/** A peer's time at one size: measured samples, or an estimate from a smaller size. */
interface PeerTiming {
  samples: number[];
  entries?: number;
  errors?: number;
  estimatedFrom?: { n: number; ms: number; factor: number };
}

// ---------------------------------------------------------------------------------------------
// Measurements

/** One cold load with the heap before and after (after a GC, when `--expose-gc` is on). */
function coldLoad(text: string, ref: { uri: string; name: string }): { ms: number; lib: LoadedLibrary; heapGrowth: number; rss: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const t = performance.now();
  const lib = loadLibrary(text, 'bibtex', ref);
  const ms = performance.now() - t;
  gc();
  const mem = process.memoryUsage();
  return { ms, lib, heapGrowth: mem.heapUsed - before, rss: mem.rss };
}

/** One cached reopen: sha256 of the text, read the cache file, restore. */
function cachedReopen(text: string, cacheFile: string, ref: { uri: string; name: string }): { ms: number; lib: LoadedLibrary; heapGrowth: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const t = performance.now();
  createHash('sha256').update(text).digest('hex');
  const lib = libraryFromJson(readFileSync(cacheFile, 'utf8'), ref);
  const ms = performance.now() - t;
  if (!lib) throw new Error(`libraryFromJson refused ${cacheFile}`);
  gc();
  return { ms, lib, heapGrowth: process.memoryUsage().heapUsed - before };
}

/** The load as the language server runs it: slices of {@link SLICE_MS}, time per phase, longest slice, peak heap seen. */
function slicedLoad(text: string, format: 'bibtex' | 'csl-json', ref: { uri: string; name: string }) {
  gc();
  const t0 = performance.now();
  const loader = new LibraryLoader(text, format, ref);
  const construct = performance.now() - t0;
  const phase = { read: construct, index: 0 };
  let longest = construct;
  let longestAt = 'the constructor';
  let slices = 0;
  let peakHeap = process.memoryUsage().heapUsed;
  for (;;) {
    const at = loader.progress;
    const s = performance.now();
    const done = loader.step(() => performance.now() - s > SLICE_MS);
    const d = performance.now() - s;
    phase[at.phase] += d;
    if (d > longest) {
      longest = d;
      longestAt = done ? 'the last slice' : `${at.phase} at ${num(at.done)}`;
    }
    slices++;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (done) break;
  }
  return { total: performance.now() - t0, construct, phase, longest, longestAt, slices, peakHeap, entries: loader.result().entries.length };
}

/** Every keystroke of `q`: `p`, `pa`, … `paged attention` (by code point). */
function keystrokes(q: string): string[] {
  const chars = [...q];
  return chars.map((_, i) => chars.slice(0, i + 1).join(''));
}

interface KeystrokeStats {
  query: string;
  samples: number[];
  hits: number;
  worst: { prefix: string; ms: number };
}

/** Types each query one keystroke at a time, {@link KEYSTROKE_REPS} times over (the first pass cold, as a user would). */
function typeQueries(lib: LoadedLibrary): KeystrokeStats[] {
  const stats: KeystrokeStats[] = TYPED.map((query) => ({ query, samples: [], hits: 0, worst: { prefix: '', ms: 0 } }));
  gc();
  for (let rep = 0; rep < KEYSTROKE_REPS; rep++) {
    for (const s of stats) {
      for (const prefix of keystrokes(s.query)) {
        const t = performance.now();
        const hits = lib.index.search(parseQuery(prefix), LIMIT);
        const d = performance.now() - t;
        s.samples.push(d);
        if (d > s.worst.ms) s.worst = { prefix, ms: d };
        if (prefix === s.query) s.hits = hits.length;
      }
    }
  }
  for (const s of stats) s.samples.sort((a, b) => a - b);
  return stats;
}

/** Runs `library/peak-rss.ts` in a fresh Node process (cold, or from `cache`): its time and peak RSS. */
function cliRun(file: string, cache?: string): { ms: number; maxRss: number; entries: number } | { error: string } {
  const script = join(__dirname, 'bench-scale-rss.js');
  const r = spawnSync(process.execPath, [script, file, ...(cache ? [cache] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) return { error: (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ') };
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; maxRssKb: number; entries: number };
  return { ms: out.ms, maxRss: out.maxRssKb * 1024, entries: out.entries };
}

/** Checks of the results (not timings): wrong answers are defects, whatever the speed. */
function checks(lib: LoadedLibrary, cached: LoadedLibrary, n: number): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string, got: string) => out.push(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${got}`);
  check(lib.entries.length === n, `all ${num(n)} entries read`, `${num(lib.entries.length)}, ${lib.file.problems!.length} problems${lib.file.problems!.length ? ` (first: line ${lib.file.problems![0]!.line}: ${problemMessage(lib.file.problems![0]!)})` : ''}`);
  const q = (s: string) => lib.index.search(parseQuery(s), LIMIT);
  const kwon = q('author:kwon');
  check(kwon.length > 0 && kwon.every((h) => h.entry.authors.some((a) => /kwon/i.test('family' in a ? a.family : a.literal))), 'author:kwon finds entries, each with an author Kwon', `${kwon.length} hits`);
  const y = q('year:2023 serving');
  check(y.length > 0 && y.every((h) => h.entry.year === 2023), 'year:2023 serving finds entries, each of 2023', `${y.length} hits`);
  for (const word of ['分布式训练', '分布式', '训练']) {
    const titles = lib.entries.filter((e) => e.title.includes(word)).length;
    const zh = q(word);
    check(zh.length === Math.min(LIMIT, titles) && zh.every((h) => h.entry.title.includes(word)), `${word} finds the titles that contain it`, `${zh.length} hits (${num(titles)} titles contain it)`);
  }
  const paged = q('paged attention');
  check(paged.length > 0 && /paged attention/i.test(paged[0]!.entry.title), 'paged attention ranks a title with the phrase first', `${paged.length} hits, first "${paged[0]?.entry.title ?? '-'}"`);
  const copy = lib.entries.find((e) => /-c2$/.test(e.key));
  if (copy) check(lib.index.entry(copy.key) === copy, 'a re-keyed copy is found by its key', copy.key);
  const same = TYPED.filter((t) => q(t).map((h) => h.entry.key).join() === cached.index.search(parseQuery(t), LIMIT).map((h) => h.entry.key).join());
  check(same.length === TYPED.length, 'the cached index answers like the fresh one', `${same.length} of ${TYPED.length} queries`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// One size

interface SizeResult {
  n: number;
  chars: number;
  cold: number[];
  cached: number[];
  peers: Map<string, PeerTiming>;
  keys: KeystrokeStats[];
  all: number[];
  heapGrowthCold: number;
  cli?: ReturnType<typeof cliRun>;
  /** The library's size and its cache file's, in bytes (UTF-8; the cache is Latin-1, a byte a character). */
  libraryBytes: number;
  cacheBytes: number;
}

function measureSize(n: number, smaller: SizeResult | undefined): SizeResult {
  mkdirSync(DIR, { recursive: true });
  const mix = libraryMix(n);
  let t = performance.now();
  const text = generateLibrary(n, SEED);
  const genMs = performance.now() - t;
  const file = join(DIR, `library-${n}-s${SEED}.bib`);
  const cacheFile = join(DIR, `library-${n}-s${SEED}.cache.json`);
  writeFileSync(file, text);
  const ref = { uri: pathToFileURL(file).href, name: `library-${n}.bib` };
  console.log(`\n── ${num(n)} entries: ${num(mix.real)} Beebe (${num(mix.copies)} of them re-keyed copies) + ${num(mix.synthetic)} synthetic, ${(Buffer.byteLength(text) / MB).toFixed(1)} MB, generated in ${secs(genMs)}`);
  console.log(`   ${file}`);

  // Which peers run here, which are extrapolated.
  const peerTimes = new Map<string, PeerTiming>();
  const runPeer = new Map<string, boolean>();
  for (const p of PEERS) {
    const prev = smaller?.peers.get(p.id);
    const prevMs = prev ? median(prev.samples) : undefined;
    const factor = smaller ? text.length / smaller.chars : 1;
    const estimate = prevMs === undefined ? undefined : prevMs * factor;
    const run = !smaller || FULL || (!p.fullOnly && estimate !== undefined && estimate <= PEER_BUDGET_MS);
    runPeer.set(p.id, run);
    peerTimes.set(p.id, run ? { samples: [] } : { samples: [estimate!], estimatedFrom: { n: smaller!.n, ms: prevMs!, factor } });
  }

  const cold: number[] = [];
  const cached: number[] = [];
  const heapCold: number[] = [];
  const heapCached: number[] = [];
  let rssAfter = 0;
  let lib: LoadedLibrary | undefined;
  let cachedLib: LoadedLibrary | undefined;
  let sliced: ReturnType<typeof slicedLoad> | undefined;
  let cacheInfo = { bytes: 0, ms: 0, longestPiece: 0, pieces: 0 };
  let keys: KeystrokeStats[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    lib = undefined;
    const c = coldLoad(text, ref);
    lib = c.lib;
    cold.push(c.ms);
    heapCold.push(c.heapGrowth);
    rssAfter = Math.max(rssAfter, c.rss);
    if (round === 0) {
      // Typed right after the first load, as a user would: before the peers fill the heap.
      keys = typeQueries(lib);
      // As the language server writes it: in pieces (each one slice of its work), then the file.
      t = performance.now();
      const pieces: string[] = [];
      let longestPiece = 0;
      for (const it = libraryJsonPieces(lib); ;) {
        const s = performance.now();
        const r = it.next();
        longestPiece = Math.max(longestPiece, performance.now() - s);
        if (r.done) break;
        pieces.push(r.value);
      }
      const json = pieces.join('');
      writeFileSync(cacheFile, json);
      cacheInfo = { bytes: Buffer.byteLength(json), ms: performance.now() - t, longestPiece, pieces: pieces.length };
    }
    cachedLib = undefined;
    const r = cachedReopen(text, cacheFile, ref);
    cachedLib = r.lib;
    cached.push(r.ms);
    heapCached.push(r.heapGrowth);
    if (round === 0) sliced = slicedLoad(text, 'bibtex', ref);
    for (const p of PEERS) {
      const pt = peerTimes.get(p.id)!;
      if (!runPeer.get(p.id) || (round > 0 && pt.samples[0]! >= REPEAT_UNDER_MS)) continue;
      gc();
      const s = performance.now();
      const res = p.run(text);
      pt.samples.push(performance.now() - s);
      pt.entries = res.entries;
      pt.errors = res.errors;
    }
  }
  lib = lib!;
  sliced = sliced!;
  const checked = checks(lib, cachedLib!, n);
  cachedLib = undefined;

  const coldMs = median(cold);
  const cachedMs = median(cached);
  const col = (s: string) => lpad(s, 10);
  console.log(`   ${pad('', 44)}${col('median')}${col('runs')}  ${lpad('cold ÷ it', 11)}${lpad('cached ÷ it', 13)}`);
  console.log(`   ${pad('ours, cold: loadLibrary (text → searchable)', 44)}${col(secs(coldMs))}${col(String(cold.length))}`);
  console.log(`     sliced (${SLICE_MS} ms, as the server): read+convert ${secs(sliced.phase.read)} · index ${secs(sliced.phase.index)} · total ${secs(sliced.total)} in ${num(sliced.slices)} slices, longest ${secs(sliced.longest)} (${sliced.longestAt}) · peak heap ${mb(sliced.peakHeap)}`);
  console.log(`   ${pad('ours, cached: sha256 + read cache + fromJson', 44)}${col(secs(cachedMs))}${col(String(cached.length))}`);
  console.log(`     cache file ${(cacheInfo.bytes / MB).toFixed(1)} MB, written (libraryJsonPieces + write) in ${secs(cacheInfo.ms)}: ${num(cacheInfo.pieces)} pieces, the longest ${secs(cacheInfo.longestPiece)}`);
  for (const p of PEERS) {
    const pt = peerTimes.get(p.id)!;
    const ms = median(pt.samples);
    const runs = pt.estimatedFrom ? 'est.' : String(pt.samples.length);
    const est = pt.estimatedFrom ? '  *' : '';
    console.log(`   ${pad(p.label, 44)}${col(secs(ms))}${col(runs)}  ${lpad(times(coldMs / ms), 11)}${lpad(times(cachedMs / ms), 13)}${est}`);
    if (pt.estimatedFrom) {
      const e = pt.estimatedFrom;
      console.log(`     * not run at ${num(n)} (${p.fullOnly ? 'slow' : `over the ${secs(PEER_BUDGET_MS)} budget`}; MLSYS_BENCH_FULL=1 runs it): EXTRAPOLATED linearly in text length from ${secs(e.ms)} at ${num(e.n)} × ${e.factor.toFixed(2)}`);
    }
  }
  const read = PEERS.map((p) => peerTimes.get(p.id)!).map((pt, i) => (pt.entries === undefined ? undefined : `${PEERS[i]!.label.split(' ')[0]}${PEERS[i]!.id === 'bbt-raw' ? ' raw' : ''} ${num(pt.entries)}${pt.errors ? ` (${num(pt.errors)} errors)` : ''}`)).filter(Boolean);
  console.log(`   entries read: ours ${num(lib.entries.length)} (${lib.file.problems!.length} problems)${read.length ? ` · ${read.join(' · ')}` : ''}`);

  const all = keys.flatMap((k) => k.samples).sort((a, b) => a - b);
  console.log(`   per keystroke (limit ${LIMIT}, ${KEYSTROKE_REPS} passes, first pass cold)${lpad('p50', 14)}${lpad('p95', 10)}${lpad('max', 11)}  hits  slowest keystroke`);
  for (const k of keys) {
    const label = `${k.query} (${keystrokes(k.query).length} keys)`;
    console.log(`     ${pad(label, 50)}${lpad(msec(percentile(k.samples, 50)), 10)}${lpad(msec(percentile(k.samples, 95)), 10)}${lpad(msec(k.samples[k.samples.length - 1]!), 11)}${lpad(String(k.hits), 6)}  "${k.worst.prefix}"`);
  }
  console.log(`     ${pad(`all (${num(all.length)} keystrokes)`, 50)}${lpad(msec(percentile(all, 50)), 10)}${lpad(msec(percentile(all, 95)), 10)}${lpad(msec(all[all.length - 1]!), 11)}`);

  // Memory.
  const cliCold = cliRun(file);
  const cliCached = cliRun(file, cacheFile);
  const cliText = (r: ReturnType<typeof cliRun>) => ('error' in r ? `failed: ${r.error}` : `${mb(r.maxRss)} (${secs(r.ms)}, ${num(r.entries)} entries)`);
  console.log(`   memory: heap growth after a cold load ${mb(Math.max(...heapCold))}, after a cached reopen ${mb(Math.max(...heapCached))}${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: garbage included)'} · RSS of this process ${mb(rssAfter)}`);
  console.log(`   CLI process (fresh node, default heap) peak RSS: cold ${cliText(cliCold)} · cached ${cliText(cliCached)}`);

  // CSL-JSON of the same size.
  const csl = generateCslJson(n, SEED);
  gc();
  t = performance.now();
  JSON.parse(csl);
  const parseMs = performance.now() - t;
  const cslSliced = slicedLoad(csl, 'csl-json', { uri: pathToFileURL(join(DIR, `library-${n}.json`)).href, name: `library-${n}.json` });
  console.log(`   CSL-JSON (${num(n)} synthetic, ${(Buffer.byteLength(csl) / MB).toFixed(1)} MB): sliced load ${secs(cslSliced.total)} (JSON.parse of the whole text alone ${secs(parseMs)}; the loader parses element by element), constructor ${secs(cslSliced.construct)}; read ${secs(cslSliced.phase.read)}, index ${secs(cslSliced.phase.index)}, longest slice ${secs(cslSliced.longest)} (${cslSliced.longestAt}); ${num(cslSliced.entries)} entries`);

  for (const line of checked) console.log(`   check: ${line}`);
  return { n, chars: text.length, cold, cached, peers: peerTimes, keys, all, heapGrowthCold: Math.max(...heapCold), cli: cliCold, libraryBytes: Buffer.byteLength(text), cacheBytes: cacheInfo.bytes };
}

// ---------------------------------------------------------------------------------------------

function printTargets(r: SizeResult): void {
  const bbt = r.peers.get('bbt')!;
  const bbtMs = median(bbt.samples);
  const est = bbt.estimatedFrom ? ' (BBT EXTRAPOLATED)' : '';
  const rows: [string, string, boolean][] = [
    [`cold ≤ ${TARGETS.coldVsBbt.toFixed(1)}× BBT default parse`, `${times(median(r.cold) / bbtMs)}${est}`, median(r.cold) / bbtMs <= TARGETS.coldVsBbt],
    [`cached ≤ ${TARGETS.cachedVsBbt.toFixed(2)}× BBT default parse`, `${times(median(r.cached) / bbtMs)}${est}`, median(r.cached) / bbtMs <= TARGETS.cachedVsBbt],
    [`keystroke p95 ≤ ${TARGETS.keystrokeP95} ms`, msec(percentile(r.all, 95)), percentile(r.all, 95) <= TARGETS.keystrokeP95],
    [`keystroke max ≤ ${TARGETS.keystrokeMax} ms`, msec(r.all[r.all.length - 1]!), r.all[r.all.length - 1]! <= TARGETS.keystrokeMax],
  ];
  const cli = r.cli;
  if (cli && !('error' in cli)) rows.push([`CLI peak RSS ≤ ${TARGETS.cliPeakRssMb} MB`, mb(cli.maxRss), cli.maxRss <= TARGETS.cliPeakRssMb * MB]);
  else rows.push([`CLI peak RSS ≤ ${TARGETS.cliPeakRssMb} MB`, 'failed', false]);
  rows.push([`heap growth ≤ ${TARGETS.heapGrowthMb} MB (cold load, after GC)`, mb(r.heapGrowthCold), r.heapGrowthCold <= TARGETS.heapGrowthMb * MB]);
  rows.push([`cache file ≤ ${TARGETS.cacheVsLibrary.toFixed(1)}× the library`, `${times(r.cacheBytes / r.libraryBytes)} (${(r.cacheBytes / MB).toFixed(1)} of ${(r.libraryBytes / MB).toFixed(1)} MB)`, r.cacheBytes <= TARGETS.cacheVsLibrary * r.libraryBytes]);
  console.log(`\n── Targets (defined at 100,000 entries; here at ${num(r.n)})`);
  for (const [what, value, ok] of rows) console.log(`   ${pad(what, 46)}${pad(value, 30)}${ok ? 'PASS' : 'MISS'}`);
}

function main(): void {
  const asked = process.argv.slice(2).map(Number).filter((x) => Number.isInteger(x) && x >= 2);
  // The smallest size is the peers' reference for extrapolation, so 10,000 always runs first.
  const sizes = [...new Set([10_000, ...(asked.length ? asked : [100_000])])].sort((a, b) => a - b);
  console.log(`MLSys Papers scale benchmark: libraries of ${sizes.map(num).join(' and ')} entries, seed ${SEED}, Node ${process.version}, ${cpus().length} CPUs${FULL ? ', MLSYS_BENCH_FULL=1' : ''}`);
  console.log(`built from ${SOURCE}`);
  console.log(`peers: BBT = @retorquere/bibtex-parser ${version('@retorquere/bibtex-parser')} (Better BibTeX's parser). parse(text), its default: every field parsed as LaTeX`);
  console.log('         and converted to Unicode, names split, English titles sentence-cased. parse(text, { raw: true }): fields still parsed as LaTeX,');
  console.log('         names still split, but values printed back as written (no Unicode conversion, no sentence case).');
  console.log(`       latex-utensils ${version('latex-utensils')} (LaTeX Workshop): bibtexParser.parse(text), a syntax tree of entries and fields, values unconverted.`);
  if (!(globalThis as { gc?: unknown }).gc) console.log('note: run with node --expose-gc for heap numbers without garbage');
  let smaller: SizeResult | undefined;
  let last: SizeResult | undefined;
  for (const n of sizes) {
    last = measureSize(n, smaller);
    smaller ??= last;
  }
  printTargets(last!);
}

try {
  main();
} catch (e) {
  // Errors fail the bench; timings never do.
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
}
