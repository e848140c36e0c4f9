import { defineConfig } from 'vitest/config';

// Tests run in a shuffled order, so that none can lean on what an earlier one left behind (an
// expanded tree, an open editor, a file, a read mark). The seed is printed; replay an order with
// MLSYS_E2E_SEED=<seed>.
const seed = Number(process.env.MLSYS_E2E_SEED ?? Math.floor(Math.random() * 1_000_000));
if (!Number.isSafeInteger(seed)) throw new Error(`MLSYS_E2E_SEED must be an integer, not ${process.env.MLSYS_E2E_SEED}`);
// Printed by each process that loads this config (the runner and its fork): the same seed.
process.env.MLSYS_E2E_SEED = String(seed);
console.log(`e2e: tests in shuffled order, seed ${seed} (replay: MLSYS_E2E_SEED=${seed})`);

// Browser tests against a real VS Code (code-server + chromium): one process, one file at a time,
// because each test starts its own code-server and the machines have 2 cores.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    sequence: { shuffle: { files: false, tests: true }, seed },
  },
});
