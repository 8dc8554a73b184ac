import type SQLite from 'better-sqlite3';
import { type CompiledQuery, sql, type UpdateQueryBuilder, type UpdateResult } from '#kysely';
import { dialectOf } from '../db/dialect-of.js';
import { ENDPOINT_LEASED } from '../db/endpoint-leased.js';
import { type IdWindow, idBound, newestFirst } from '../db/id-window.js';
import { postgresPoolOf } from '../db/postgres/postgres-pool-of.js';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { DatabaseSchema, Db } from '../db/schema.js';
import type { WriteStatement } from '../db/session-store.js';
import { sqliteConnectionOf } from '../db/sqlite/connected-sqlite-dialect.js';
import type { DeliveryRow } from './webhook-event.js';

/**
 * What the deliverer reads of a row it sends: the body's columns, the id, the attempts so far, when a
 * redelivery restarted its schedule, and whose the row is. Not the rest: on PostgreSQL each column read
 * is parsed on the event loop.
 */
const SENT_COLUMNS = [
  'id',
  'event_type',
  'occurred_at',
  'client_id',
  'player_id',
  'session_id',
  'game_session_id',
  'reason',
  'block_until',
  'attempts',
  'lease_until',
  'redelivered_at',
] as const;

/** A row the deliverer sends. */
export type SentDelivery = Pick<DeliveryRow, (typeof SENT_COLUMNS)[number]>;

export { ENDPOINT_LEASED };

/**
 * Whether the endpoint has a delivery due now that nobody holds on its own (marked rows are the
 * endpoint lease holder's): one short walk of the due index, however long the backlog. A failing
 * endpoint has none before its next probe (docs/design.md §11, "A failing endpoint"): its run is not
 * started at each poll only to find that it must wait.
 */
export async function hasDueDelivery(db: Db, endpointId: string, now: Date): Promise<boolean> {
  const pool = postgresPoolOf(db);
  if (pool !== undefined) {
    const { rows } = await pool.query(PG_HAS_DUE, [endpointId, now.toISOString()]);
    return rows.length > 0;
  }
  const row = await due(db, endpointId, now, true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_endpoint_health')
            .select('endpoint_id')
            .where('webhook_endpoint_health.endpoint_id', '=', endpointId)
            .where('webhook_endpoint_health.next_probe_at', '>', now.toISOString()),
        ),
      ),
    )
    .select('id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/*
 * PostgreSQL's statements of a batch as fixed texts: the event loop neither builds nor compiles a
 * query per batch (Kysely), and the due read's rows come as arrays (pg's row objects): a delivered
 * event's event loop 31 → 20 µs in a drain (docs/performance.md). Not prepared by name: a generic plan
 * made while the table was small kept a sequential scan as it grew (the record's backend CPU per event
 * 26 → 96 µs over 23,000 rows), so each is planned with its values, as Kysely's were. The same SQL as
 * the Kysely queries below, with a batch's ids as one array.
 */
const PG_DUE = `from webhook_deliveries
  where endpoint_id = $1 and state = 'pending' and next_attempt_at <= $2
    and (lease_until is null or lease_until <= $2 or lease_until = '${ENDPOINT_LEASED}')`;
const PG_DUE_UNLEASED = `from webhook_deliveries
  where endpoint_id = $1 and state = 'pending' and next_attempt_at <= $2
    and (lease_until is null or lease_until <= $2)`;
/** Not while the endpoint is failing and its next probe is later (endpoint-health.ts). */
const PG_NOT_WAITING_FOR_PROBE = `and not exists (select 1 from webhook_endpoint_health
    where webhook_endpoint_health.endpoint_id = $1 and webhook_endpoint_health.next_probe_at > $2)`;
const PG_HAS_DUE = `select id ${PG_DUE} ${PG_NOT_WAITING_FOR_PROBE} limit 1`;
const PG_DUE_READ = {
  text: `select ${SENT_COLUMNS.join(', ')} ${PG_DUE} order by next_attempt_at limit $3`,
  rowMode: 'array',
} as const;
const PG_DUE_READ_UNLEASED = {
  text: `select ${SENT_COLUMNS.join(', ')} ${PG_DUE_UNLEASED} order by next_attempt_at limit $3`,
  rowMode: 'array',
} as const;
/**
 * The lease's statement (endpointLeaseStatement), its parameters at the places given. Only for an
 * endpoint that exists: one removed while its batch was in flight gets no lease (none written, no
 * change), where inserting one broke the lease's foreign key and with it the commit that records the
 * batch, tried again and again until the lease ran out, its run held up meanwhile.
 */
