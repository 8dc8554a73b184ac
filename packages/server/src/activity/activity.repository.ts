import { type CompiledQuery, type Selectable, sql } from '#kysely';
import { IsoTimes } from '../clock.js';
import { dialectOf } from '../db/dialect-of.js';
import { type IdWindow, idBound, newestFirst } from '../db/id-window.js';
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

/** The batch's counts per client, minute and first error code, added to those stored (JSON as above). */
const COUNT_ATTEMPTS = {
  sqlite: `insert into launch_activity_minutes (client_id, minute, error_code, attempts)
    select value ->> 0, value ->> 1, value ->> 2, value ->> 3 from json_each(?) where true
    on conflict (client_id, minute, error_code)
    do update set attempts = launch_activity_minutes.attempts + excluded.attempts`,
  postgres: `insert into launch_activity_minutes (client_id, minute, error_code, attempts)
    select r ->> 0, r ->> 1, r ->> 2, (r ->> 3)::integer from jsonb_array_elements($1::jsonb) as r
    on conflict (client_id, minute, error_code)
    do update set attempts = launch_activity_minutes.attempts + excluded.attempts`,
} as const;

const attemptTimes = new IsoTimes();

/**
 * The statements that record a batch, whatever its size, in one transaction: the attempts, and their
 * counts per client and minute, which the console's overview reads (docs/design.md, "The console on a
 * large store").
 */
