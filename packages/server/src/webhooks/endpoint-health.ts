import { type CompiledQuery, sql } from '#kysely';
import type { Db } from '../db/schema.js';
import { nextAttemptAt } from './retry-schedule.js';

/**
 * Failed attempts in a row, with none succeeding, after which an endpoint is failing: one claimed batch
 * (CLAIM_BATCH). A batch's attempts are all out before any is judged, so a dead endpoint gets its first
 * batch whatever the threshold; a smaller one would only tip over sooner an endpoint whose handler
 * refuses a few events of a busy stream (docs/design.md §11, "A failing endpoint").
 */
export const FAILING_AFTER_ATTEMPTS = 64;
/** The longest a failing endpoint waits between probes (a Retry-After may ask for more). */
export const PROBE_CEILING_S = 3600;

/** An endpoint's health as the deliverer reads and writes it (webhook_endpoint_health; no row: healthy). */
export interface EndpointHealth {
  failedAttempts: number;
  failingSince: string | undefined;
  nextProbeAt: string | undefined;
  failedProbes: number;
}

export const HEALTHY: EndpointHealth = {
  failedAttempts: 0,
  failingSince: undefined,
  nextProbeAt: undefined,
  failedProbes: 0,
};

export async function readEndpointHealth(db: Db, endpointId: string): Promise<EndpointHealth> {
  const row = await db
    .selectFrom('webhook_endpoint_health')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  if (row === undefined) return HEALTHY;
  return {
    failedAttempts: row.failed_attempts,
    failingSince: row.failing_since ?? undefined,
    nextProbeAt: row.next_probe_at ?? undefined,
    failedProbes: row.failed_probes,
  };
}

/**
 * The failing endpoints' health, by endpoint id (`webhook list`, the console): of one endpoint, of one
 * client's (found by its index, as its endpoints are), or of all.
 */
export async function failingEndpoints(
  db: Db,
  of: { endpointId?: string; clientId?: string } = {},
): Promise<Map<string, { failingSince: string; nextProbeAt: string | null }>> {
  let query = db
    .selectFrom('webhook_endpoint_health')
    .select(['endpoint_id', 'failing_since', 'next_probe_at'])
    .where('failing_since', 'is not', null);
  if (of.endpointId !== undefined) query = query.where('endpoint_id', '=', of.endpointId);
  const { clientId } = of;
  if (clientId !== undefined) {
    query = query.where('endpoint_id', 'in', (eb) =>
      eb.selectFrom('webhook_endpoints').select('id').where('client_id', '=', clientId),
    );
  }
  const rows = await query.execute();
  return new Map(
    rows.map((row) => [
      row.endpoint_id,
      { failingSince: row.failing_since ?? '', nextProbeAt: row.next_probe_at },
    ]),
  );
}

