import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { Db } from '../db/schema.js';
import { RepeatedFailure } from '../repeated-failure.js';
import { SERVICE_VERSION } from '../version.js';

/** How often a listening instance says it is alive; the console calls one silent for 3 beats "silent". */
export const HEARTBEAT_INTERVAL_MS = 15_000;

export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  startedAt: string;
  seenAt: string;
  draining: boolean;
  /** Null: an instance of a version before these were recorded. */
  version: string | null;
  /** `host:port`, several joined by ", "; null as `version`. */
  listeningOn: string | null;
}

/**
 * Each listening instance records itself in `instances` every HEARTBEAT_INTERVAL_MS (through the session
 * writer, like the purge), so the console of any instance shows them all; a closing instance deletes
 * its row. Failures are retried at the next beat, and logged once until one works again. A beat is also the write readiness tries
 * while writes fail (docs/design.md §10).
 */
export function registerInstanceHeartbeat(app: FastifyInstance, context: AppContext): void {
  const id = randomUUID();
  const startedAt = context.clock().toISOString();
  let timer: NodeJS.Timeout | undefined;
  // Readiness tries a beat once a second while writes fail (a read-only database can last hours): said
  // once, not at every beat (docs/operations.md, Database outages).
  const beats = new RepeatedFailure(
    app.log,
    'could not record this instance as alive; retrying at the next beat, said again once it works',
    'instance recorded as alive again',
  );
  const beat = async () => {
    const now = context.clock().toISOString();
    const row = { id, host: hostname(), pid: process.pid, started_at: startedAt, version: SERVICE_VERSION };
    // From the signal on (SHUTDOWN_DELAY's readiness 503 included): the console calls it draining.
    const draining = context.state.unready ? 1 : 0;
    // Updated at each beat: readiness's probe may write the first before the server listens.
    const changing = { seen_at: now, draining, listening_on: listeningOn(app) };
    const statement = context.db
      .insertInto('instances')
      .values({ ...row, ...changing })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(changing))
      .compile();
    await context.sessions.execute(statement).then(
      () => beats.works(),
      (error: unknown) => beats.fails(error),
    );
  };
  // Readiness's probe write once a write failed (write-health.ts); never once the row is deleted at close.
  context.writeHealth.probeWith(async () => {
    if (!context.state.draining) await beat();
  });
  // Said at once, not at the next beat: a SHUTDOWN_DELAY may be shorter than the interval.
  context.state.onUnready.push(() => {
    if (timer !== undefined) void beat();
  });
  app.addHook('onListen', async () => {
    await beat();
    timer = setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer === undefined) return;
    clearInterval(timer);
    await context.sessions
      .execute(context.db.deleteFrom('instances').where('id', '=', id).compile())
      .catch(() => undefined);
  });
}

/** The addresses the server listens on, as `poker-launch status` shows them; null before it listens. */
function listeningOn(app: FastifyInstance): string | null {
  // A string: a Unix socket's path.
  const addresses = app
    .addresses()
    .map((info) =>
      typeof info === 'string'
        ? info
        : info.family === 'IPv6'
          ? `[${info.address}]:${info.port}`
          : `${info.address}:${info.port}`,
    );
  return addresses.length === 0 ? null : addresses.join(', ');
}

export async function listInstances(db: Db): Promise<InstanceRecord[]> {
  const rows = await db.selectFrom('instances').selectAll().orderBy('started_at').execute();
  return rows.map((row) => ({
    id: row.id,
    host: row.host,
    pid: Number(row.pid),
    startedAt: row.started_at,
    seenAt: row.seen_at,
    draining: row.draining === 1,
    version: row.version,
    listeningOn: row.listening_on,
  }));
}
