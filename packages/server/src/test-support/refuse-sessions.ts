import { sql } from 'kysely';
import type { Database } from '../db/open-database.js';

/** A trigger that refuses the session of one launch: a database error that belongs to that launch only. */
export async function refuseSessionsOf(database: Database, externalSessionId: string): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger refuse_session before insert on sessions
         when new.external_session_id = '${externalSessionId}'
         begin select raise(abort, 'refused by the test'); end`,
      )
      .execute(database.db);
    return;
  }
  await sql
    .raw(
      `create function refuse_session() returns trigger language plpgsql as $$
       begin
         if new.external_session_id = '${externalSessionId}' then raise exception 'refused by the test'; end if;
         return new;
       end $$`,
    )
    .execute(database.db);
  await sql
    .raw(
      'create trigger refuse_session before insert on sessions for each row execute function refuse_session()',
    )
    .execute(database.db);
}