const leaseSql = (endpoint: string, holder: string, until: string, now: string, cast = '') =>
  `insert into webhook_endpoint_leases (endpoint_id, holder, lease_until)
  select ${endpoint}${cast}, ${holder}${cast}, ${until}${cast}
  where exists (select 1 from webhook_endpoints where id = ${endpoint}${cast})
  on conflict (endpoint_id) do update set holder = excluded.holder, lease_until = excluded.lease_until
  where webhook_endpoint_leases.holder = ${holder}${cast} or webhook_endpoint_leases.lease_until <= ${now}${cast}`;
const pgLease = (endpoint: string, holder: string, until: string, now: string) =>
  leaseSql(endpoint, holder, until, now, '::text');
/** SQLite's, with plain placeholders: endpoint, holder, until, endpoint, holder, now. */
const SQLITE_LEASE = leaseSql('?', '?', '?', '?');
/** A batch's delivered rows ($1 status, $2 when, $3 ids, $4 'pending') the endpoint's lease holds. */
const PG_DELIVERED_LEASED = `update webhook_deliveries set state = 'delivered', attempts = attempts + 1,
    last_status = $1, last_error = null, delivered_at = $2
  where id = any($3::text[]) and state = $4 and lease_until = '${ENDPOINT_LEASED}'`;
const PG_LEASE = pgLease('$1', '$2', '$3', '$4');
/** Delivered rows a claim ($4, $5 'pending') holds, let go. */
const PG_DELIVERED_CLAIMED = `update webhook_deliveries set state = 'delivered', attempts = attempts + 1,
    last_status = $1, last_error = null, delivered_at = $2, lease_until = null, claimed_by = null
  where id = any($3::text[]) and claimed_by = $4 and state = $5`;
/**
 * The same and the lease renewed ($5 endpoint, $6 holder, $7 until, $8 now) in one statement, its own
 * transaction: the batch's usual record is one round trip instead of four (begin, two, commit).
 */
const PG_DELIVERED_RENEWING = `with recorded as (${PG_DELIVERED_LEASED})
  ${pgLease('$5', '$6', '$7', '$8')}`;

export interface EndpointLease {
  endpointId: string;
  /** The deliverer (one per instance). */
  holder: string;
  now: Date;
  leaseUntil: Date;
}

/**
 * Takes or renews the endpoint's lease: changes one row when it was free, ended, or already this
 * holder's, none when another holds it. Its holder alone sends the endpoint's marked rows, without
 * writing them until it records their attempts.
 */
export function endpointLeaseStatement(db: Db, lease: EndpointLease): WriteStatement {
  if (postgresPoolOf(db) !== undefined) {
    const now = lease.now.toISOString();
    return {
      sql: PG_LEASE,
      parameters: [lease.endpointId, lease.holder, lease.leaseUntil.toISOString(), now],
    };
  }
  return {
    sql: SQLITE_LEASE,
    parameters: [
      lease.endpointId,
      lease.holder,
      lease.leaseUntil.toISOString(),
      lease.endpointId,
      lease.holder,
      lease.now.toISOString(),
    ],
  };
}

/** Lets go of every endpoint lease the holder has (it stops): another instance takes them at once. */
export function releaseLeasesStatement(db: Db, holder: string): CompiledQuery {
  return db.deleteFrom('webhook_endpoint_leases').where('holder', '=', holder).compile();
}

/**
 * Up to `limit` deliveries of the endpoint due now, oldest due first: those nobody holds on their own,
 * and with `leased` (this deliverer holds the endpoint's lease) the marked ones too. A marked row is
 * sent as read; any other is claimed first (claimStatement).
 */
export async function dueDeliveries(
  db: Db,
  endpointId: string,
  now: Date,
  limit: number,
  leased: boolean,
): Promise<SentDelivery[]> {
  const pool = postgresPoolOf(db);
  if (pool !== undefined) {
    const { rows } = await pool.query<SentValues>({
      ...(leased ? PG_DUE_READ : PG_DUE_READ_UNLEASED),
      values: [endpointId, now.toISOString(), limit],
    });
    return rows.map(sentDelivery);
  }
  const query = due(db, endpointId, now, leased).select(SENT_COLUMNS).orderBy('next_attempt_at').limit(limit);
  const sqlite = sqliteConnectionOf(db);
  if (sqlite === undefined) return query.execute();
  // Kysely prepares the statement again on every call and better-sqlite3 makes each row an object
  // property by property; a kept statement's rows as arrays, made objects here, cost the event loop
  // about half (docs/performance.md, "Webhooks on the launch path").
  const { sql, parameters } = query.compile();
  return keptStatement(sqlite, sql)
    .all(...parameters)
    .map((values) => sentDelivery(values as SentValues));
}

