#!/usr/bin/env node
// Bundles scripts/checks/measure.ts (the core, in TypeScript) with esbuild into dist-test/ and runs it:
//   node scripts/checks/measure.mjs --mirror /work/.mirror [--corpus DIR]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const outfile = join(repo, 'dist-test/checks-measure.cjs');
await esbuild.build({ entryPoints: [join(repo, 'scripts/checks/measure.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, MLSYS_REPO: repo } });
process.exit(r.status ?? 1);
