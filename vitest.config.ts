import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Two cores: one worker per core keeps PostgreSQL and the child processes of CLI tests from starving.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
    // Generous: CLI tests start real processes, and a shared two-core machine can make each take seconds.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
