import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Three workers on two cores: the suite waits on child processes and PostgreSQL a third of the time
    // (CPU 1.3 cores busy with two); a quiet CI run 1,057 -> 972 s of Vitest (docs/performance.md).
    maxWorkers: 3,
    reporters: ['default', './vitest.summary-reporter.ts'],
    // Deadlines, not thresholds: a test waits for what it expects, and these only end one that never comes.
    // Generous: CLI tests start real processes, and a loaded two-core machine (CI's, or one shared by
    // several runs) can make a test that takes 10 s alone take minutes; a passing test never waits them out.
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
