import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Two cores: one worker per core keeps PostgreSQL and the child processes of CLI tests from starving.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
    // Deadlines, not thresholds: a test waits for what it expects, and these only end one that never comes.
    // Generous: CLI tests start real processes, and a loaded two-core machine (CI's, or one shared by
    // several runs) can make a test that takes 10 s alone take minutes; a passing test never waits them out.
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
