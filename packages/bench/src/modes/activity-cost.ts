import type { BenchOptions, Dialect } from '../bench-options.js';
import { runAgainstItself } from './against-itself.js';
import type { PairedResult } from './paired-row.js';

/**
 * What recording launch attempts for the console costs: the service against itself with
 * ACTIVITY_RECORDS=off (the reference), each on a fresh store of its own, alternated round by round.
 */
export function runActivityCost(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  return runAgainstItself(options, dialect, progress, {
    reference: { label: 'without records', env: { ACTIVITY_RECORDS: 'off' } },
    measured: { label: 'with records' },
    each: 'service',
  });
}
