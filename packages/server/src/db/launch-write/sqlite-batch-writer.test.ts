import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insertClient } from '../../clients/client.repository.js';
import { launchOf, NOW } from '../../test-support/launch-write-of.js';
import { openDatabase } from '../open-database.js';
import type { ProfileRow } from '../session-store.js';
import { openSqliteConnection } from '../sqlite/sqlite-connection.js';
import { SHAPED_STATEMENT_CAP, SqliteBatchWriter } from './sqlite-batch-writer.js';

/** Profile columns a v3 client may send or leave out: 2^9 shapes of a new player's insert. */
const OPTIONAL: readonly (keyof ProfileRow)[] = [
  'name',
  'email',
  'referred_by',
  'referral_code',
  'bonus_code',
  'tag',
  'phone_number',
  'country',
  'trusted_level',
];

describe("the SQLite launch writer's prepared statements", () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('stay within their cap while a client varies which profile fields it sends, and every launch is written', async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-writer-'));
    const path = join(folder, 'test.db');
    const database = await openDatabase({ dialect: 'sqlite', path }, { migrate: true });
    await insertClient(database.db, {
      id: 'demo',
      secretKey: null,
      active: true,
      currencyMandatory: false,
      playerIdMode: 'external',
      launchUrls: {},
      frameOrigins: [],
      createdAt: NOW,
    });
    await database.close();
    const sqlite = openSqliteConnection(path);
    try {
      const writer = new SqliteBatchWriter(sqlite);
      const shapes = SHAPED_STATEMENT_CAP * 3;
      const launches = Array.from({ length: shapes }, (_, shape) => {
        const profile: Record<string, string | number> = {};
        OPTIONAL.forEach((column, bit) => {
          if (shape & (1 << bit)) profile[column] = column === 'trusted_level' ? 1 : `${column}-${shape}`;
        });
        return launchOf(`player-${shape}`, profile as ProfileRow);
      });
      for (let start = 0; start < launches.length; start += 50) {
        const outcomes = writer.write(launches.slice(start, start + 50));
        expect(outcomes.every((outcome) => 'ok' in outcome && outcome.ok)).toBe(true);
        expect(writer.shapedStatements).toBeLessThanOrEqual(SHAPED_STATEMENT_CAP);
      }
      expect(sqlite.prepare('select count(*) as n from players').get()).toEqual({ n: shapes });
      expect(sqlite.prepare('select count(*) as n from sessions').get()).toEqual({ n: shapes });
    } finally {
      sqlite.close();
    }
  });
});
