import { describe, expect, it } from 'vitest';
import { batchResults } from './checked-write-outcomes.js';
import { OperationFailed } from './group-commit.js';

describe('the results of a write batch, as JSON read back', () => {
  it('are taken when each is an outcome the writers make, an operation failure failing that operation only', () => {
    const results = batchResults(
      [
        { ok: true, playerId: 'p-1', currency: null },
        { ok: false, reason: 'replayed' },
        { ok: true },
        { ok: true, changed: 2 },
        { ok: true, changes: [1, 0] },
        { failed: { message: 'refused', code: 'SQLITE_CONSTRAINT_TRIGGER' } },
      ],
      6,
    );
    expect(results.slice(0, 5)).toEqual([
      { ok: true, playerId: 'p-1', currency: null },
      { ok: false, reason: 'replayed' },
      { ok: true },
      { ok: true, changed: 2 },
      { ok: true, changes: [1, 0] },
    ]);
    expect(results[5]).toBeInstanceOf(OperationFailed);
    expect((results[5] as OperationFailed).error).toMatchObject({
      message: 'refused',
      code: 'SQLITE_CONSTRAINT_TRIGGER',
    });
  });

  it('fail the batch when they are not one outcome per operation', () => {
    expect(() => batchResults(null, 1)).toThrow('the write batch answered null for 1 operations');
    expect(() => batchResults([{ ok: true }], 2)).toThrow('answered 1 results for 2 operations');
    expect(() => batchResults([{ ok: false, reason: 'no such reason' }], 1)).toThrow('an unknown result');
    expect(() => batchResults([{ ok: true, playerId: 7, currency: null }], 1)).toThrow('an unknown result');
    expect(() => batchResults(['ok'], 1)).toThrow('an unknown result');
  });
});
