import { isIP } from 'node:net';
import { buildConnector, type Dispatcher, Pool } from 'undici';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress, type Resolve } from './address-guard.js';

/** The most of an answer's body read: enough for an error message, not for a flood. */
export const RESPONSE_BODY_LIMIT = 4096;
/** An idle connection kept for an endpoint's next batch is closed after this long unused. */
const IDLE_MS = 30_000;

export type SendOutcome =
  | { kind: 'answered'; status: number; retryAfter: string | undefined; body: string }
  | { kind: 'failed'; error: string; refused: boolean };

export interface SendOptions {
  allowPrivate: boolean;
  /** Longest a delivery may take, connection to the end of the answer (WEBHOOK_TIMEOUT). */
  timeoutMs: number;
  /** Connections kept per endpoint: as many as the deliverer sends at once (ENDPOINT_CONCURRENCY). */
  connections?: number;
  /** Resolves host names: dns.lookup unless a test gives a DNS answer of its own. */
  resolve?: Resolve;
}

/** One request of a batch: its body, and its headers made as it is sent (signed then). */
export interface SendItem {
  body: string;
  headers: () => Record<string, string>;
}

/**
 * POSTs webhooks through undici, on connections kept alive per endpoint, one request at a time on each
 * (docs/design.md §11; its CPU against `node:http` in docs/performance.md, "Webhooks on the launch path").
 * Redirects are not followed (a 3xx is an answer like any other non-2xx), the address connected to is
 * checked after DNS, and at most RESPONSE_BODY_LIMIT bytes of an answer are read.
 *
 * Each endpoint has connections of its own (at most `connections`), not each origin nor each URL:
 * endpoints that share an origin (a hosted inbox serves many integrators, by path) or even a URL (two
 * clients of one integrator, one receiver) would otherwise share them, and one that never answers would
 * take them from the others (docs/integration.md#webhooks: an endpoint slow or down holds up nothing but
 * its own deliveries; docs/design.md §11).
 */
export class WebhookSender {
  private readonly connect: buildConnector.connector;
  private readonly pools = new Map<string, { pool: Pool; sending: number; used: number }>();

  constructor(private readonly options: SendOptions) {
    this.connect = guardedConnector(options.allowPrivate, options.timeoutMs, options.resolve);
  }

  send(url: string, headers: Record<string, string>, body: string, endpoint = ''): Promise<SendOutcome> {
    return this.sendAll(url, [{ body, headers: () => headers }], 1, endpoint).then(
      (outcomes) => outcomes[0] as SendOutcome,
    );
  }

