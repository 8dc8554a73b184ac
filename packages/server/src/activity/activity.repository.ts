import type { CompiledQuery, Selectable } from 'kysely';
import { jsonRowsInsert } from '../db/json-rows-insert.js';
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

/** One statement for a whole batch, whatever its size (db/json-rows-insert.ts). */
export function insertAttemptsStatement(db: Db, attempts: readonly LaunchAttempt[]): CompiledQuery {
  return jsonRowsInsert(
    db,
    'launch_activity',
    COLUMNS,
    attempts.map((attempt) => {
      const at = new Date(attempt.at);
      return {
        // Time first, as session ids: the newest are at the end of the index, and ids sort as times.
        id: generateSessionId(at),
        at: at.toISOString(),
        client_id: attempt.clientId,
        api_version: attempt.apiVersion,
        status: attempt.status,
        error_code: attempt.errors[0]?.code ?? null,
        errors: attempt.errors.length === 0 ? null : JSON.stringify(attempt.errors),
        hints: attempt.hints.length === 0 ? null : JSON.stringify(attempt.hints),
        player_id: attempt.playerId,
        request_id: attempt.requestId,
      };
    }),
  );
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
