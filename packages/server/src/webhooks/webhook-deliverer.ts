import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/schema.js';
import type { SessionStore, WriteStatement } from '../db/session-store.js';
import {
  BIDI_FORMATTING,
  BIDI_MARKS,
  CONTROL_CHARACTERS,
  characterClass,
} from '../validation/character-sets.js';
import {
  type Attempted,
  claimedDeliveries,
  claimStatement,
  dueDeliveries,
  ENDPOINT_LEASED,
  type EndpointLease,
  endpointLeaseStatement,
  type Holding,
  hasDueDelivery,
  recordStatements,
  releaseLeasesStatement,
  type SentDelivery,
} from './delivery.repository.js';
import type { DeliveryCounter, DeliveryOutcome } from './delivery-outcome.js';
import {
  allDueStatement,
  CATCH_UP_CHUNK,
  type EndpointHealth,
  expiredStatement,
  failuresStatement,
  HEALTHY,
  healthyStatement,
  nextProbeAt,
  pendingAfter,
  readEndpointHealth,
} from './endpoint-health.js';
import { nextAttemptAt, scheduleSpanSeconds } from './retry-schedule.js';
import { SENDER_NICE, SenderThread } from './send-jobs.js';
import { endpointSecrets, type WebhookEndpoint } from './webhook-endpoint.js';
import { findWebhookEndpoint, goneStatements } from './webhook-endpoint.repository.js';
import { webhookBody } from './webhook-event.js';
import type { SendOutcome } from './webhook-sender.js';
import { webhookUrlProblem } from './webhook-url.js';

/** How often an instance looks for deliveries due: an event goes out within about this long. */
export const DELIVERY_POLL_MS = 250;
/** Deliveries of one endpoint claimed at once by one instance: one claim and one record per batch. */
export const CLAIM_BATCH = 64;
/** A batch's record is not tried again this close to the end of its rows' lease (another may take them). */
const RECORD_MARGIN_MS = 1000;
/** Deliveries of one endpoint sent at once by one instance. */
export const ENDPOINT_CONCURRENCY = 16;

export interface DelivererOptions {
  db: Db;
  /** Where claims and attempts are written: the session store's writer. */
  sessions: Pick<SessionStore, 'execute' | 'executeAll'>;
  /** The endpoints as the live configuration holds them (live-config/live-config.ts). */
  live: { readonly webhookEndpoints: readonly WebhookEndpoint[] };
  config: Pick<
    Config,
    'deployment' | 'webhookAllowPrivateAddresses' | 'webhookRetrySchedule' | 'webhookTimeoutMs'
  >;
  clock: Clock;
  metrics: { webhookDeliveries: DeliveryCounter };
  log: FastifyBaseLogger;
  pollMs?: number;
  /** Rows changed a commit when a failing endpoint's backlog is made due or failed (tests: smaller). */
  catchUpChunk?: number;
  /**
   * The sender thread's nice value (SENDER_NICE). Tests that step deliveries on a shared machine use 0:
   * at 19 a busy neighbour leaves the thread so little CPU that a local receiver's answer outlasts their
   * short timeout.
   */
  senderNice?: number;
}

