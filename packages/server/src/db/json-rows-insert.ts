import { type CompiledQuery, sql } from 'kysely';
import { dialectOf } from './dialect-of.js';
import type { DatabaseSchema, Db } from './schema.js';

/**
 * One INSERT of many rows with one parameter, the rows as a JSON array: the statement's text is the
 * same whatever the number of rows, so the session writer prepares it once (a multi-row VALUES list
 * would be a new statement for every batch size). The rows' keys are the columns' names.
 */
export function jsonRowsInsert<T extends keyof DatabaseSchema & string>(
  db: Db,
  table: T,
  columns: readonly (keyof DatabaseSchema[T] & string)[],
  rows: readonly Partial<Record<keyof DatabaseSchema[T] & string, unknown>>[],
): CompiledQuery {
  const names = sql.join(columns.map((column) => sql.ref(column)));
  const json = JSON.stringify(rows);
  if (dialectOf(db) === 'postgres') {
    return sql`insert into ${sql.table(table)} (${names})
      select ${names} from jsonb_populate_recordset(null::${sql.table(table)}, ${json}::jsonb)`.compile(db);
  }
  const values = sql.join(columns.map((column) => sql`value ->> ${sql.lit(column)}`));
  return sql`insert into ${sql.table(table)} (${names}) select ${values} from json_each(${json})`.compile(db);
}
