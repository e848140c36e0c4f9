// Bundles the activation bench (bench/activation.bench.ts) into dist-test/bench-activation.js.
// It measures the built extension and server (dist/extension.js, dist/server.js), so build those
// first:  node scripts/build.mjs && node bench/build-activation.mjs && node dist-test/bench-activation.js
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

for (const f of ['dist/extension.js', 'dist/server.js']) {
  if (!existsSync(f)) console.warn(`build-activation: ${f} is missing; the bench needs \`npm run build\` first`);
}
await build({
  entryPoints: ['bench/activation.bench.ts'], outfile: 'dist-test/bench-activation.js',
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning',
});
