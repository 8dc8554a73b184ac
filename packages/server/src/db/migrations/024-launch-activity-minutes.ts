import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';

/** The attempts already stored that the new counts take in: more than the overview's hour. */
const BACKFILL_MS = 2 * 3600 * 1000;

/**
 * Launch attempts counted per client, minute and first error code ('' for a launch), written by the
 * activity flush with the attempts: the console's overview reads its last hour from here instead of
 * counting every attempt of the hour (docs/design.md, "The console on a large store"). The attempts of the
 * last two hours already stored are counted in, so the overview reads the same across the upgrade. And
 * an index of the refused attempts alone, for the activity page's filter.
 */
export function launchActivityMinutes(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('launch_activity_minutes')
        .addColumn('client_id', 'text', (c) => c.notNull())
        // The minute's ISO 8601 text, e.g. 2026-11-27T09:05 (UTC), as the attempts' `at` begins.
        .addColumn('minute', 'text', (c) => c.notNull())
        .addColumn('error_code', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('launch_activity_minutes_pk', ['client_id', 'minute', 'error_code'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      // A client's refusals, newest first, without reading its launches (the activity page's filter):
      // a client that launches a million times and is refused twice had its whole history read.
      await db.schema
        .createIndex('launch_activity_refused_idx')
        .on('launch_activity')
        .columns(['client_id', 'id'])
        .where(sql.ref('status'), '>=', sql.lit(400))
        .execute();
      // Attempt ids start with their time in ms as 12 hex digits (sessions/token.ts).
      const since = (Date.now() - BACKFILL_MS).toString(16).padStart(12, '0');
      await sql`insert into launch_activity_minutes (client_id, minute, error_code, attempts)
        select client_id, substr(at, 1, 16), coalesce(error_code, ''), count(*)
        from launch_activity
        where client_id in (select id from clients) and id >= ${since}
        group by client_id, substr(at, 1, 16), coalesce(error_code, '')`.execute(db);
    },
  };
}
