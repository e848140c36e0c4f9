// Bundles the extension and the CLI with esbuild, validates and compiles the corpus, then bundles
// the browser build (which embeds the compiled corpus). Type checking is separate: `npm run typecheck`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { webExtensionOptions, webServerOptions } from './web-build.mjs';

const common = { bundle: true, platform: 'node', target: 'node18', format: 'cjs', sourcemap: true, logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: true }),
  // citeproc-js, loaded by the Node language server on the first formatted reference.
  build({ ...common, entryPoints: ['src/core/cite/citeproc.ts'], outfile: 'dist/csl.js', minify: true }),
  build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  // The language server (core/service over LSP), started by the extension's client over IPC.
  build({ ...common, entryPoints: ['src/host/node/nodeServerMain.ts'], outfile: 'dist/server.js', minify: true }),
  build({ ...common, entryPoints: ['bench/search.bench.ts'], outfile: 'dist-test/bench.js' }),
  build({ ...common, entryPoints: ['bench/coldSearch.ts'], outfile: 'dist-test/bench-cold.js', minify: true }),
]);
chmodSync('dist/cli.js', 0o755);
try {
  execFileSync(process.execPath, ['dist/cli.js', 'build-corpus', 'corpus', 'dist/corpus.json'], { stdio: 'inherit' });
} catch {
  console.error('build: the corpus is invalid (problems above)');
  process.exit(1);
}

// The browser build (package.json `browser`, options in web-build.mjs): no `node:` module may
// reach it (esbuild fails on one); its server gets the corpus compiled above from its client.
await Promise.all([build(webExtensionOptions), build(webServerOptions())]);