/** How many enabled endpoints are failing now (the gauge of docs/operations.md, "## Webhooks"). */
export async function failingEndpointCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint_health as h')
    .innerJoin('webhook_endpoints as e', 'e.id', 'h.endpoint_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('h.failing_since', 'is not', null)
    .where('e.enabled', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A batch's failed attempts, as failuresStatement adds them to its endpoint's health. */
export interface BatchFailures {
  /** Attempts that failed (0 for a probe the URL rules refused: its probe time passes all the same). */
  failed: number;
  at: Date;
  /** The first probe, should these failures make the endpoint failing. */
  firstProbeAt: Date;
  /** The next probe, should the endpoint be failing already (this batch was a failed probe). */
  nextProbeAt: Date;
}

/**
 * Adds a batch's failures to its endpoint's health, in the commit that records the batch. Relative to
 * the row as it stands at that commit, not as the run read it: another instance may send the endpoint's
 * unmarked rows meanwhile, and an operator may reset its health (`webhook update --enable`), and an
 * absolute write would overwrite either. The attempt that makes the run of failures
 * FAILING_AFTER_ATTEMPTS long makes the endpoint failing; a failing endpoint's batch is a failed probe.
 * Only for an endpoint that exists (one removed meanwhile: nothing written, where a row broke the
 * foreign key and with it the record).
 */
export function failuresStatement(db: Db, endpointId: string, failures: BatchFailures): CompiledQuery {
  const { failed, at, firstProbeAt, nextProbeAt } = failures;
  const failingAtOnce = failed >= FAILING_AFTER_ATTEMPTS;
  const threshold = sql.lit(FAILING_AFTER_ATTEMPTS);
  const run = sql`h.failed_attempts + excluded.failed_attempts`;
  return sql`insert into webhook_endpoint_health as h
      (endpoint_id, failed_attempts, failing_since, next_probe_at, failed_probes)
    select ${endpointId}, ${failed}, ${failingAtOnce ? at.toISOString() : null},
      ${failingAtOnce ? firstProbeAt.toISOString() : null}, 0
    where exists (select 1 from webhook_endpoints where id = ${endpointId})
    on conflict (endpoint_id) do update set failed_attempts = ${run},
      failing_since = case when h.failing_since is not null then h.failing_since
        when ${run} >= ${threshold} then ${at.toISOString()} end,
      next_probe_at = case when h.failing_since is not null then ${nextProbeAt.toISOString()}
        when ${run} >= ${threshold} then ${firstProbeAt.toISOString()} end,
      failed_probes = case when h.failing_since is not null then h.failed_probes + 1 else 0 end`.compile(db);
}

/** The endpoint is healthy again (or its operator changed it): its run of failures is forgotten. */
export function healthyStatement(db: Db, endpointId: string): CompiledQuery {
  return db.deleteFrom('webhook_endpoint_health').where('endpoint_id', '=', endpointId).compile();
}

/**
 * Rows a recovery's or an expiry's statement changes in one commit: a backlog of hundreds of thousands
 * changed in one statement would hold the store's writer, and with it the launches' commits, for seconds;
 * a thousand at a time, the launches commit in between (docs/design.md §11, "A failing endpoint").
 */
export const CATCH_UP_CHUNK = 1000;

/**
 * A failing endpoint answered again: up to `limit` of its pending deliveries after `after` (by id, the
 * order of their events), to be made due at once (allDueStatement). Read by the endpoint's index of ids,
 * page after page, so a backlog of any size is walked once.
 */
export async function pendingAfter(
  db: Db,
  endpointId: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('id', '>', after)
    .where('state', '=', 'pending')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Makes these pending deliveries due, each from when its event was made (or redelivered), so that the due
 * read (oldest due first) sends a recovered endpoint's backlog in the order of its events, the usual batch
 * after batch, instead of each at its own next retry, hours away.
 */
export function allDueStatement(db: Db, ids: readonly string[]): CompiledQuery {
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ next_attempt_at: eb.fn.coalesce('redelivered_at', 'created_at') }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .compile();
}

/**
 * Fails up to `limit` of the endpoint's due deliveries made (or redelivered) before `before`: while an
 * endpoint is failing only its probe is attempted, and a delivery not attempted meanwhile still ends when
 * its schedule's span has passed since its event ("about three days", docs/integration.md#webhooks). Run
 * again until it changes fewer than `limit`.
 */
export function expiredStatement(
  db: Db,
  endpointId: string,
  before: Date,
  now: Date,
  limit: number = CATCH_UP_CHUNK,
): CompiledQuery {
  return db
    .updateTable('webhook_deliveries')
    .set({
      state: 'failed',
      last_error: 'not delivered within the retry schedule (endpoint failing)',
      lease_until: null,
      claimed_by: null,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', now.toISOString())
        .where((inner) =>
          inner(inner.fn.coalesce('redelivered_at', 'created_at'), '<=', before.toISOString()),
        )
        .orderBy('next_attempt_at')
        .limit(limit),
    )
    .compile();
}

/**
 * When a failing endpoint is probed after `failedProbes` failed probes: the retry schedule's steps,
 * each at most PROBE_CEILING_S (the last step again once they are used up), ±20 % jitter; a Retry-After
 * of the answer is honoured when it asks for more (nextAttemptAt's ceiling).
 */
export function nextProbeAt(
  schedule: readonly number[],
  failedProbes: number,
  now: Date,
  retryAfter: string | undefined,
): Date {
  const step = Math.min(
    schedule[Math.min(failedProbes, schedule.length - 1)] ?? PROBE_CEILING_S,
    PROBE_CEILING_S,
  );
  return nextAttemptAt([step], 1, now, retryAfter) ?? new Date(now.getTime() + step * 1000);
}
