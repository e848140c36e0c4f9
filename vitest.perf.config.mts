import { defineConfig } from 'vitest/config';

// The serial performance run (`npm run test:perf`): every assertion that reads the clock, a time
// ratio (10× the input, at most 15× the time; see test/perf/linear.ts) or a wall-clock bound, and
// the correctness checks on inputs too large for the unit run (50 MB). One file at a time in one
// worker, and in `npm test` right after the unit tests, so nothing of ours runs beside it; the
// unit run counts work instead of timing it, and passes on a busy machine.
export default defineConfig({
  test: {
    include: ['test/perf/**/*.perf.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
