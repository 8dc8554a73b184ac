import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertClient } from '../clients/client.repository.js';
import type { Database } from '../db/open-database.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import type { PlayerProfile } from './player.js';
import {
  insertPlayerIfAbsent,
  PROFILE_COLUMNS,
  type ProfileColumnMap,
  updatePlayerProfile,
} from './player.repository.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

const FULL_PROFILE: Required<PlayerProfile> = {
  nick: 'Ada',
  name: 'Ada King',
  email: 'ada@example.com',
  referredBy: 'Charles',
  referralCode: 'REF-1',
  bonusCode: 'BONUS-1',
  avatar: 7,
  phoneNumber: '+44 20 7946 0000',
  tag: 'vip',
  active: false,
  verified: true,
  trustedLevel: 3,
  currency: 'EUR',
  preferredCurrency: 'GBP',
  country: 'GB',
};

describe('the profile column map', () => {
  it('must name every profile field, each in a column that holds its type (tsc checks the lines below)', () => {
    const { country: _left, ...incomplete } = PROFILE_COLUMNS;
    // @ts-expect-error a map that leaves out a profile field (country) does not compile
    const missing: ProfileColumnMap = incomplete;
    // @ts-expect-error avatar is a number: a text column cannot hold it
    const mistyped: ProfileColumnMap = { ...PROFILE_COLUMNS, avatar: 'nick' };
    expect(Object.keys(missing)).not.toContain('country');
    expect(mistyped.avatar).toBe('nick');
    expect(Object.keys(PROFILE_COLUMNS).sort()).toEqual(Object.keys(FULL_PROFILE).sort());
  });
});

describe.each(DIALECTS)('player profile storage on %s', (dialect) => {
  let database: Database | undefined;
  const db = () => {
    if (!database) throw new Error('no database');
    return database.db;
  };
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    await insertClient(db(), {
      id: 'demo',
      secretKey: null,
      active: true,
      currencyMandatory: false,
      playerIdMode: 'external',
      launchUrls: {},
      frameOrigins: [],
      createdAt: NOW.toISOString(),
    });
  });
  afterEach(async () => {
    await database?.close();
  });
  afterAll(dropFileDatabase);

  it('stores every profile field and reads it back, booleans included', async () => {
    const player = await insertPlayerIfAbsent(
      db(),
      { clientId: 'demo', externalId: 'u-1', profile: FULL_PROFILE, active: false, verified: true },
      NOW,
    );
    expect(player).toMatchObject(FULL_PROFILE);
    const updated = await updatePlayerProfile(
      db(),
      player,
      { active: true, verified: false, avatar: 0 },
      NOW,
    );
    expect(updated).toMatchObject({ ...FULL_PROFILE, active: true, verified: false, avatar: 0 });
  });
});
