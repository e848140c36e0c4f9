/**
 * The corpus the benches measure: the compiled `dist/corpus.json`, padded with generated field
 * entries (`test/unit/generatedCorpus.ts`) to `BENCH_CORPUS_SIZE` entries (default 3,000, the
 * size issue 26 asks for) while the real corpus is smaller; the real corpus alone once it holds
 * that many. A language server started by a bench reads it from a scratch copy of `dist/` (the
 * built server and `csl.js` beside this `corpus.json`, the CSL folder linked), so the real
 * `dist/` is never written.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CorpusData } from '../src/core/corpus/model.js';
import { corpusOfSize, FIELD_SIZE } from '../test/unit/generatedCorpus.js';

const ROOT = join(__dirname, '..');

/** The benches' corpus (see the module comment). */
export interface BenchCorpus {
  data: CorpusData;
  /** `data` as `corpus.json` holds it. */
  json: string;
  /** Entries of the real corpus, and generated ones after them. */
  real: number;
  generated: number;
  /** Says what the corpus is, for the bench's first line. */
  describe(): string;
}

let cached: BenchCorpus | undefined;

/** The benches' corpus, made once per process. */
export function benchCorpus(): BenchCorpus {
  if (cached) return cached;
  const size = Math.max(1, Number(process.env.BENCH_CORPUS_SIZE) || FIELD_SIZE);
  const real = JSON.parse(readFileSync(join(ROOT, 'dist/corpus.json'), 'utf8')) as CorpusData;
  const data = corpusOfSize(real, size);
  const generated = data.entries.length - real.entries.length;
  return (cached = {
    data, json: JSON.stringify(data), real: real.entries.length, generated,
    describe: () => (generated
      ? `${data.entries.length} entries (${real.entries.length} real, ${generated} generated field entries: test/unit/generatedCorpus.ts; BENCH_CORPUS_SIZE=${size})`
      : `${data.entries.length} entries (the real corpus)`),
  });
}

/**
 * A scratch copy of `dist/` whose `corpus.json` is {@link benchCorpus}'s: `server.js` and `csl.js`
 * copied, `../csl` linked to the package's CSL folder. Removed by `dispose`.
 *
 * @returns the scratch `dist/` folder (its `server.js` is the server to spawn)
 */
export function benchDist(): { dist: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'mlsys-papers-bench-dist-'));
  const dist = join(root, 'dist');
  mkdirSync(dist);
  for (const f of ['server.js', 'csl.js']) if (existsSync(join(ROOT, 'dist', f))) copyFileSync(join(ROOT, 'dist', f), join(dist, f));
  writeFileSync(join(dist, 'corpus.json'), benchCorpus().json);
  symlinkSync(join(ROOT, 'csl'), join(root, 'csl'));
  return { dist, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
