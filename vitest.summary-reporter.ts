import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names: where CI's 20 minutes go (docs/performance.md). */
const SLOWEST_FILES = 12;

/**
 * Ends the run with the slowest files, by the time their tests and hooks took, and one plain line,
 * "vitest: N passed, N failed, N skipped", that CI logs can be read by.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const slowest = testModules
      .map((module) => ({ file: relative(process.cwd(), module.moduleId), ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_FILES);
    if (slowest.length > 0) {
      process.stdout.write('\nslowest files (tests and hooks, seconds):\n');
      for (const { file, ms } of slowest)
        process.stdout.write(`${(ms / 1000).toFixed(1).padStart(7)}  ${file}\n`);
    }
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
    }
    process.stdout.write(
      `\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
