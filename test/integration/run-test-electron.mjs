// Runs the same Mocha suite as run-code-server.mjs under @vscode/test-electron, for machines that can
// download VS Code (or have it installed):
//   node test/integration/run-test-electron.mjs [folder]      (folder defaults to demo/)
// Env: VSCODE_EXECUTABLE_PATH — an installed VS Code to use instead of downloading one;
//      MLSYS_EXTENSION_PATH — the extension under test (default: the repo root).
// On Linux without a display, run it under xvfb-run.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildSuite, hostConfig, repo, report } from './run-code-server.mjs';

const folder = resolve(process.argv[2] ?? join(repo, 'demo'));
const extensionPath = resolve(process.env.MLSYS_EXTENSION_PATH ?? repo);
const tmp = await mkdtemp(join(tmpdir(), 'mlsys-electron-'));
const resultsFile = join(tmp, 'results.json');
const configFile = join(tmp, 'test-config.json');
await writeFile(configFile, JSON.stringify(hostConfig(await buildSuite(), resultsFile)));

let code = 1;
try {
  await runTests({
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
    extensionDevelopmentPath: extensionPath,
    // The companion host's run() is the test entry point; it finds the suite through the config.
    extensionTestsPath: join(repo, 'test/integration/host/extension.js'),
    extensionTestsEnv: { MLSYS_TEST_CONFIG: configFile },
    launchArgs: [folder, '--disable-extensions',
      '--user-data-dir', join(tmp, 'user-data'), '--extensions-dir', join(tmp, 'extensions')],
  });
} catch (err) {
  // runTests rejects when VS Code exits non-zero, which is also how failing tests end; the results say which.
  if (!existsSync(resultsFile)) console.error(err);
} finally {
  if (existsSync(resultsFile)) code = report(JSON.parse(await readFile(resultsFile, 'utf8')));
  else console.log('0 passed, 0 failed');
  await rm(tmp, { recursive: true, force: true });
}
process.exit(code);
