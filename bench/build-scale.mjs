// Bundles the scale bench (`npm run bench:scale`): bench/scale.bench.ts and the fresh process it
// spawns for peak RSS (bench/library/peak-rss.ts), into dist-test/. Separate from scripts/build.mjs
// so that the main build does not pull in the peers (Better BibTeX's parser, latex-utensils).
// The bench prints which source it was built from (the commit, and a digest of the library code
// with any uncommitted changes), since timings are only comparable for the same code.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function sourceStamp() {
  let commit = 'no git';
  let dirty = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).trim() ? ' + uncommitted changes in src/' : '';
  } catch {
    // ignored: the stamp is only printed.
  }
  const dirs = ['src/core/search', 'src/core/search/corpus', 'src/core/search/library', 'src/core/library'];
  const files = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.ts')).sort().map((f) => join(d, f)));
  const digest = createHash('sha256');
  for (const f of files) digest.update(f).update(readFileSync(f));
  return `${commit}${dirty}; src/core/search/**/*.ts + src/core/library/*.ts sha256 ${digest.digest('hex').slice(0, 12)}, bundled ${new Date().toISOString()}`;
}

const common = {
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning',
  define: { __BENCH_SOURCE__: JSON.stringify(sourceStamp()) },
};
await Promise.all([
  build({ ...common, entryPoints: ['bench/scale.bench.ts'], outfile: 'dist-test/bench-scale.js' }),
  build({ ...common, entryPoints: ['bench/library/peak-rss.ts'], outfile: 'dist-test/bench-scale-rss.js' }),
]);
