import type { CompiledQuery, Selectable } from 'kysely';
import { IsoTimes } from '../clock.js';
import { dialectOf } from '../db/dialect-of.js';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { Db, LaunchActivityTable } from '../db/schema.js';
import { generateSessionId, sessionIdFloor } from '../sessions/token.js';
import type { AttemptError, LaunchAttempt } from './launch-attempt.js';

const COLUMNS = [
  'id',
  'at',
  'client_id',
  'api_version',
  'status',
  'error_code',
  'errors',
  'hints',
  'player_id',
  'request_id',
] as const satisfies readonly (keyof LaunchActivityTable)[];
const STATUS = COLUMNS.indexOf('status');

/**
 * The insert of a batch: one parameter, the rows as a JSON array of arrays in COLUMNS' order, so its text
 * is the same whatever the batch (the session writer prepares it once) and is written here once, not
 * built with Kysely every second (its frozen query nodes cost 40k instructions a flush,
 * docs/performance.md).
 */
const INSERT_ATTEMPTS = {
  sqlite: `insert into launch_activity (${COLUMNS.join(', ')})
    select ${COLUMNS.map((_, index) => `value ->> ${index}`).join(', ')} from json_each(?)`,
  postgres: `insert into launch_activity (${COLUMNS.join(', ')})
    select ${COLUMNS.map((_, index) => (index === STATUS ? `(r ->> ${index})::integer` : `r ->> ${index}`)).join(', ')}
    from jsonb_array_elements($1::jsonb) as r`,
} as const;

const attemptTimes = new IsoTimes();

/** One statement for a whole batch, whatever its size. */
export function insertAttemptsStatement(
  db: Db,
  attempts: readonly LaunchAttempt[],
): { sql: string; parameters: readonly unknown[] } {
  const rows = attempts.map((attempt) => {
    const at = new Date(attempt.at);
    // COLUMNS' order. Time first, as session ids: the newest are at the end of the index, and ids sort as times.
    return [
      generateSessionId(at),
      attemptTimes.format(attempt.at),
      attempt.clientId,
      attempt.apiVersion,
      attempt.status,
      attempt.errors[0]?.code ?? null,
      attempt.errors.length === 0 ? null : JSON.stringify(attempt.errors),
      attempt.hints.length === 0 ? null : JSON.stringify(attempt.hints),
      attempt.playerId,
      attempt.requestId,
    ];
  });
  return { sql: INSERT_ATTEMPTS[dialectOf(db)], parameters: [JSON.stringify(rows)] };
}

/** An attempt as the console shows it. */
export interface StoredAttempt {
  id: string;
  at: string;
  clientId: string;
  apiVersion: string;
  status: number;
  errors: AttemptError[];
  hints: string[];
  playerId: string | null;
  requestId: string | null;
}

/** A client's attempts, newest first. */
export async function listClientAttempts(
  db: Db,
  clientId: string,
  page: { limit: number; offset: number; refusedOnly?: boolean },
): Promise<StoredAttempt[]> {
  let query = db.selectFrom('launch_activity').selectAll().where('client_id', '=', clientId);
  if (page.refusedOnly) query = query.where('status', '>=', 400);
  const rows = await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return rows.map(toStoredAttempt);
}

export interface AttemptCount {
  clientId: string;
  /** `null`: launched. */
  errorCode: string | null;
  count: number;
}

/** Attempts since `since`, per client and first error code (null for launches). */
export async function countAttemptsSince(db: Db, since: Date): Promise<AttemptCount[]> {
  const rows = await db
    .selectFrom('launch_activity')
    .select(['client_id', 'error_code', (eb) => eb.fn.countAll<number | string>().as('count')])
    // Client by client along the key (client_id, id): only the last hour is read.
    .where('client_id', 'in', (eb) => eb.selectFrom('clients').select('id'))
    .where('id', '>=', sessionIdFloor(since))
    .groupBy(['client_id', 'error_code'])
    .orderBy('client_id')
    .orderBy('error_code')
    .execute();
  return rows.map((row) => ({
    clientId: row.client_id,
    errorCode: row.error_code,
    count: Number(row.count),
  }));
}

/** One batch of the purge: attempts older than `before` (ActivityRetention). */
export function purgeAttemptsStatement(db: Db, batch: { before: Date; limit: number }): CompiledQuery {
  const old = db
    .selectFrom('launch_activity')
    .select(['client_id', 'id'])
    .where('client_id', 'in', (eb) => eb.selectFrom('clients').select('id'))
    .where('id', '<', sessionIdFloor(batch.before))
    .limit(batch.limit);
  return db
    .deleteFrom('launch_activity')
    .where((eb) =>
      eb(eb.refTuple('client_id', 'id'), 'in', forUpdateSkipLocked(db, old).$asTuple('client_id', 'id')),
    )
    .compile();
}

function toStoredAttempt(row: Selectable<LaunchActivityTable>): StoredAttempt {
  return {
    id: row.id,
    at: row.at,
    clientId: row.client_id,
    apiVersion: row.api_version,
    status: Number(row.status),
    errors: storedErrors(row.errors),
    hints: storedHints(row.hints),
    playerId: row.player_id,
    requestId: row.request_id,
  };
}

/** The errors column (JSON, written by this service): `unknown` until checked; what is not an error is left out. */
function storedErrors(column: string | null): AttemptError[] {
  const errors: unknown = column === null ? [] : JSON.parse(column);
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: unknown) => {
    if (typeof error !== 'object' || error === null) return [];
    const { code, pointer, detail } = error as Record<string, unknown>;
    if (typeof code !== 'string' || typeof detail !== 'string') return [];
    return [{ code, pointer: typeof pointer === 'string' ? pointer : null, detail }];
  });
}

/** The hints column (JSON array of texts): `unknown` until checked. */
function storedHints(column: string | null): string[] {
  const hints: unknown = column === null ? [] : JSON.parse(column);
  return Array.isArray(hints) ? hints.filter((hint): hint is string => typeof hint === 'string') : [];
}
