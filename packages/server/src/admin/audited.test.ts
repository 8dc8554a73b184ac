import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { listAuditRecords } from '../audit/audit.repository.js';
import { findClient } from '../clients/client.repository.js';
import type { Database } from '../db/database.js';
import { TestClock } from '../test-support/test-clock.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import { adminAs, redactSecrets } from './audited.js';
import { addClient, disableClient } from './operations.js';

const ACTOR = { via: 'console', name: 'alice', address: '203.0.113.9' } as const;

/** A trigger that refuses every audit record: the change it records must not be kept either. */
async function refuseAuditRecords(database: Database): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log
      BEGIN SELECT RAISE(ABORT, 'no audit'); END`.execute(database.db);
    return;
  }
  await sql`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'no audit'; END $$`.execute(database.db);
  await sql`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION refuse_audit()`.execute(database.db);
}

describe.each(DIALECTS)('audited admin operations on %s', (dialect) => {
  let database: Database | undefined;
  const clock = new TestClock();
  const admin = () => adminAs((database as Database).db, ACTOR, clock.now);
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await database?.close();
  });
  afterAll(dropFileDatabase);

  it('records who changed what, when and from where, with the secret replaced by whether it was set', async () => {
    const added = await addClient(admin(), { id: 'casino-1', changes: { secretKey: 'x'.repeat(32) } });
    expect(added.ok).toBe(true);
    expect(await listAuditRecords(admin().db, { limit: 5 })).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        at: '2026-11-21T12:00:00.000Z',
        actor: ACTOR,
        action: 'client.add',
        target: 'casino-1',
        details: { id: 'casino-1', changes: { secretKey: '(set)' } },
      },
    ]);
  });

  it('keeps neither the change nor its record when either fails, and records nothing for a refusal', async () => {
    expect((await disableClient(admin(), { id: 'nobody' })).ok).toBe(false);
    expect(await listAuditRecords(admin().db, { limit: 5 })).toEqual([]);

    await refuseAuditRecords(database as Database);
    await expect(addClient(admin(), { id: 'casino-2', changes: {} })).rejects.toThrow('no audit');
    expect(await findClient(admin().db, 'casino-2')).toBeUndefined();
  });
});

describe('redactSecrets', () => {
  it('replaces every credential, however deep, by whether it was set, and keeps the rest', () => {
    expect(
      redactSecrets({
        id: 'c',
        changes: { secretKey: 's', keepPreviousSecretUntil: '2026-01-01', launchUrls: { poker: null } },
        passwordHash: '$argon2id$…',
        users: [{ apiKey: 'plk_…', name: 'ops' }],
        removed: { secret: null },
      }),
    ).toEqual({
      id: 'c',
      changes: { secretKey: '(set)', keepPreviousSecretUntil: '2026-01-01', launchUrls: { poker: null } },
      passwordHash: '(set)',
      users: [{ apiKey: '(set)', name: 'ops' }],
      removed: { secret: '(removed)' },
    });
  });
});
