#!/usr/bin/env node
// The corpus tool (scripts/corpus/README.md): bundles scripts/corpus/main.ts with esbuild into
// dist-test/ and runs it with the arguments given. A development tool: `npm run build` never uses it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const outfile = join(root, 'dist-test/corpus-tool.js');
await build({
  entryPoints: [join(root, 'scripts/corpus/main.ts')], outfile, bundle: true, platform: 'node', target: 'node20',
  format: 'cjs', sourcemap: true, logLevel: 'warning',
});
const r = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
