import { sql } from '#kysely';
import type { Database } from '../db/database.js';

/** A trigger that refuses the session of one launch: a database error that belongs to that launch only. */
export async function refuseSessionsOf(database: Database, externalSessionId: string): Promise<void> {
  await refuseRowsOf(database, 'sessions', 'external_session_id', externalSessionId);
}

/**
 * A trigger (named `refuse_<table>`) that refuses every row inserted into `table` whose `column` holds
 * `value`: a database error of the writes that carry that value, and of nothing else.
 */
export async function refuseRowsOf(
  database: Database,
  table: 'sessions' | 'webhook_deliveries',
  column: string,
  value: string,
): Promise<void> {
  const name = `refuse_${table}`;
  if (database.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger ${name} before insert on ${table}
         when new.${column} = '${value}'
         begin select raise(abort, 'refused by the test'); end`,
      )
      .execute(database.db);
    return;
  }
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$
       begin
         if new.${column} = '${value}' then raise exception 'refused by the test'; end if;
         return new;
       end $$`,
    )
    .execute(database.db);
  await sql
    .raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`)
    .execute(database.db);
}