/**
 * Sends the outbox. Every instance runs one; they share the work through claims (delivery.repository).
 * Each endpoint is worked on by a run of its own, so a slow or dead endpoint holds up only itself; and
 * none of this runs on a request's path, so the launches never wait for it.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Map<string, Promise<void>>();
  private ticking = false;
  private stopped = false;
  private readonly sender: SenderThread;
  private readonly timeoutMs: number;
  private readonly chunk: number;
  /** This instance as the holder of endpoint leases. */
  private readonly holder = randomUUID();
  /** When the endpoint leases this instance holds end, as last written (ms). */
  private readonly leases = new Map<string, number>();
  /**
   * What is failing now ('look' or an endpoint id): said once when it starts and once when it works again,
   * not at every poll (four times a second) while a database is away.
   */
  private readonly failing = new Set<string>();

  constructor(private readonly options: DelivererOptions) {
    this.timeoutMs = options.config.webhookTimeoutMs;
    this.chunk = options.catchUpChunk ?? CATCH_UP_CHUNK;
    this.sender = new SenderThread({
      allowPrivate: options.config.webhookAllowPrivateAddresses,
      timeoutMs: this.timeoutMs,
      concurrency: ENDPOINT_CONCURRENCY,
      nice: options.senderNice ?? SENDER_NICE,
    });
  }

  start(): void {
    // The thread starts now rather than at the first delivery, and says whether it could lower its priority.
    if (this.timer === undefined) {
      this.sender.priority().then(
        (priority) => {
          if ('unavailable' in priority) {
            this.options.log.debug(
              { reason: priority.unavailable },
              'webhook sender thread runs at the service priority',
            );
          }
        },
        (error: unknown) => this.options.log.debug({ err: error }, 'webhook sender thread did not start'),
      );
    }
    this.timer ??= setInterval(() => void this.tick(), this.options.pollMs ?? DELIVERY_POLL_MS);
    this.timer.unref();
  }

  /** Stops looking for work and waits for the attempts in flight (at most the delivery timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(this.running.values());
    await this.sender.close();
    // Another instance takes this one's endpoints at once instead of when their leases end.
    await this.options.sessions
      .execute(releaseLeasesStatement(this.options.db, this.holder))
      .catch((error: unknown) =>
        this.options.log.debug({ err: error }, 'webhook endpoint leases not released'),
      );
  }

  /** Resolves once the runs started so far have ended (tests step the deliverer with tick and idle). */
  async idle(): Promise<void> {
    await Promise.all(this.running.values());
  }

  /** Starts a run for each enabled endpoint with deliveries due that has none running. */
  async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      const now = this.options.clock();
      for (const endpoint of this.options.live.webhookEndpoints) {
        if (!endpoint.enabled || this.running.has(endpoint.id)) continue;
        if (!(await hasDueDelivery(this.options.db, endpoint.id, now))) continue;
        const run = this.run(endpoint)
          .then(
            () => this.works(endpoint.id, { endpoint: endpoint.id }, 'webhook deliveries run again'),
            (error: unknown) =>
              this.fails(
                endpoint.id,
                { err: error, endpoint: endpoint.id },
                'webhook deliveries failed to run; trying again at each poll, said again once they run',
              ),
          )
          .finally(() => this.running.delete(endpoint.id));
        this.running.set(endpoint.id, run);
      }
      this.works('look', {}, 'looking for webhook deliveries again');
    } catch (error) {
      this.fails(
        'look',
        { err: error },
        'could not look for webhook deliveries; trying again at each poll, said again once it works',
      );
    } finally {
      this.ticking = false;
    }
  }

  /** A failure logged as a warning when it starts; while it lasts, at debug level only. */
  private fails(what: string, fields: object, message: string): void {
    if (this.failing.has(what)) {
      this.options.log.debug(fields, message);
      return;
    }
    this.failing.add(what);
    this.options.log.warn(fields, message);
  }

  private works(what: string, fields: object, message: string): void {
    if (this.failing.delete(what)) this.options.log.info(fields, message);
  }

  /**
   * Sends the endpoint's due deliveries, batch after batch, until none is left. Marked rows (the usual
   * ones) go out under the endpoint's lease: read, sent, and written once, when their attempts are
   * recorded, in the commit that renews the lease. Unmarked rows (an older version's, SQLite's triggers',
   * redelivered ones) are claimed row by row first, as before. The sending itself is the sender thread's:
   * the event loop only reads or claims, hands over and records.
   *
   * Each batch goes to the endpoint as loaded now, not as it was when the run started: a run lasts as long
   * as deliveries are due, which on a busy endpoint (or a backlog) is for ever, and an operator's new URL or
   * secret (docs/cli.md#webhooks) applies from the next batch. Disabled or removed: the run ends.
   */
  private async run(started: WebhookEndpoint): Promise<void> {
    const { db, sessions, clock } = this.options;
    // Read once a run: while healthy, this run alone (the lease holder's) writes it, batch after batch;
    // a failing endpoint's run ends after its probe, and the next reads it again.
    let health = await readEndpointHealth(db, started.id);
    while (!this.stopped) {
      const endpoint = this.options.live.webhookEndpoints.find((loaded) => loaded.id === started.id);
      if (endpoint === undefined || !endpoint.enabled) return;
      const now = clock();
      const probing = health.failingSince !== undefined;
      if (probing) {
        if (health.nextProbeAt !== undefined && now.toISOString() < health.nextProbeAt) return;
        await this.expire(endpoint.id, now);
      }
      const limit = probing ? 1 : CLAIM_BATCH;
      const leased = await this.holdLease(endpoint.id, now);
      // The probe is the lease holder's alone (it reads unmarked rows too): one at a time, whatever the
      // number of instances, where another's claim of an unmarked row would be a second.
      if (probing && !leased) return;
      const due = await dueDeliveries(db, endpoint.id, now, limit, leased);
      if (due.length === 0) return;
      let holding: Holding = 'endpoint lease';
      let heldUntil = this.leases.get(endpoint.id) ?? 0;
      let rows = due;
      if (due.some((row) => row.lease_until !== ENDPOINT_LEASED)) {
        const claimId = randomUUID();
        const claim = {
          endpointId: endpoint.id,
          claimId,
          now,
          leaseUntil: this.leaseEnd(now),
          limit,
        };
        if ((await sessions.execute(claimStatement(db, claim))) === 0) return;
        holding = { claimId };
        heldUntil = claim.leaseUntil.getTime();
        rows = await claimedDeliveries(db, claimId);
      }
      const { attempted: results, answers } = await this.attempt(endpoint, rows);
      // Recorded before the next read: until then the rows are still pending. The endpoint's lease is
      // renewed in the same commit, so that it outlasts the next batch too, and the endpoint's health
      // written in it as well.
      const gone = results.some((attempted) => attempted.gone);
      const judged = gone
        ? { health: HEALTHY, statements: [] }
        : this.judgeHealth(endpoint.id, health, answers);
      const at = await this.record(
        endpoint,
        holding,
        results,
        leased && !gone,
        heldUntil,
        gone,
        judged.statements,
      );
      if (at === undefined) return;
      if (gone) {
        this.options.log.warn({ endpoint: endpoint.id }, 'webhook endpoint answered 410 Gone: disabled');
        return;
      }
      const was = health;
      // Failures were added to the row as it stood at the commit (another instance's too): read back.
      health = judged.health ?? (await readEndpointHealth(db, endpoint.id));
      if (was.failingSince === undefined && health.failingSince !== undefined) {
        this.options.log.warn(
          { endpoint: endpoint.id, failedAttempts: health.failedAttempts, nextProbeAt: health.nextProbeAt },
          'webhook endpoint failing: only one delivery at a time goes to it as a probe until one succeeds',
        );
      } else if (was.failingSince !== undefined && health.failingSince === undefined) {
        this.options.log.info(
          { endpoint: endpoint.id, failingSince: was.failingSince },
          'webhook endpoint healthy again: its pending deliveries go out now',
        );
        await this.catchUp(endpoint.id);
      }
      // A failing endpoint's run ends after its probe; the next starts at the next probe.
      if (health.failingSince !== undefined) return;
    }
  }

  /**
   * The endpoint's health after a batch's answers (docs/design.md §11, "A failing endpoint"), and what to
   * write of it in the batch's commit: nothing while it stays healthy with no failure. After failures it
   * is undefined: they are added to the stored row (failuresStatement), which the run reads back.
   * - One answer succeeded: healthy. If it was failing, every pending delivery is made due now.
   * - Only failures (refusals by the URL rules are not the endpoint's doing, nor counted): the run of
   *   failed attempts grows; at FAILING_AFTER_ATTEMPTS the endpoint is failing and probed next after the
   *   schedule's first step; a failing endpoint's failed probe puts its next probe a step further.
   */
  private judgeHealth(
    endpointId: string,
    health: EndpointHealth,
    answers: BatchAnswers,
  ): { health: EndpointHealth | undefined; statements: WriteStatement[] } {
    const { db, config } = this.options;
    if (answers.delivered > 0) {
      if (health.failingSince !== undefined) {
        return {
          health: HEALTHY,
          // Its backlog is made due next, a chunk a commit (catchUp).
          statements: [healthyStatement(db, endpointId)],
        };
      }
      return health.failedAttempts > 0
        ? { health: HEALTHY, statements: [healthyStatement(db, endpointId)] }
        : { health, statements: [] };
    }
    // All refused by the URL rules: no word of the endpoint's health, but a failing endpoint's probe
    // time passes all the same (else a refused probe would be followed by another at every poll).
    if (answers.failed === 0 && health.failingSince === undefined) return { health, statements: [] };
    const { at, retryAfter } = answers;
    const schedule = config.webhookRetrySchedule;
    const failures = {
      failed: answers.failed,
      at,
      firstProbeAt: nextProbeAt(schedule, 0, at, retryAfter),
      // As this run knows the failed probes: another instance's probe meanwhile only moves it a step less.
      nextProbeAt: nextProbeAt(schedule, health.failedProbes + 1, at, retryAfter),
    };
    // Added to the row as it stands at the commit; the run reads the result back after it.
    return { health: undefined, statements: [failuresStatement(db, endpointId, failures)] };
  }

  /**
   * Fails a failing endpoint's deliveries due and older than the retry schedule's span: they were held
   * back, not attempted, and still end "about three days" after their event (counted as `failed`).
   */
  private async expire(endpointId: string, now: Date): Promise<void> {
    const { db, sessions, config } = this.options;
    const before = new Date(now.getTime() - scheduleSpanSeconds(config.webhookRetrySchedule) * 1000);
    // A chunk a commit, so that the launches commit in between (CATCH_UP_CHUNK).
    for (;;) {
      const failed = await sessions.execute(expiredStatement(db, endpointId, before, now, this.chunk));
      if (failed > 0) this.options.metrics.webhookDeliveries.inc({ outcome: 'failed' }, failed);
      if (failed < this.chunk || this.stopped) return;
    }
  }

  /**
   * Makes a recovered endpoint's pending deliveries due, in the order of their events, a chunk a commit
   * (CATCH_UP_CHUNK), before its run goes on. Stopped or cut off by a failed write, the rest keep their own
   * retry times: later, not lost.
   */
  private async catchUp(endpointId: string): Promise<void> {
    const { db, sessions } = this.options;
    let after = '';
    while (!this.stopped) {
      const ids = await pendingAfter(db, endpointId, after, this.chunk);
      if (ids.length > 0) await sessions.execute(allDueStatement(db, ids));
      if (ids.length < this.chunk) return;
      after = ids.at(-1) ?? after;
    }
  }

  /**
   * Records a batch's answers, and says when (undefined: not recorded); after a 410 (`gone`), with the
   * endpoint disabled and its pending deliveries failed in the same commit. A write that fails (the database
   * away for a moment) is tried again while the rows' lease holds, so that an answer already received is
   * not sent again once the database is back (docs/integration.md#webhooks: twice only if an instance dies
   * between sending and recording). Past the lease, or when stopping, the rows are sent again, once their
   * lease (the claim's or the endpoint's) ends.
   */
  private async record(
    { id: endpointId, url }: WebhookEndpoint,
    holding: Holding,
    results: readonly Attempted[],
    leased: boolean,
    heldUntil: number,
    gone: boolean,
    health: readonly WriteStatement[],
  ): Promise<Date | undefined> {
    const { db, sessions, clock } = this.options;
    for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
      const at = clock();
      try {
        // The health's statements first: the lease's, when renewed, stays the last (its count is read).
        // A recovery's (every pending delivery due) before the batch's own: a retry this batch scheduled
        // keeps its time.
        const record = [
          ...health,
          ...recordStatements(db, holding, results, at, leased ? this.lease(endpointId, at) : undefined),
        ];
        if (gone) record.push(...goneStatements(db, endpointId, url, at));
        const changes = await sessions.executeAll(record);
        if (leased) this.heldLease(endpointId, at, changes.at(-1) === 1);
        return at;
      } catch (error) {
        if (this.stopped || clock().getTime() + pause + RECORD_MARGIN_MS >= heldUntil) {
          this.options.log.warn({ err: error, endpoint: endpointId }, 'could not record webhook attempts');
          return undefined;
        }
        this.options.log.debug({ err: error, endpoint: endpointId }, 'could not record webhook attempts yet');
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /**
   * A lease (a claim's or an endpoint's) outlasts a batch's attempts, ENDPOINT_CONCURRENCY at a time,
   * each at most the timeout, by 5 s: no other instance takes the rows while this one may still send them.
   */
  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.batchMs() + 5000);
  }

  private batchMs(): number {
    return Math.ceil(CLAIM_BATCH / ENDPOINT_CONCURRENCY) * this.timeoutMs;
  }

  private lease(endpointId: string, now: Date): EndpointLease {
    return { endpointId, holder: this.holder, now, leaseUntil: this.leaseEnd(now) };
  }

  private heldLease(endpointId: string, at: Date, held: boolean): void {
    if (held) this.leases.set(endpointId, this.leaseEnd(at).getTime());
    else this.leases.delete(endpointId);
  }

  /**
   * Whether this instance holds the endpoint's lease for a whole batch from now: as last written (each
   * batch's record renews it), else taken or renewed now. Another instance holds it: false.
   */
  private async holdLease(endpointId: string, now: Date): Promise<boolean> {
    const until = this.leases.get(endpointId);
    if (until !== undefined && until - now.getTime() > this.batchMs()) return true;
    const changed = await this.options.sessions.execute(
      endpointLeaseStatement(this.options.db, this.lease(endpointId, now)),
    );
    this.heldLease(endpointId, now, changed === 1);
    return changed === 1;
  }

  /** Sends a batch of the endpoint's deliveries (through the sender thread) and judges each answer. */
  private async attempt(
    endpoint: WebhookEndpoint,
    rows: readonly SentDelivery[],
  ): Promise<{ attempted: Attempted[]; answers: BatchAnswers }> {
    const problem = webhookUrlProblem(endpoint.url, this.options.config);
    const secrets = endpointSecrets(endpoint, this.options.clock());
    const outcomes: SendOutcome[] =
      problem === undefined
        ? await this.sender.sendAll({
            endpoint: endpoint.id,
            url: endpoint.url,
            secrets,
            ids: rows.map((row) => row.id),
            bodies: rows.map(webhookBody),
          })
        : rows.map(() => ({ kind: 'failed', error: problem, refused: true }));
    // A 410 disables the endpoint only if it still has the URL that said it (goneStatements checks again
    // as it records): one moved meanwhile retries the delivery at its new URL. Read only on a 410.
    const goneHere =
      outcomes.some((outcome) => outcome.kind === 'answered' && outcome.status === 410) &&
      (await findWebhookEndpoint(this.options.db, endpoint.id).catch(() => endpoint))?.url === endpoint.url;
    const answeredAt = this.options.clock();
    const counted = new Map<DeliveryOutcome, number>();
    const count = (kind: DeliveryOutcome) => counted.set(kind, (counted.get(kind) ?? 0) + 1);
    const attempted = rows.map((row, index) =>
      this.judge(row, outcomes[index] as SendOutcome, answeredAt, count, goneHere),
    );
    // Counted once a batch per outcome: one inc per delivery was 0.1-0.5 µs each (docs/performance.md).
    for (const [outcome, n] of counted) this.options.metrics.webhookDeliveries.inc({ outcome }, n);
    // The last Retry-After of the batch's failed answers: a probe's is the only one (batch of one).
    const retryAfter = outcomes.findLast(
      (outcome) => outcome.kind === 'answered' && outcome.retryAfter !== undefined,
    );
    const answers: BatchAnswers = {
      at: answeredAt,
      delivered: counted.get('delivered') ?? 0,
      failed: (counted.get('retrying') ?? 0) + (counted.get('failed') ?? 0),
      retryAfter: retryAfter?.kind === 'answered' ? retryAfter.retryAfter : undefined,
    };
    return { attempted, answers };
  }

  private judge(
    row: SentDelivery,
    outcome: SendOutcome,
    now: Date,
    count: (outcome: DeliveryOutcome) => void,
    goneHere: boolean,
  ): Attempted {
    if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
      count('delivered');
      return { row, result: { state: 'delivered', status: outcome.status }, gone: false };
    }
    const status = outcome.kind === 'answered' ? outcome.status : null;
    const error = printable(
      outcome.kind === 'answered'
        ? `HTTP ${outcome.status}${outcome.body === '' ? '' : `: ${outcome.body.slice(0, 200)}`}`
        : outcome.error,
    );
    if (status === 410 && goneHere) {
      count('gone');
      return { row, result: { state: 'failed', status, error }, gone: true };
    }
    const retryAfter = outcome.kind === 'answered' ? outcome.retryAfter : undefined;
    const next = nextAttemptAt(
      this.options.config.webhookRetrySchedule,
      row.attempts + 1,
      now,
      retryAfter,
      new Date(row.redelivered_at ?? row.occurred_at),
      Math.random,
      this.timeoutMs + (this.options.pollMs ?? DELIVERY_POLL_MS),
    );
    count(
      next === undefined ? 'failed' : outcome.kind === 'failed' && outcome.refused ? 'refused' : 'retrying',
    );
    return {
      row,
      result:
        next === undefined
          ? { state: 'failed', status, error }
          : { state: 'pending', status, error, nextAttemptAt: next },
      gone: false,
    };
  }
}

/** What a batch's answers say of its endpoint (WebhookDeliverer.judgeHealth). */
interface BatchAnswers {
  at: Date;
  delivered: number;
  /** Failed attempts, whether retried or not; not the URL rules' refusals, nor a 410. */
  failed: number;
  retryAfter: string | undefined;
}

/**
 * Control characters (C0, DEL, C1) and the bidirectional-text controls, which reorder what follows them on
 * screen (U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const UNPRINTABLE = new RegExp(characterClass(CONTROL_CHARACTERS, BIDI_MARKS, BIDI_FORMATTING), 'g');

/**
 * A delivery's last error as it is kept and shown: an endpoint's answer is the integrator's to write, and
 * `webhook deliveries` prints it in an operator's terminal, where an escape sequence would act (retitle
 * the window, write to the clipboard, hide or fake lines) and a line break would make rows of its own.
 * Each such character becomes a space.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, ' ');
}
