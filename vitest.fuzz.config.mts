import { defineConfig } from 'vitest/config';

// The long fuzz run: the property tests (test/unit/*.property.test.ts) with 10,000 cases each
// (FUZZ_RUNS overrides it; FUZZ_SEED changes the seed). Each property prints, per format or input
// kind, how many cases ran, were skipped by a precondition, crashed (threw), hung (over 2 s) or
// failed a check, and fails with a shrunk counterexample per kind of failure.
// One fork per file, so a crash of the process itself (a native stack overflow aborting Node)
// takes down only that file.
const runs = process.env.FUZZ_RUNS ?? '10000';
const timeout = 30 * 60_000;

export default defineConfig({
  test: {
    include: ['test/unit/**/*.property.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: timeout,
    hookTimeout: 60_000,
    reporters: ['verbose'],
    env: {
      FUZZ_RUNS: runs,
      FUZZ_TIMEOUT_MS: String(timeout),
      FUZZ_SHRINK_MS: process.env.FUZZ_SHRINK_MS ?? String(5 * 60_000),
      // Only this run judges hangs by the clock (test/unit/fuzz/harness.ts's HANG_MS); the unit run does not.
      FUZZ_HANG_MS: process.env.FUZZ_HANG_MS ?? '2000',
    },
  },
});
