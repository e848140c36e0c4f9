import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    // Reads and validates corpus/ once and provides it to every worker (realCorpus() in helpers.ts).
    globalSetup: ['test/unit/globalSetup.ts'],
  },
});