  /**
   * Sends every item to `url`, `concurrency` at a time, on the connections of `endpoint` (its id); the
   * outcomes in the items' order.
   */
  async sendAll(
    url: string,
    items: readonly SendItem[],
    concurrency: number,
    endpoint = '',
  ): Promise<SendOutcome[]> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // A literal address is connected to without a lookup: checked here.
    if (!this.options.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
      const refused = failed(new ForbiddenAddressError(host));
      return items.map(() => refused);
    }
    const request = {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
    } as const;
    const entry = this.poolFor(endpoint, target);
    entry.sending++;
    const outcomes: SendOutcome[] = new Array(items.length);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const index = next++;
        outcomes[index] = await this.post(entry.pool, request, items[index] as SendItem);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, lane));
    } finally {
      entry.sending--;
      entry.used = Date.now();
    }
    return outcomes;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.destroy()));
  }

  /**
   * The endpoint's connections to its URL (a new URL, new ones); those unused for longer than IDLE_MS
   * are let go.
   */
  private poolFor(endpoint: string, target: URL): { pool: Pool; sending: number; used: number } {
    const now = Date.now();
    const key = `${endpoint} ${target.href}`;
    for (const [other, entry] of this.pools) {
      if (other !== key && entry.sending === 0 && now - entry.used > IDLE_MS) {
        this.pools.delete(other);
        entry.pool.destroy().catch(() => {});
      }
    }
    let entry = this.pools.get(key);
    if (entry === undefined) {
      const pool = new Pool(target.origin, {
        connections: this.options.connections ?? 16,
        pipelining: 1,
        keepAliveTimeout: IDLE_MS,
        keepAliveMaxTimeout: IDLE_MS,
        connect: this.connect,
      });
      entry = { pool, sending: 0, used: now };
      this.pools.set(key, entry);
    }
    return entry;
  }

  /**
   * One request through undici's dispatch with a handler of its own: no Readable for the answer, no
   * AbortSignal, no promise per step, which request() made for every delivery: the sender thread 98 → 72
   * CPU µs a delivery in a loop, V8's helper threads 8.6 → 3.9 (docs/performance.md, "Webhooks on the launch path").
   */
  private post(
    pool: Pool,
    request: Pick<Dispatcher.DispatchOptions, 'origin' | 'path' | 'method'>,
    item: SendItem,
  ): Promise<SendOutcome> {
    return new Promise((resolve) => {
      let controller: Dispatcher.DispatchController | undefined;
      let timedOut: Error | undefined;
      let settled = false;
      let status = 0;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let length = 0;
      const settle = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const answered = (): SendOutcome => ({
        kind: 'answered',
        status,
        retryAfter,
        body: Buffer.concat(chunks).toString('utf8', 0, Math.min(length, RESPONSE_BODY_LIMIT)),
      });
      const timer = setTimeout(() => {
        timedOut = new Error(`no answer within ${this.options.timeoutMs / 1000} s`);
        // Not started yet (queued, connecting): it is aborted as it starts, never sent.
        controller?.abort(timedOut);
        settle(failed(timedOut));
      }, this.options.timeoutMs);
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started;
          if (timedOut !== undefined) started.abort(timedOut);
        },
        onResponseStart(_controller, statusCode, headers) {
          status = statusCode;
          const value = headers['retry-after'];
          retryAfter = typeof value === 'string' ? value : undefined;
        },
        onResponseData(started, chunk) {
          if (settled) return;
          chunks.push(chunk);
          length += chunk.length;
          if (length >= RESPONSE_BODY_LIMIT) {
            // A longer answer is cut here and its connection dropped.
            settle(answered());
            started.abort(new Error('answer longer than read'));
          }
        },
        onResponseEnd() {
          settle(answered());
        },
        onResponseError(_controller, error) {
          settle(failed(error));
        },
      };
      pool.dispatch(
        {
          ...request,
          headers: {
            // Signed as it is sent: webhook-timestamp is the time of this attempt.
            ...item.headers(),
            'content-type': 'application/json',
            'user-agent': 'poker-launch-webhooks/1',
          },
          body: item.body,
        },
        handler,
      );
    });
  }
}

/**
 * undici's own connector (its TLS session cache included), with the guarded lookup, and the address
 * actually connected to checked before a request is written: the lookup chose it; this is the last word.
 * Its own timeout (10 s unless told) is set past the delivery's: WEBHOOK_TIMEOUT bounds the connection too
 * (docs/operations.md), whether shorter or longer, and the delivery's timer ends the attempt.
 */
function guardedConnector(
  allowPrivate: boolean,
  timeoutMs: number,
  resolve: Resolve | undefined,
): buildConnector.connector {
  const connect = buildConnector({
    lookup: guardedLookup(allowPrivate, resolve),
    timeout: timeoutMs + 1000,
  } as buildConnector.BuildOptions);
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error !== null) return callback(error, null);
      const refused = connectionRefusal(allowPrivate, socket.remoteAddress, options.hostname);
      if (refused !== undefined) {
        socket.destroy();
        return callback(refused, null);
      }
      return callback(null, socket);
    });
}

/**
 * Why a connection may not carry a webhook: its peer is a refused address, or it has none to check (a
 * socket closed as it connected: a failed attempt, retried, not a refusal); else undefined. Fails closed:
 * what cannot be checked is not sent to.
 */
export function connectionRefusal(
  allowPrivate: boolean,
  remoteAddress: string | undefined,
  hostname: string,
): Error | undefined {
  if (allowPrivate) return undefined;
  if (remoteAddress === undefined) return new Error(`the connection to ${hostname} closed as it opened`);
  return isForbiddenAddress(remoteAddress) ? new ForbiddenAddressError(remoteAddress) : undefined;
}

function failed(error: Error): SendOutcome {
  const cause = error.cause instanceof ForbiddenAddressError ? error.cause : error;
  return {
    kind: 'failed',
    error: cause.message.slice(0, 500),
    refused: cause instanceof ForbiddenAddressError,
  };
}
