import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ApiError } from './api-error.js';
import { callerAddress } from './caller-address.js';
import type { QuotaStore, WindowCount } from './quota-store.js';

/** What the quotas count about themselves, for metrics. */
export interface QuotaMetrics {
  /** Quota checks the shared store (Redis) did not answer, counted by this instance alone instead. */
  readonly storeFailures: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly quotas: QuotaMetrics;
  }
}

/**
 * Request quotas, in fixed one-minute windows, per instance or shared through Redis (see the store):
 * - an authenticated caller (a client once its signature or API key holds, a session once its token
 *   does) may make `limitPerMinute` requests; nobody can spend a client's quota without its secret (a
 *   replayed signature, counted before the replay is found, is taken back: refundCaller);
 * - an address may fail authentication `limitPerMinute` times, after which its requests are refused
 *   before any work is done: guessing signatures, client ids, tokens or keys stays slow;
 * - an address may load `limitPerMinute` game pages and their files.
 * The two per-address quotas count only where the caller's own address is known (callerAddress): an
 * address that a whole proxy's worth of callers share is never shut out.
 */
export class RateLimiter implements QuotaMetrics {
  constructor(
    private readonly limitPerMinute: number,
    private readonly store: QuotaStore,
    private readonly config: Config,
  ) {}

  /**
   * Counts a request of an authenticated caller, e.g. `client:demo`; 429 past its quota. Like the
   * address checks below, settled at once (nothing returned, or the 429 thrown) when the store answers
   * at once, as this process's does; a promise only for a shared store's answer (see routes.ts).
   */
  countCaller(key: string): void | Promise<void> {
    if (this.limitPerMinute === 0) return;
    return this.refuseOverWhenCounted(this.store.hit(`caller:${key}`), this.limitPerMinute);
  }

  /**
   * Takes back a request `countCaller` counted that then proved nothing (a replayed signature: whoever
   * sent it needed no secret), so that replaying a captured request cannot spend its client's quota.
   */
  refundCaller(key: string): void | Promise<void> {
    if (this.limitPerMinute === 0) return;
    return this.store.refund(`caller:${key}`);
  }

  /** Counts an authentication that failed, against the caller's address when it is known. */
  async recordFailure(request: FastifyRequest): Promise<void> {
    const address = this.address(request);
    if (address !== undefined) await this.store.hit(`failures:${address}`);
  }

  /** 429 while the caller's address has failed authentication more than the quota this minute. */
  assertAddressAllowed(request: FastifyRequest): void | Promise<void> {
    const address = this.address(request);
    if (address === undefined) return;
    return this.refuseOverWhenCounted(this.store.peek(`failures:${address}`), this.limitPerMinute - 1);
  }

  /** Counts a game page or page file of the caller's address; 429 past the quota. */
  countPage(request: FastifyRequest): void | Promise<void> {
    const address = this.address(request);
    if (address === undefined) return;
    return this.refuseOverWhenCounted(this.store.hit(`pages:${address}`), this.limitPerMinute);
  }

  /** Quota checks the shared store (Redis) did not answer, counted by this instance alone instead. */
  get storeFailures(): number {
    return this.store.failures;
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private address(request: FastifyRequest): string | undefined {
    return this.limitPerMinute === 0 ? undefined : callerAddress(request, this.config);
  }

  /** refuseOver at once for a count at hand, once it comes for a count still to come. */
  private refuseOverWhenCounted(
    counted: WindowCount | Promise<WindowCount>,
    allowed: number,
  ): void | Promise<void> {
    if (counted instanceof Promise) return counted.then((count) => this.refuseOver(count, allowed));
    this.refuseOver(counted, allowed);
  }

  private refuseOver({ count, resetInMs }: WindowCount, allowed: number): void {
    if (count <= allowed) return;
    const retryAfter = Math.max(1, Math.ceil(resetInMs / 1000));
    throw new ApiError(
      [
        {
          status: 429,
          code: 'rate_limited',
          title: 'Too Many Requests',
          detail: `More than ${this.limitPerMinute} requests in a minute; retry after ${retryAfter} s`,
        },
      ],
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}
