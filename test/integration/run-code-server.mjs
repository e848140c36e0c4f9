// Runs the Mocha suite test/integration/suite/index.ts inside a real VS Code: code-server + chromium.
//   node test/integration/run-code-server.mjs [folder]       (folder defaults to a fresh copy of demo/)
// Env: MLSYS_VSIX — the packaged extension under test, installed as a user installs it; else
//      MLSYS_EXTENSION_PATH — its folder (default: the repo root);
//      MLSYS_SUITE_GREP — run only the tests whose full title matches (Mocha's grep);
//      MLSYS_SUITE_INVERT=1 — run only the tests whose title does not match MLSYS_SUITE_GREP;
//      MLSYS_RESULTS_TIMEOUT_MS — how long to wait for the suite (default: 7 min; one test loads a 100,000-entry library);
//      MLSYS_CODE_SERVER_DIR, MLSYS_CODE_SERVER_NODE_DIR — another code-server and the Node it runs on (read by
//      test/e2e/harness.ts; scripts/test-min-vscode.sh points them at code-server 4.90.3, VS Code 1.90).
// Needs scripts/setup-vscode-test.sh to have run. Prints one line per test, then `N passed, N failed`;
// exits 1 on any failure or timeout.
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = join(repo, 'dist-test/integration');
const RESULTS_TIMEOUT_MS = Number(process.env.MLSYS_RESULTS_TIMEOUT_MS ?? 420_000);

/** Compiles the suite into dist-test/integration/suite.js; `vscode` and `mocha` come from the extension host. */
export async function buildSuite() {
  const outfile = join(outDir, 'suite.js');
  await esbuild.build({
    entryPoints: [join(repo, 'test/integration/suite/index.ts')],
    outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode', 'mocha'], logLevel: 'warning',
  });
  return outfile;
}

/** The host's config: where the suite, the results and Mocha are (the host has no node_modules of its own). */
export function hostConfig(suite, results) {
  return { suite, results, mocha: join(repo, 'node_modules/mocha'), timeout: 20_000, ...(process.env.MLSYS_SUITE_GREP ? { grep: process.env.MLSYS_SUITE_GREP, invert: process.env.MLSYS_SUITE_INVERT === '1' } : {}) };
}

/** Prints the results as the host wrote them; returns the process exit code. */
export function report(results) {
  for (const t of results.tests ?? []) console.log(`  ${t.state === 'passed' ? '✓' : '✗'} ${t.title}`);
  for (const f of results.failures) console.log(`\n✗ ${f.title}\n${f.error.replace(/^/gm, '    ')}`);
  console.log(`${results.passed} passed, ${results.failed} failed`);
  return results.failed === 0 && results.passed > 0 ? 0 : 1;
}

async function main() {
  // The suite writes its scratch files inside the workspace (the extension writes nowhere else),
  // so by default it gets a fresh copy of the demo, not the repository's own demo/.
  const folder = process.argv[2] ? resolve(process.argv[2]) : await mkdtemp(join(tmpdir(), 'mlsys-integration-ws-'));
  if (!process.argv[2]) await cp(join(repo, 'demo'), folder, { recursive: true });
  const suite = await buildSuite();
  // The harness is TypeScript; bundle it beside the suite so that this script runs on plain Node.
  const harnessFile = join(outDir, 'harness.mjs');
  await esbuild.build({
    entryPoints: [join(repo, 'test/e2e/harness.ts')], outfile: harnessFile,
    bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning',
  });
  const h = await import(pathToFileURL(harnessFile).href);
  const extensionPath = h.extensionUnderTest();
  console.log(`extension under test: ${extensionPath}`);

  // A private copy of the host extension, with its config beside it.
  const tmp = await mkdtemp(join(tmpdir(), 'mlsys-integration-'));
  const hostDir = join(tmp, 'host');
  const resultsFile = join(tmp, 'results.json');
  await mkdir(hostDir);
  for (const f of ['package.json', 'extension.js']) await cp(join(repo, 'test/integration/host', f), join(hostDir, f));
  await writeFile(join(hostDir, 'test-config.json'), JSON.stringify(hostConfig(suite, resultsFile)));

  // On a signal, exit at once: the harness's exit handlers end code-server's process group and
  // playwright's end chromium; this one removes the temp folder.
  process.on('exit', () => {
    rmSync(tmp, { recursive: true, force: true });
    if (!process.argv[2]) rmSync(folder, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => { console.error(`interrupted by ${signal}`); process.exit(1); });
  }
  let server, browser, code = 1;
  try {
    const t0 = Date.now();
    server = await h.startCodeServer({ workspace: folder, extensionPaths: [extensionPath, hostDir] });
    const t1 = Date.now();
    browser = await h.launchBrowser();
    // The extension host only starts when a client connects.
    await h.openWorkbench(browser, server.url, folder);
    const t2 = Date.now();
    console.log(`code-server up in ${t1 - t0} ms, workbench loaded in ${t2 - t1} ms`);
    if (await h.waitForFile(resultsFile, RESULTS_TIMEOUT_MS)) {
      console.log(`suite finished ${Date.now() - t2} ms after the workbench loaded`);
      code = report(JSON.parse(await readFile(resultsFile, 'utf8')));
    } else {
      console.log(`no results after ${RESULTS_TIMEOUT_MS / 1000} s; extension host log:`);
      console.log(await extensionHostLog(server.userDataDir));
      console.log('0 passed, 0 failed');
    }
  } catch (err) {
    console.error(err);
    console.log('0 passed, 0 failed');
  } finally {
    await browser?.close();
    await server?.stop();
  }
  process.exit(code);
}

/** The tail of the remote extension host's log(s), for a run that never reported. */
async function extensionHostLog(userDataDir) {
  const files = (await readdir(join(userDataDir, 'logs'), { recursive: true }).catch(() => []))
    .filter((f) => f.endsWith('remoteexthost.log'));
  const texts = await Promise.all(files.map((f) => readFile(join(userDataDir, 'logs', f), 'utf8')));
  return texts.join('\n').split('\n').slice(-40).join('\n') || '(none found)';
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
