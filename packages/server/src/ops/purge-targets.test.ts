import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertAuditRecord } from '../audit/audit.repository.js';
import { insertClient } from '../clients/client.repository.js';
import type { Database } from '../db/database.js';
import { generateSessionId } from '../sessions/token.js';
import { defaultSettings } from '../settings/settings.js';
import { testClient } from '../test-support/test-client.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import { PURGE_TARGETS } from './purge-targets.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

describe.each(DIALECTS)('the purge of console records on %s', (dialect) => {
  let database: Database | undefined;
  const db = () => (database as Database).db;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await database?.close();
  });
  afterAll(dropFileDatabase);

  /** Runs one batch of every target at NOW with the default settings, as the background purge does. */
  async function purgeAll(): Promise<Record<string, number>> {
    const removed: Record<string, number> = {};
    for (const target of PURGE_TARGETS) {
      const before = new Date(NOW.getTime() - target.retentionSeconds(defaultSettings()) * 1000);
      const result = await db().executeQuery(target.statement(db(), { before, limit: 500 }));
      removed[target.what] = Number(result.numAffectedRows ?? 0);
    }
    return removed;
  }

  it('deletes launch attempts and their counts past ActivityRetention and audit records past AuditLogRetention, and keeps the rest', async () => {
    // Attempts are purged client by client, along their key: they belong to a client.
    await insertClient(db(), testClient(NOW, { id: 'c' }));
    for (const [player, at] of [
      ['old', daysAgo(8)],
      ['recent', daysAgo(6)],
    ] as const) {
      await db()
        .insertInto('launch_activity')
        .values({
          id: generateSessionId(at),
          at: at.toISOString(),
          client_id: 'c',
          api_version: 'v2',
          status: 200,
          error_code: null,
          errors: null,
          hints: null,
          player_id: player,
          request_id: null,
        })
        .execute();
    }
    for (const at of [daysAgo(8), daysAgo(6)]) {
      await db()
        .insertInto('launch_activity_minutes')
        .values({ client_id: 'c', minute: at.toISOString().slice(0, 16), error_code: '', attempts: 3 })
        .execute();
    }
    const actor = { via: 'cli', name: 'ops', address: null } as const;
    await insertAuditRecord(db(), { actor, action: 'old', target: null, details: {} }, daysAgo(366));
    await insertAuditRecord(db(), { actor, action: 'recent', target: null, details: {} }, daysAgo(364));

    expect(await purgeAll()).toMatchObject({
      'launch attempt': 1,
      'launch attempt count': 1,
      'audit record': 1,
    });
    expect(await db().selectFrom('launch_activity_minutes').select('minute').execute()).toEqual([
      { minute: daysAgo(6).toISOString().slice(0, 16) },
    ]);
    expect(await db().selectFrom('launch_activity').select('player_id').execute()).toEqual([
      { player_id: 'recent' },
    ]);
    expect(await db().selectFrom('audit_log').select('action').execute()).toEqual([{ action: 'recent' }]);
  });

  it('deletes ended webhook deliveries past their week, keeps pending ones and recent ones', async () => {
    await insertClient(db(), testClient(NOW, { id: 'c' }));
    const at = NOW.toISOString();
    await db()
      .insertInto('webhook_endpoints')
      .values({
        id: 'ep_1',
        client_id: 'c',
        url: 'https://hooks.test/',
        secret: 'whsec_x',
        enabled: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const delivery = (name: string, made: Date, state: string) => ({
      id: `msg_${made.getTime().toString(16).padStart(12, '0')}${name}`,
      endpoint_id: 'ep_1',
      client_id: 'c',
      event_type: 'session.created',
      occurred_at: made.toISOString(),
      state,
      attempts: 1,
      next_attempt_at: made.toISOString(),
      created_at: made.toISOString(),
    });
    await db()
      .insertInto('webhook_deliveries')
      .values([
        delivery('old-delivered', daysAgo(8), 'delivered'),
        delivery('old-failed', daysAgo(8), 'failed'),
        delivery('old-pending', daysAgo(8), 'pending'),
        delivery('recent-delivered', daysAgo(6), 'delivered'),
      ])
      .execute();

    expect(await purgeAll()).toMatchObject({ 'webhook delivery': 2 });
    const left = await db().selectFrom('webhook_deliveries').select('id').orderBy('id').execute();
    expect(left.map((row) => row.id.slice(16))).toEqual(['old-pending', 'recent-delivered']);
  });
});
