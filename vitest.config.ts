import { defaultExclude, defineConfig } from 'vitest/config';
import SlowFirstSequencer from './vitest.sequencer.js';

/** Files that replace a module with vi.mock: they get a fresh module graph of their own (isolate). */
const MOCKING_FILES = ['packages/server/src/console/pages/protection.page.test.ts'];

export default defineConfig({
  test: {
    // Three workers on two cores: the suite waits on child processes and PostgreSQL a third of the time
    // (CPU 1.3 cores busy with two); a quiet CI run 1,057 -> 972 s of Vitest (docs/performance.md).
    maxWorkers: 3,
    reporters: ['default', './vitest.summary-reporter.ts'],
    // Deadlines, not thresholds: a test waits for what it expects, and these only end one that never comes.
    // Generous: CLI tests start real processes, and a loaded two-core machine (CI's, or one shared by
    // several runs) can make a test that takes 10 s alone take minutes; a passing test never waits them out.
    testTimeout: 300_000,
    hookTimeout: 180_000,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...defaultExclude, ...MOCKING_FILES],
          // A worker runs its files one after another in one module graph instead of importing the
          // server's graph anew for each (docs/performance.md, "The test suite's time").
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING_FILES, isolate: true } },
    ],
  },
});
