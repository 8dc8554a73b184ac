import type { BenchOptions, Dialect } from '../bench-options.js';
import { runAgainstItself } from './against-itself.js';
import type { PairedResult } from './paired-row.js';

/**
 * Does the cost stay flat as the store grows? Two services side by side, one on an empty store and one
 * on `seedSessions` stored sessions, alternated round by round like bare Fastify and the service.
 */
export function runFlatStore(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  return runAgainstItself(options, dialect, progress, {
    reference: { label: 'empty store' },
    measured: {
      label: `${options.seedSessions.toLocaleString('en-US')} stored`,
      storedSessions: options.seedSessions,
    },
    each: 'store',
  });
}
