// `npm run fuzz`: the property-based tests with many cases (FUZZ_RUNS per property, 10,000 by
// default), each case bounded at 2 s by the harness (test/unit/fuzz/harness.ts).
import { defineConfig } from 'vitest/config';

process.env.FUZZ_RUNS ??= '10000';

export default defineConfig({
  test: {
    include: ['test/unit/*.property.test.ts'],
    environment: 'node',
    testTimeout: 60 * 60 * 1000,
    hookTimeout: 60 * 1000,
  },
});
