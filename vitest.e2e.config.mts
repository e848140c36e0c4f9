import { defineConfig } from 'vitest/config';

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
  },
});
