import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { findClient } from '../clients/client.repository.js';
import type { Database } from '../db/database.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import { addClient, changeClient, disableClient } from './client-admin.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

/**
 * A trigger that refuses any UPDATE naming `active` in its SET list (even to the value it has): the
 * deterministic stand-in for a `client disable` racing an update, which a stale full-row write undoes.
 */
async function refuseWritesOfActive(database: Database): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`CREATE TRIGGER refuse_active BEFORE UPDATE OF active ON clients
      BEGIN SELECT RAISE(ABORT, 'active was written'); END`.execute(database.db);
    return;
  }
  await sql`CREATE FUNCTION refuse_active() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'active was written'; END $$`.execute(database.db);
  await sql`CREATE TRIGGER refuse_active BEFORE UPDATE OF active ON clients
    FOR EACH ROW EXECUTE FUNCTION refuse_active()`.execute(database.db);
}

describe.each(DIALECTS)('client admin on %s', (dialect) => {
  let database: Database | undefined;
  const db = () => {
    if (!database) throw new Error('no database');
    return database.db;
  };
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await database?.close();
  });
  afterAll(dropFileDatabase);

  it('changeClient writes only the columns it changes, so it cannot undo a concurrent client disable', async () => {
    await addClient(db(), 'casino-1', { secretKey: 's'.repeat(16) }, NOW);
    // Disabled by someone else after this update's caller last looked at the client.
    await db().updateTable('clients').set({ active: 0 }).where('id', '=', 'casino-1').execute();
    await refuseWritesOfActive(database as Database);

    const changed = await changeClient(
      db(),
      'casino-1',
      { currencyMandatory: true, launchUrls: { poker: 'https://poker.example/' } },
      NOW,
    );
    expect(changed).toMatchObject({
      ok: true,
      value: { client: { active: false, currencyMandatory: true } },
    });
    expect(await findClient(db(), 'casino-1')).toMatchObject({
      active: false,
      secretKey: 's'.repeat(16),
      currencyMandatory: true,
      launchUrls: { poker: 'https://poker.example/', casino: undefined },
    });
  });

  it('changeClient changes only the launch URLs it names, and removes those set to null', async () => {
    await addClient(
      db(),
      'casino-1',
      { launchUrls: { poker: 'https://poker.example/', casino: 'https://casino.example/' } },
      NOW,
    );
    await db().updateTable('clients').set({ url_sport: 'https://sport.example/' }).execute();
    const changed = await changeClient(db(), 'casino-1', { launchUrls: { poker: null } }, NOW);
    expect(changed.ok).toBe(true);
    expect((await findClient(db(), 'casino-1'))?.launchUrls).toEqual({
      poker: undefined,
      casinoLobby: undefined,
      casino: 'https://casino.example/',
      sport: 'https://sport.example/',
    });
  });

  it('refuses a secret another client signs with, current or kept by a rotation: a sign does not name its client', async () => {
    const refused = {
      ok: false,
      reason:
        'another client signs with this secret: a sign does not name its client, so a request signed for ' +
        'either would be accepted for both; give each client a secret of its own',
    };
    expect((await addClient(db(), 'casino-1', { secretKey: 'one-secret-0123456' }, NOW)).ok).toBe(true);
    expect(await addClient(db(), 'casino-2', { secretKey: 'one-secret-0123456' }, NOW)).toEqual(refused);
    expect(await findClient(db(), 'casino-2')).toBeUndefined();
    expect((await addClient(db(), 'casino-2', { secretKey: 'two-secret-0123456' }, NOW)).ok).toBe(true);
    expect(await changeClient(db(), 'casino-2', { secretKey: 'one-secret-0123456' }, NOW)).toEqual(refused);
    // casino-1 rotates: its old secret still signs during the overlap, so nobody else may take it.
    const rotated = await changeClient(
      db(),
      'casino-1',
      { secretKey: 'one-secret-rotated', keepPreviousSecretUntil: '2026-11-22T12:00:00.000Z' },
      NOW,
    );
    expect(rotated.ok).toBe(true);
    expect(await changeClient(db(), 'casino-2', { secretKey: 'one-secret-0123456' }, NOW)).toEqual(refused);
    expect((await findClient(db(), 'casino-2'))?.secretKey).toBe('two-secret-0123456');
    // A client's own secrets are its own: set again, or its previous one taken back, is no conflict.
    expect((await changeClient(db(), 'casino-1', { secretKey: 'one-secret-rotated' }, NOW)).ok).toBe(true);
    expect((await changeClient(db(), 'casino-1', { secretKey: 'one-secret-0123456' }, NOW)).ok).toBe(true);
    expect((await changeClient(db(), 'casino-2', { secretKey: null }, NOW)).ok).toBe(true);
    expect((await addClient(db(), 'casino-3', { secretKey: null }, NOW)).ok).toBe(true);
  });

  it('changeClient and disableClient refuse an unknown client', async () => {
    expect(await changeClient(db(), 'nobody', { active: true }, NOW)).toEqual({
      ok: false,
      reason: 'no client "nobody"; see "client list"',
    });
    expect((await disableClient(db(), 'nobody', NOW)).ok).toBe(false);
  });
});
