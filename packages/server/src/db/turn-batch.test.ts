import { describe, expect, it } from 'vitest';
import { TurnBatch } from './turn-batch.js';

describe('lookups batched per event-loop turn', () => {
  it('asks the keys of one turn together, each once, in batches of at most maxKeys', async () => {
    const asked: string[][] = [];
    const batch = new TurnBatch<string>(async (keys) => {
      asked.push(keys);
      return new Map(keys.filter((key) => key !== 'none').map((key) => [key, key.toUpperCase()]));
    }, 2);
    const found = await Promise.all(['a', 'b', 'a', 'none', 'c'].map((key) => batch.get(key)));
    expect(found).toEqual(['A', 'B', 'A', undefined, 'C']);
    expect(asked).toEqual([
      ['a', 'b'],
      ['none', 'c'],
    ]);
    expect(await batch.get('d')).toBe('D');
    expect(asked).toHaveLength(3);
  });

  it('fails only the lookups of the batch that failed', async () => {
    const batch = new TurnBatch<string>(async (keys) => {
      if (keys.includes('bad')) throw new Error('the database is away');
      return new Map(keys.map((key) => [key, key]));
    }, 1);
    const settled = await Promise.allSettled(['ok', 'bad'].map((key) => batch.get(key)));
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 'ok' });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: new Error('the database is away') });
  });
});
