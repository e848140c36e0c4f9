import { defineConfig } from 'vitest/config';

// The differential test on real documents (test/realdocs): pdflatex, BibTeX, biber and pandoc run at
// test time, and the language server as a child process. One file, one worker: the machines have 2 cores.
export default defineConfig({
  test: {
    include: ['test/realdocs/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
