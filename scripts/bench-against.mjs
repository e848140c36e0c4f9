#!/usr/bin/env node
// Before and after in one run: runs the benches of an earlier commit and of this tree on the same
// machine, interleaved (A B B A ...), so that a load that comes and goes falls on both sides alike.
//
//   node scripts/bench-against.mjs <commit> [--suite bench|scale|both] [--rounds N] [--own-corpus] [-- <bench:scale sizes>]
//
// The earlier commit is checked out with `git worktree add --detach` under the system's temporary
// folder (mlsys-bench-<sha>) and installed with `npm ci` there; nothing is written to this tree but
// its own dist/ and dist-test/ builds. Each side runs its own bench code (the benches changed with the
// code they measure), so only what both print under the same label is compared: every line whose text
// is the same once its numbers are taken out is paired, and each timing or size on it (ms, s, MB, KB)
// is printed as after ÷ before. Each side's full output is printed too, labelled.
//
// Both sides measure the same corpus: this tree's compiled `dist/corpus.json` is copied over the
// earlier commit's after its build (the corpus grew by itself; a bench of the code should not
// count that), unless `--own-corpus` is given.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const own = dash < 0 ? args : args.slice(0, dash);
const scaleArgs = dash < 0 ? [] : args.slice(dash + 1);
const ref = own.find((a, i) => !a.startsWith('--') && !['--suite', '--rounds'].includes(own[i - 1] ?? ''));
const option = (name, fallback) => {
  const i = own.indexOf(name);
  return i >= 0 && own[i + 1] ? own[i + 1] : fallback;
};
const suite = option('--suite', 'both');
const ownCorpus = own.includes('--own-corpus');
const rounds = Math.max(1, Number(option('--rounds', '1')) || 1);
if (!ref || !['bench', 'scale', 'both'].includes(suite)) {
  console.error('usage: node scripts/bench-against.mjs <commit> [--suite bench|scale|both] [--rounds N] [--own-corpus] [-- <bench:scale sizes>]');
  process.exit(2);
}

const git = (...a) => execFileSync('git', a, { encoding: 'utf8' }).trim();
const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
const head = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain', '--', 'src', 'bench', 'scripts') ? ' + uncommitted changes' : '';
const baseDir = join(tmpdir(), `mlsys-bench-${sha.slice(0, 12)}`);

function run(cmd, argv, cwd, capture = false) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    if (capture) process.stdout.write(r.stdout ?? '');
    console.error(`bench-against: ${cmd} ${argv.join(' ')} failed in ${cwd} (exit ${r.status})`);
    process.exit(1);
  }
  return r.stdout ?? '';
}

if (!existsSync(baseDir)) git('worktree', 'add', '--detach', baseDir, sha);
if (!existsSync(join(baseDir, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund'], baseDir);

const sides = [
  { name: 'before', what: `${sha.slice(0, 10)}`, dir: baseDir },
  { name: 'after', what: `${head.slice(0, 10)}${dirty}`, dir: process.cwd() },
];
const suites = suite === 'both' ? ['bench', 'scale'] : [suite];
for (const s of sides) {
  if (suites.includes('bench')) run(process.execPath, ['scripts/build.mjs'], s.dir);
  if (suites.includes('scale')) run(process.execPath, ['bench/build-scale.mjs'], s.dir);
}
if (suites.includes('bench') && !ownCorpus) {
  copyFileSync(join(process.cwd(), 'dist', 'corpus.json'), join(baseDir, 'dist', 'corpus.json'));
  console.log(`bench-against: both sides measure this tree's dist/corpus.json (--own-corpus: each its own)`);
}

const commands = {
  bench: ['--expose-gc', 'dist-test/bench.js'],
  scale: ['--expose-gc', '--max-old-space-size=8192', 'dist-test/bench-scale.js', ...scaleArgs],
};
/** Numbers with a unit of time or size: what may be compared across the two sides. */
const MEASURE = /(\d+(?:\.\d+)?)\s?(ms|s|MB|KB)\b/g;
const keyOf = (line) => line.replace(/\d+(?:[.,]\d+)*/g, '#').replace(/\s+/g, ' ').trim();

for (const name of suites) {
  const outputs = { before: [], after: [] };
  for (let round = 0; round < rounds; round++) {
    // A B, then B A: neither side always runs first.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      console.log(`\n═══ ${name}, round ${round + 1}/${rounds}: ${s.name} (${s.what})`);
      const out = run(process.execPath, commands[name], s.dir, true);
      process.stdout.write(out);
      outputs[s.name].push(out);
    }
  }
  console.log(`\n═══ ${name}: after ÷ before, lines both print (${rounds} round${rounds > 1 ? 's' : ''}; the median of the rounds on each side)`);
  const table = (outs) => {
    const lines = new Map();
    for (const out of outs) {
      const seen = new Map();
      for (const line of out.split('\n')) {
        const values = [...line.matchAll(MEASURE)].map((m) => [Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'MB' ? 1024 : 1), m[2]]);
        if (!values.length) continue;
        const key = keyOf(line);
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        const k = `${key}\u0000${n}`;
        if (!lines.has(k)) lines.set(k, { line: line.trim(), runs: [] });
        lines.get(k).runs.push(values);
      }
    }
    return lines;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const before = table(outputs.before);
  const after = table(outputs.after);
  let paired = 0;
  for (const [k, a] of after) {
    const b = before.get(k);
    if (!b || b.runs[0].length !== a.runs[0].length) continue;
    paired++;
    const ratios = a.runs[0].map((_, i) => {
      const x = median(a.runs.map((r) => r[i][0]));
      const y = median(b.runs.map((r) => r[i][0]));
      return y > 0 ? `×${(x / y).toFixed(2)}` : '—';
    });
    console.log(`  ${ratios.join(' ').padEnd(24)} ${a.line.slice(0, 110)}`);
  }
  console.log(`  (${paired} lines paired; lines only one side prints are left out)`);
}