/** A row of the due read as an array, in SENT_COLUMNS' order. */
type SentValues = [
  SentDelivery['id'],
  SentDelivery['event_type'],
  SentDelivery['occurred_at'],
  SentDelivery['client_id'],
  SentDelivery['player_id'],
  SentDelivery['session_id'],
  SentDelivery['game_session_id'],
  SentDelivery['reason'],
  SentDelivery['block_until'],
  SentDelivery['attempts'],
  SentDelivery['lease_until'],
  SentDelivery['redelivered_at'],
];

function sentDelivery(values: SentValues): SentDelivery {
  return {
    id: values[0],
    event_type: values[1],
    occurred_at: values[2],
    client_id: values[3],
    player_id: values[4],
    session_id: values[5],
    game_session_id: values[6],
    reason: values[7],
    block_until: values[8],
    attempts: values[9],
    lease_until: values[10],
    redelivered_at: values[11],
  };
}

/** The due read's statements, prepared once per connection and text (two texts: leased or not). */
const keptStatements = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

function keptStatement(sqlite: SQLite.Database, sql: string): SQLite.Statement {
  let kept = keptStatements.get(sqlite);
  if (kept === undefined) {
    kept = new Map();
    keptStatements.set(sqlite, kept);
  }
  let statement = kept.get(sql);
  if (statement === undefined) {
    statement = sqlite.prepare(sql).raw(true);
    kept.set(sql, statement);
  }
  return statement;
}

/**
 * The endpoint's pending deliveries due now that nobody holds on its own (no lease, or one that
 * ended), and with `leased` the marked ones, which are the endpoint lease holder's.
 */
function due(db: Db, endpointId: string, now: Date, leased: boolean) {
  const at = now.toISOString();
  return db
    .selectFrom('webhook_deliveries')
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) =>
      eb.or([
        eb('lease_until', 'is', null),
        eb('lease_until', '<=', at),
        ...(leased ? [eb('lease_until', '=', ENDPOINT_LEASED)] : []),
      ]),
    );
}

export interface Claim {
  endpointId: string;
  /** Marks the rows this claim holds (unique per claim). */
  claimId: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/**
 * Takes up to `limit` due deliveries of one endpoint for this claim until the lease ends: on
 * PostgreSQL, rows another instance is claiming are skipped (SKIP LOCKED); on SQLite the statement
 * holds the one write lock. A claimed row is nobody else's until its lease ends (a crashed instance's
 * rows come back then: the only way one event is sent twice).
 */
export function claimStatement(db: Db, claim: Claim): CompiledQuery {
  const unheld = due(db, claim.endpointId, claim.now, false)
    .select('id')
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: claim.leaseUntil.toISOString(), claimed_by: claim.claimId })
    .where('id', 'in', forUpdateSkipLocked(db, unheld))
    .compile();
}

export async function claimedDeliveries(db: Db, claimId: string): Promise<SentDelivery[]> {
  return db.selectFrom('webhook_deliveries').select(SENT_COLUMNS).where('claimed_by', '=', claimId).execute();
}

/** What one attempt came to. */
export type AttemptResult =
  | { state: 'delivered'; status: number }
  | { state: 'pending'; status: number | null; error: string; nextAttemptAt: Date }
  | { state: 'failed'; status: number | null; error: string };

/**
 * What holds the rows being recorded: a claim of its own rows (its id), or the endpoint's lease, whose
 * marked rows keep their mark (a retry stays the lease holder's).
 */
export type Holding = { claimId: string } | 'endpoint lease';

type DeliveriesUpdate = UpdateQueryBuilder<
  DatabaseSchema,
  'webhook_deliveries',
  'webhook_deliveries',
  UpdateResult
>;

/** The rows a holding may record: its claim's or the marked ones, and only while they are pending. */
function held(query: DeliveriesUpdate, holding: Holding): DeliveriesUpdate {
  // Still pending: a row failed meanwhile (its endpoint disabled or removed) stays failed.
  const pending = query.where('state', '=', 'pending');
  return holding === 'endpoint lease'
    ? pending.where('lease_until', '=', ENDPOINT_LEASED)
    : pending.where('claimed_by', '=', holding.claimId);
}

