import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { listAuditRecords } from '../audit/audit.repository.js';
import type { Database } from '../db/database.js';
import { planOf, recordingStatements } from '../test-support/query-plans.js';
import { TestClock } from '../test-support/test-clock.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import { adminAs } from './audited.js';
import {
  addClient,
  addPlayer,
  blockPlayerAsOperator,
  erasePlayer,
  unblockPlayerAsOperator,
} from './operations.js';
import { showPlayer } from './player-record.js';

const ACTOR = { via: 'cli', name: 'ops', address: null } as const;

describe.each(DIALECTS)('player erase on %s', (dialect) => {
  let database: Database | undefined;
  const clock = new TestClock();
  const admin = () => adminAs((database as Database).db, ACTOR, clock.now);
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    expect((await addClient(admin(), { id: 'demo', changes: {} })).ok).toBe(true);
    expect((await addClient(admin(), { id: 'other', changes: {} })).ok).toBe(true);
  });
  afterEach(async () => {
    await database?.close();
  });
  afterAll(dropFileDatabase);

  const details = async (action: string, target: string) =>
    (await listAuditRecords(admin().db, { limit: 100 }))
      .filter((record) => record.action === action && record.target === target)
      .map((record) => record.details);

  it("replaces the nick and block reason in the player's earlier audit records, and no one else's", async () => {
    for (const [clientId, userId, nick] of [
      ['demo', 'user-x', 'PrivateNick'],
      ['demo', 'user-y', 'OtherNick'],
      ['other', 'user-x', 'SameIdElsewhere'],
    ] as const) {
      expect((await addPlayer(admin(), { clientId, userId, nick })).ok).toBe(true);
      const block = { reason: `asked by ${nick}` };
      expect((await blockPlayerAsOperator(admin(), { clientId, userId, block })).ok).toBe(true);
    }
    expect((await unblockPlayerAsOperator(admin(), { clientId: 'demo', userId: 'user-x' })).ok).toBe(true);
    const before = await listAuditRecords(admin().db, { limit: 100 });

    const erased = await erasePlayer(admin(), { clientId: 'demo', userId: 'user-x' });
    expect(erased).toMatchObject({ ok: true, value: { scrubbedAuditRecords: 2, changed: true } });

    expect(await details('player.add', 'demo/user-x')).toEqual([
      { clientId: 'demo', userId: 'user-x', nick: '(erased)', playerId: expect.any(String) },
    ]);
    expect(await details('player.block', 'demo/user-x')).toEqual([
      { clientId: 'demo', userId: 'user-x', block: { reason: '(erased)' } },
    ]);
    const after = await listAuditRecords(admin().db, { limit: 100 });
    expect(JSON.stringify(after)).not.toContain('PrivateNick');
    // Who did what and when stays; the other players' records are as they were.
    const kept = after.filter((record) => record.action !== 'player.erase');
    expect(kept.map(({ id, at, actor, action, target }) => ({ id, at, actor, action, target }))).toEqual(
      before.map(({ id, at, actor, action, target }) => ({ id, at, actor, action, target })),
    );
    expect(kept.filter((record) => record.target !== 'demo/user-x')).toEqual(
      before.filter((record) => record.target !== 'demo/user-x'),
    );
    expect(JSON.stringify(after)).toContain('asked by OtherNick');
    expect(JSON.stringify(after)).toContain('asked by SameIdElsewhere');
  });

  it('erased again, keeps the first time and writes and records nothing, unless something came back', async () => {
    expect((await addPlayer(admin(), { clientId: 'demo', userId: 'user-x', nick: 'PrivateNick' })).ok).toBe(
      true,
    );
    const first = await erasePlayer(admin(), { clientId: 'demo', userId: 'user-x' });
    expect(first).toMatchObject({ ok: true, value: { erasedBefore: false, changed: true } });
    const erasedAt = first.ok ? first.value.erasedAt : '';
    const shown = await showPlayer(admin().db, 'demo', 'user-x', clock.now());
    const records = await listAuditRecords(admin().db, { limit: 100 });

    clock.advance(60);
    const second = await erasePlayer(admin(), { clientId: 'demo', userId: 'user-x' });
    expect(second).toMatchObject({ ok: true, value: { erasedAt, changed: false } });
    expect(await showPlayer(admin().db, 'demo', 'user-x', clock.now())).toEqual(shown);
    expect(await listAuditRecords(admin().db, { limit: 100 })).toEqual(records);

    // A block given since holds a reason again: erased again, recorded, the first time kept.
    const block = { reason: 'said PrivateNick again' };
    expect((await blockPlayerAsOperator(admin(), { clientId: 'demo', userId: 'user-x', block })).ok).toBe(
      true,
    );
    clock.advance(60);
    const third = await erasePlayer(admin(), { clientId: 'demo', userId: 'user-x' });
    expect(third).toMatchObject({
      ok: true,
      value: { erasedAt, erasedBefore: true, changed: true, scrubbedAuditRecords: 1 },
    });
    expect(await details('player.erase', 'demo/user-x')).toHaveLength(2);
    const player = await showPlayer(admin().db, 'demo', 'user-x', clock.now());
    expect(player.ok && player.value.erasedAt).toBe(erasedAt);
    expect(JSON.stringify(await listAuditRecords(admin().db, { limit: 100 }))).not.toContain('PrivateNick');
  });

  // It read every record the log keeps (a year's by default) to find the player's few, inside its
  // transaction (docs/design.md, "Players, for the operator").
  it("finds the player's audit records by audit_log_target_idx, not by reading all 5,000", async () => {
    expect((await addPlayer(admin(), { clientId: 'demo', userId: 'user-x', nick: 'PrivateNick' })).ok).toBe(
      true,
    );
    // 1,000 other players' records, five each.
    const at = clock.now().toISOString();
    for (let first = 0; first < 5000; first += 500) {
      await admin()
        .db.insertInto('audit_log')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            id: `${at}-${String(first + i).padStart(5, '0')}`,
            at,
            actor_via: 'cli',
            actor_name: 'ops',
            actor_address: null,
            action: 'player.block',
            target: `demo/user-${(first + i) % 1000}`,
            details: JSON.stringify({ block: { reason: 'a reason' } }),
          })),
        )
        .execute();
    }
    if (dialect === 'postgres') await sql`analyze audit_log`.execute(admin().db);

    const recording = recordingStatements(admin().db);
    const erased = await erasePlayer(adminAs(recording.db, ACTOR, clock.now), {
      clientId: 'demo',
      userId: 'user-x',
    });
    expect(erased).toMatchObject({ ok: true, value: { scrubbedAuditRecords: 1 } });
    const reads = recording.statements().filter((statement) => /from "audit_log"/.test(statement.sql));
    expect(reads).toHaveLength(1);
    for (const statement of reads) {
      const plan = await planOf(admin().db, dialect, statement);
      expect(plan, statement.sql).toMatch(/audit_log_target_idx/);
      expect(plan, statement.sql).not.toMatch(/(SCAN audit_log|Seq Scan on audit_log)\b/);
    }
  });
});
