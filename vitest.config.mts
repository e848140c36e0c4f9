import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // The mutated-YAML fuzz runs minutes; it runs under `npm run fuzz` (vitest.fuzz.config.mts).
    exclude: ['**/node_modules/**', 'test/unit/yamlinputs.property.test.ts'],
    environment: 'node',
  },
});
