import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    // A time-out is no speed check (those are the serial test:perf run's): it only catches a hang.
    // Some tests format every corpus entry or spawn the CLI, and on two busy cores they ran past
    // vitest's default 5 s; 60 s still ends a hang.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Reads and validates corpus/ once and provides it to every worker (realCorpus() in helpers.ts).
    globalSetup: ['test/unit/globalSetup.ts'],
  },
});