/** Records an attempt of a delivery this holding has, and lets a claimed row go. */
export function attemptStatement(
  db: Db,
  id: string,
  holding: Holding,
  result: AttemptResult,
  now: Date,
): CompiledQuery {
  const at = now.toISOString();
  const query = db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      state: result.state,
      attempts: eb('attempts', '+', 1),
      last_status: result.status,
      last_error: result.state === 'delivered' ? null : result.error,
      delivered_at: result.state === 'delivered' ? at : null,
      ...(result.state === 'pending' ? { next_attempt_at: result.nextAttemptAt.toISOString() } : {}),
      ...(holding === 'endpoint lease' ? {} : { lease_until: null, claimed_by: null }),
    }))
    .where('id', '=', id);
  return held(query, holding).compile();
}

/** One attempt of a delivery a claim holds, as the deliverer judged it. */
export interface Attempted {
  row: SentDelivery;
  result: AttemptResult;
  /** The endpoint answered 410 Gone. */
  gone: boolean;
}

/**
 * Records a claim's attempts and lets their rows go: the delivered ones in one statement per answered
 * status (a batch is usually one statement), the others one each (each has its own error and next time).
 * With `lease` (the endpoint's, renewed in the same transaction) the last statement is the lease's, its
 * count last; on PostgreSQL a batch's usual record (all delivered, one status) carries it in one statement.
 */
export function recordStatements(
  db: Db,
  holding: Holding,
  attempts: readonly Attempted[],
  now: Date,
  lease?: EndpointLease,
): WriteStatement[] {
  const at = now.toISOString();
  const deliveredByStatus = new Map<number, string[]>();
  const statements: WriteStatement[] = [];
  for (const { row, result } of attempts) {
    if (result.state !== 'delivered') {
      statements.push(attemptStatement(db, row.id, holding, result, now));
      continue;
    }
    const ids = deliveredByStatus.get(result.status);
    if (ids === undefined) deliveredByStatus.set(result.status, [row.id]);
    else ids.push(row.id);
  }
  const postgres = postgresPoolOf(db) !== undefined;
  if (postgres && lease !== undefined && holding === 'endpoint lease' && statements.length === 0) {
    const [delivered, ...others] = deliveredByStatus;
    if (delivered !== undefined && others.length === 0) {
      const [status, ids] = delivered;
      const { endpointId, holder } = lease;
      const until = lease.leaseUntil.toISOString();
      return [
        {
          sql: PG_DELIVERED_RENEWING,
          parameters: [status, at, ids, 'pending', endpointId, holder, until, lease.now.toISOString()],
        },
      ];
    }
  }
  for (const [status, ids] of deliveredByStatus) {
    if (postgres) {
      statements.push(
        holding === 'endpoint lease'
          ? { sql: PG_DELIVERED_LEASED, parameters: [status, at, ids, 'pending'] }
          : { sql: PG_DELIVERED_CLAIMED, parameters: [status, at, ids, holding.claimId, 'pending'] },
      );
      continue;
    }
    const query = db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        state: 'delivered',
        attempts: eb('attempts', '+', 1),
        last_status: status,
        last_error: null,
        delivered_at: at,
        ...(holding === 'endpoint lease' ? {} : { lease_until: null, claimed_by: null }),
      }))
      .where('id', 'in', ids);
    statements.push(held(query, holding).compile());
  }
  if (lease !== undefined) statements.push(endpointLeaseStatement(db, lease));
  return statements;
}

/**
 * The age in seconds of the oldest event not delivered yet (0: none waiting), counted from when it
 * became due: its creation, or its last redelivery. From its creation alone, redelivering a week-old
 * failed delivery made the gauge a week old at once, and its alert fire (docs/operations.md, metrics).
 */
