import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/record-coverage.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: run files in parallel forks, tests within a file in order.
    pool: 'forks',
  },
});
