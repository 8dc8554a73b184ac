import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../db/session-store.js';
import { WRITE_PROBE_INTERVAL_MS, WriteHealth } from './write-health.js';

/** A store whose writes fail while `failing` holds, as a full disk's would. */
function storeThatFails(state: { failing: boolean; writes: number }): SessionStore {
  const write = async () => {
    state.writes++;
    if (state.failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return 1;
  };
  return {
    launch: async () => {
      await write();
      return { ok: false, reason: 'username_exists' };
    },
    revoke: async () => {
      await write();
    },
    execute: write,
    executeAll: async () => [await write()],
    findByTokenHash: async () => undefined,
    close: async () => {},
  };
}

describe('WriteHealth', () => {
  it('makes no write while writes commit; after a failure, one probe write per interval however many probes ask, until one commits', async () => {
    const state = { failing: false, writes: 0 };
    let probes = 0;
    const health = new WriteHealth(() => probes++);
    const store = health.observe(storeThatFails(state));
    health.probeWith(() => store.execute({ sql: 'probe', parameters: [] }));

    // A refusal is an outcome: the write path works.
    await store.launch({} as never);
    expect(await Promise.all([health.canCommit(0), health.canCommit(1)])).toEqual([true, true]);
    expect({ writes: state.writes, probes }).toEqual({ writes: 1, probes: 0 });

    state.failing = true;
    await expect(store.execute({ sql: 'insert', parameters: [] })).rejects.toThrow('disk is full');
    expect(health.failure).toMatchObject({ code: 'SQLITE_FULL' });
    // Three probes at once share one write; within the interval, none; after it, one more.
    expect(await Promise.all([1, 2, 3].map(() => health.canCommit(10_000)))).toEqual([false, false, false]);
    expect(await health.canCommit(10_000 + WRITE_PROBE_INTERVAL_MS - 1)).toBe(false);
    expect({ writes: state.writes, probes }).toEqual({ writes: 3, probes: 1 });

    state.failing = false;
    expect(await health.canCommit(10_000 + WRITE_PROBE_INTERVAL_MS)).toBe(true);
    expect({ writes: state.writes, probes }).toEqual({ writes: 4, probes: 2 });
    expect(health.failure).toBeUndefined();
    expect(await health.canCommit(20_000)).toBe(true);
    expect(state.writes).toBe(4);
  });

  it('turns ready again when a launch commits, without a probe', async () => {
    const state = { failing: true, writes: 0 };
    const health = new WriteHealth();
    const store = health.observe(storeThatFails(state));
    await expect(store.revoke({ kind: 'revoke', id: 's', at: '' })).rejects.toThrow();
    expect(await health.canCommit()).toBe(false);
    state.failing = false;
    await store.launch({} as never);
    expect(await health.canCommit()).toBe(true);
  });
});