export async function oldestPendingAgeSeconds(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min(eb.fn.coalesce('redelivered_at', 'created_at')).as('oldest'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  const oldest = row?.oldest;
  return typeof oldest === 'string' ? Math.max(0, (now.getTime() - Date.parse(oldest)) / 1000) : 0;
}

/**
 * How many of the endpoint's deliveries are not yet made, counted up to `cap` (a busy endpoint's backlog
 * can be millions; `cap` read says "at least"): what removing it drops. Read from the index that holds
 * only the pending rows.
 */
export async function countPendingDeliveries(db: Db, endpointId: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('state', '=', 'pending')
        .limit(cap)
        .as('pending'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The endpoint's deliveries, newest first, in `window` (db/id-window.ts; `failed`: those that gave up only). */
export async function listDeliveries(
  db: Db,
  endpointId: string,
  window: IdWindow & { failed?: boolean },
): Promise<DeliveryRow[]> {
  const bound = idBound(window);
  if (window.failed && dialectOf(db) === 'sqlite') {
    // The index of failed deliveries (migration 025), named: SQLite's planner, without statistics, took
    // the endpoint's index of all its deliveries and read every delivered one to find the few failed.
    const from = bound === undefined ? sql`` : sql`and id ${sql.raw(bound.op)} ${bound.id}`;
    const { rows } = await sql<DeliveryRow>`select * from webhook_deliveries
      indexed by webhook_deliveries_failed_idx
      where endpoint_id = ${endpointId} and state = 'failed' ${from}
      order by id ${sql.raw(bound?.order ?? 'desc')} limit ${window.limit}`.execute(db);
    return newestFirst(window, rows);
  }
  let query = db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
  // Written out, not a parameter: only then may PostgreSQL's plans use the index of failed deliveries.
  if (window.failed) query = query.where('state', '=', sql.lit('failed'));
  if (bound !== undefined) query = query.where('id', bound.op, bound.id);
  const rows = await query
    .orderBy('id', bound?.order ?? 'desc')
    .limit(window.limit)
    .execute();
  return newestFirst(window, rows);
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Sends a delivery that ended (failed or delivered) again, from now, with a fresh schedule; only while its
 * endpoint is enabled, checked in the same statement: a disabled endpoint's deliveries are not sent, and
 * one made pending there would wait for ever, the oldest-pending gauge aging with it (docs/operations.md,
 * PokerLaunchWebhooksBehind), where disabling fails them so that none does.
 */
export async function redeliver(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await redelivering(db, now).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Sends these deliveries again as `redeliver` does, those still failed only (one redelivered and delivered
 * meanwhile is not sent twice); answers how many it changed. Up to CATCH_UP_CHUNK ids a call: each call
 * its own short write (docs/design.md §11, "A failing endpoint").
 */
export async function redeliverFailed(db: Db, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await redelivering(db, now)
    .where('id', 'in', ids)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a redelivery sets on a row, and on which: ended rows of an enabled endpoint. */
function redelivering(db: Db, now: Date) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      attempts: 0,
      next_attempt_at: now.toISOString(),
      lease_until: null,
      claimed_by: null,
      redelivered_at: now.toISOString(),
    })
    .where('state', '<>', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_endpoints')
          .select('webhook_endpoints.id')
          .whereRef('webhook_endpoints.id', '=', 'webhook_deliveries.endpoint_id')
          .where('webhook_endpoints.enabled', '=', 1),
      ),
    );
}

/**
 * Up to `limit` of the endpoint's failed deliveries after `after` (by id), made at `since` or later when
 * given: a bulk redelivery's page. Read by the index of failed deliveries (migration 025).
 */
export async function failedAfter(
  db: Db,
  endpointId: string,
  after: string,
  since: Date | undefined,
  limit: number,
): Promise<string[]> {
  const from = since === undefined ? sql`` : sql`and created_at >= ${since.toISOString()}`;
  // Named on SQLite, as listDeliveries does: its planner, without statistics, took another index.
  const indexed = dialectOf(db) === 'sqlite' ? sql`indexed by webhook_deliveries_failed_idx` : sql``;
  const { rows } = await sql<{ id: string }>`select id from webhook_deliveries ${indexed}
    where endpoint_id = ${endpointId} and state = 'failed' and id > ${after} ${from}
    order by id limit ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

/** How long delivered and failed deliveries stay listed (and redeliverable) before they are purged. */
export const DELIVERY_RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * Deliveries made before `before` that ended (delivered or failed) are deleted, at most `limit`. Found
 * through the primary key: an id starts with its creation time.
 */
export function purgeDeliveriesStatement(db: Db, before: Date, limit: number): CompiledQuery {
  const ended = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '<', `msg_${before.getTime().toString(16).padStart(12, '0')}`)
    .where('state', '<>', 'pending')
    .limit(limit);
  return db.deleteFrom('webhook_deliveries').where('id', 'in', forUpdateSkipLocked(db, ended)).compile();
}
