import { type BatchResult, OperationFailed } from './group-commit.js';
import type { FailedOperation } from './launch-write/sqlite-batch-writer.js';
import type { LaunchRefusal, WriteOutcome } from './session-store.js';

const REFUSALS: ReadonlySet<unknown> = new Set<LaunchRefusal>([
  'username_exists',
  'player_not_found',
  'player_blocked',
  'replayed',
  'config_changed',
]);

/**
 * The results of a write batch as the database (PostgreSQL's function) or the writer thread answered
 * them in JSON: `unknown` until each is checked to be one of the outcomes the writers make, one per
 * operation (docs/design.md §10). A batch that answers anything else fails whole.
 */
export function checkedWriteOutcomes(value: unknown, count: number): (WriteOutcome | FailedOperation)[] {
  if (!Array.isArray(value) || value.length !== count) {
    throw new Error(`the write batch answered ${describe(value)} for ${count} operations`);
  }
  for (const result of value as unknown[]) {
    if (!isOutcome(result))
      throw new Error(`the write batch answered an unknown result: ${describe(result)}`);
  }
  return value as (WriteOutcome | FailedOperation)[];
}

function isOutcome(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const { ok, reason, playerId, currency, changed, changes, failed } = result as Record<string, unknown>;
  if (ok === false) return REFUSALS.has(reason);
  if (ok === true) {
    if (playerId !== undefined)
      return typeof playerId === 'string' && (currency === null || typeof currency === 'string');
    if (changed !== undefined) return typeof changed === 'number';
    if (changes !== undefined) return Array.isArray(changes) && changes.every((n) => typeof n === 'number');
    return true;
  }
  return (
    typeof failed === 'object' &&
    failed !== null &&
    typeof (failed as { message?: unknown }).message === 'string'
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} results`;
  return typeof value === 'object' ? (JSON.stringify(value)?.slice(0, 200) ?? 'nothing') : String(value);
}

/** The checked results of a batch, an operation's own failure (SQLite's writer) failing that operation only. */
export function batchResults(value: unknown, count: number): BatchResult<WriteOutcome>[] {
  return checkedWriteOutcomes(value, count).map((result) =>
    'failed' in result
      ? new OperationFailed(Object.assign(new Error(result.failed.message), { code: result.failed.code }))
      : result,
  );
}
