import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Rough seconds a file takes on CI's machine, by where it lives, for a run with no results of its own
 * yet (CI's fresh clone): the slowest start first, so that no worker is left with a long file at the
 * end while the others stand idle (docs/performance.md, "The test suite's time").
 */
const EXPECTED_SECONDS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^packages\/bench\//, 200],
  [/^test\/docs\/docs-examples/, 130],
  [/^packages\/server\/test\/(browser|fuzz)\//, 60],
  [/^packages\/cli\/src\/commands\//, 50],
  // The slowest of the rest (CI, 2026-11-28: 80 and 44 s), which had finished last.
  [/^packages\/server\/src\/launch\/v[23]\/v[23]-errors\.test\.ts$/, 50],
];

function expectedSeconds(path: string): number {
  return EXPECTED_SECONDS.find(([pattern]) => pattern.test(path))?.[1] ?? 10;
}

/** Vitest's own order (by the last run's durations) where it has them; otherwise the expected slowest first. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const key = (file: TestSpecification) => `${file.project.name}:${relative(root, file.moduleId)}`;
    if (files.every((file) => this.ctx.cache.getFileTestResults(key(file)))) return super.sort(files);
    const seconds = (file: TestSpecification) => expectedSeconds(relative(root, file.moduleId));
    // Within a kind, the larger file first: its size is the best guess left of how many tests it holds.
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => seconds(b) - seconds(a) || size(b) - size(a));
  }
}