export function recordAttemptsStatements(
  db: Db,
  attempts: readonly LaunchAttempt[],
): { sql: string; parameters: readonly unknown[] }[] {
  const counts = new Map<string, number>();
  const rows = attempts.map((attempt) => {
    const at = attemptTimes.format(attempt.at);
    const errorCode = attempt.errors[0]?.code ?? null;
    const key = `${attempt.clientId}\u0000${at.slice(0, 16)}\u0000${errorCode ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    // COLUMNS' order. Time first, as session ids: the newest are at the end of the index, and ids sort as times.
    return [
      generateSessionId(new Date(attempt.at)),
      at,
      attempt.clientId,
      attempt.apiVersion,
      attempt.status,
      errorCode,
      attempt.errors.length === 0 ? null : JSON.stringify(attempt.errors),
      attempt.hints.length === 0 ? null : JSON.stringify(attempt.hints),
      attempt.playerId,
      attempt.requestId,
    ];
  });
  // In key order: two instances adding to the same rows lock them in the same order (no deadlock).
  const countRows = [...counts.keys()].sort().map((key) => [...key.split('\u0000'), counts.get(key)]);
  const dialect = dialectOf(db);
  return [
    { sql: INSERT_ATTEMPTS[dialect], parameters: [JSON.stringify(rows)] },
    { sql: COUNT_ATTEMPTS[dialect], parameters: [JSON.stringify(countRows)] },
  ];
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

/** A client's attempts, newest first, in `window` (db/id-window.ts). */
export async function listClientAttempts(
  db: Db,
  clientId: string,
  window: IdWindow & { refusedOnly?: boolean },
): Promise<StoredAttempt[]> {
  const bound = idBound(window);
  if (window.refusedOnly && dialectOf(db) === 'sqlite') {
    // The index of refusals (migration 024), named: SQLite's planner, without statistics, took the
    // primary key and read every launch of the client to find its few refusals.
    const from = bound === undefined ? sql`` : sql`and id ${sql.raw(bound.op)} ${bound.id}`;
    const { rows } = await sql<Selectable<LaunchActivityTable>>`select * from launch_activity
      indexed by launch_activity_refused_idx
      where client_id = ${clientId} and status >= 400 ${from}
      order by id ${sql.raw(bound?.order ?? 'desc')} limit ${window.limit}`.execute(db);
    return newestFirst(window, rows).map(toStoredAttempt);
  }
  let query = db.selectFrom('launch_activity').selectAll().where('client_id', '=', clientId);
  // Written out, not a parameter: only then may PostgreSQL's plans use the index of refusals.
  if (window.refusedOnly) query = query.where('status', '>=', sql.lit(400));
  if (bound !== undefined) query = query.where('id', bound.op, bound.id);
  const rows = await query
    .orderBy('id', bound?.order ?? 'desc')
    .limit(window.limit)
    .execute();
  return newestFirst(window, rows).map(toStoredAttempt);
}

/** How many of a client's latest attempts a search by request id reads: no index has the id. */
export const REQUEST_ID_SCAN = 100_000;

/**
 * A client's attempts with this request id (either case), newest first, among its latest REQUEST_ID_SCAN:
 * a read of the primary key from the newest, which stops there, so its cost does not grow with the
 * table. The id is not indexed, because every launch writes a row and an index would add to that write
 * (docs/design.md, "The console on a large store"); an integrator asks about a recent launch.
 */
export async function findClientAttemptsByRequestId(
  db: Db,
  clientId: string,
  requestId: string,
  limit: number,
): Promise<StoredAttempt[]> {
  const latest = db
    .selectFrom('launch_activity')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('id', 'desc')
    .limit(REQUEST_ID_SCAN)
    .as('latest');
  const rows = await db
    .selectFrom(latest)
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['request_id']), '=', requestId.toLowerCase()))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toStoredAttempt);
}

/**
 * The attempts with this request id (either case) of every client, newest first: findClientAttemptsByRequestId
 * for each client in turn, for an operator who holds a request id and not its client (docs/design.md, "The
 * console on a large store"). It reads up to REQUEST_ID_SCAN attempts per client, so an operator's command
 * may run it, not a page: the console searches one client's.
 */
export async function findAttemptsByRequestId(
  db: Db,
  requestId: string,
  limit: number,
): Promise<StoredAttempt[]> {
  const clients = await db.selectFrom('clients').select('id').orderBy('id').execute();
  const found: StoredAttempt[] = [];
  for (const { id } of clients)
    found.push(...(await findClientAttemptsByRequestId(db, id, requestId, limit)));
  // Ids start with their time (sessions/token.ts): newest first across clients.
  return found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, limit);
}

export interface AttemptCount {
  clientId: string;
  /** `null`: launched. */
  errorCode: string | null;
  count: number;
}

/** The minute `time` falls in, as launch_activity_minutes writes it: `2026-11-27T09:05`. */
export function minuteOf(time: Date): string {
  return time.toISOString().slice(0, 16);
}

/**
 * Attempts per client and first error code (null for launches) in the minutes from `since`'s on: a read
 * of the counts, at most one row per client, minute and code, however many attempts they count.
 */
export async function countAttemptsSince(db: Db, since: Date): Promise<AttemptCount[]> {
  const rows = await db
    .selectFrom('launch_activity_minutes')
    .select(['client_id', 'error_code', (eb) => eb.fn.sum<number | string>('attempts').as('count')])
    // Client by client along the key (client_id, minute, error_code): only the last minutes are read.
    .where('client_id', 'in', (eb) => eb.selectFrom('clients').select('id'))
    .where('minute', '>=', minuteOf(since))
    .groupBy(['client_id', 'error_code'])
    .orderBy('client_id')
    .orderBy('error_code')
    .execute();
  return rows.map((row) => ({
    clientId: row.client_id,
    errorCode: row.error_code === '' ? null : row.error_code,
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

/** One batch of the purge: counts of minutes before `before` (ActivityRetention, as the attempts). */
export function purgeAttemptCountsStatement(db: Db, batch: { before: Date; limit: number }): CompiledQuery {
  const old = db
    .selectFrom('launch_activity_minutes')
    .select(['client_id', 'minute', 'error_code'])
    .where('client_id', 'in', (eb) => eb.selectFrom('clients').select('id'))
    .where('minute', '<', minuteOf(batch.before))
    .limit(batch.limit);
  return db
    .deleteFrom('launch_activity_minutes')
    .where((eb) =>
      eb(
        eb.refTuple('client_id', 'minute', 'error_code'),
        'in',
        forUpdateSkipLocked(db, old).$asTuple('client_id', 'minute', 'error_code'),
      ),
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
