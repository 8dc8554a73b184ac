import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Two cores: one worker per core keeps PostgreSQL and the child processes of CLI tests from starving.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
