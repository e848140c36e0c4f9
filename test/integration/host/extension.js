// Test-only companion extension. code-server rejects --extensionTestsPath, so test/integration/run-code-server.mjs
// installs this extension next to the one under test; on activation it runs the compiled Mocha suite inside the
// extension host and writes the results where the runner waits for them.
// The same file is the --extensionTestsPath module for @vscode/test-electron (see run()).
//
// Config (JSON), from the file named by $MLSYS_TEST_CONFIG, else test-config.json beside this file:
//   { "suite": "/abs/suite.js", "results": "/abs/results.json", "mocha": "/abs/node_modules/mocha", "timeout": 20000, "grep": "optional", "invert": false }
// The suite uses Mocha's TDD interface: suite() / test() / setup() / teardown().
// Results: { passed, failed, failures: [{ title, error }], tests: [{ title, state }] }.
'use strict';
const fs = require('fs');
const path = require('path');

function readConfig() {
  const file = process.env.MLSYS_TEST_CONFIG || path.join(__dirname, 'test-config.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

/** Runs the suite with the Mocha found at config.mocha (the extension host has no node_modules of its own). */
function runSuite(config) {
  const Mocha = require(config.mocha);
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: config.timeout || 20000, ...(config.grep ? { grep: config.grep, invert: !!config.invert } : {}) });
  mocha.addFile(config.suite);
  const results = { passed: 0, failed: 0, failures: [], tests: [] };
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve(results));
    runner.on('pass', (t) => {
      results.passed++;
      results.tests.push({ title: t.fullTitle(), state: 'passed' });
    });
    runner.on('fail', (t, err) => {
      results.failed++;
      results.failures.push({ title: t.fullTitle(), error: String((err && err.stack) || err) });
      results.tests.push({ title: t.fullTitle(), state: 'failed' });
    });
  });
}

/** Runs the suite, never throws, and writes the results atomically so the runner never reads half a file. */
async function runAndReport(config) {
  let results;
  try {
    results = await runSuite(config);
  } catch (err) {
    results = { passed: 0, failed: 1, failures: [{ title: 'integration host', error: String(err.stack || err) }], tests: [] };
  }
  if (config.results) {
    fs.writeFileSync(config.results + '.tmp', JSON.stringify(results, null, 2));
    fs.renameSync(config.results + '.tmp', config.results);
  }
  return results;
}

/** code-server path: activated on startup finished; does nothing unless a runner left a config. */
function activate() {
  const config = readConfig();
  if (config) void runAndReport(config);
}

/** @vscode/test-electron path: VS Code calls run() and exits non-zero if it rejects. */
async function run() {
  const config = readConfig();
  if (!config) throw new Error('integration host: no config; set MLSYS_TEST_CONFIG');
  const results = await runAndReport(config);
  if (results.failed > 0) throw new Error(`${results.failed} test(s) failed`);
}

module.exports = { activate, deactivate() {}, run };
