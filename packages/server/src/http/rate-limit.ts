import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { hashToken } from '../sessions/token.js';
import { ApiError } from './api-error.js';

const WINDOW_MS = 60_000;
/** Bound on tracked callers, so a flood of made-up client ids cannot grow memory without limit. */
const MAX_TRACKED = 100_000;

/**
 * A fixed one-minute window per caller, per server instance. The caller is the client the request
 * names (`clientId` in v2, `client` in v3): integrators call from a few servers on behalf of many
 * players, so the quota belongs to the integrator, not to an address. Token API requests count per
 * auth token: game pages of many players may arrive through one proxy address. Anything else counts
 * by address.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limitPerMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Counts the request; throws 429 with Retry-After once the caller's quota is spent. */
  check(request: FastifyRequest): void {
    if (this.limitPerMinute === 0) return;
    const now = this.clock().getTime();
    const key = callerKey(request);
    let window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.windows.size >= MAX_TRACKED) this.evictExpired(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > this.limitPerMinute) {
      const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
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

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= WINDOW_MS) this.windows.delete(key);
    }
    if (this.windows.size >= MAX_TRACKED) this.windows.clear();
  }
}

function callerKey(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const client = query?.clientId ?? query?.client;
  if (typeof client === 'string' && client !== '') return `client:${client.slice(0, 64)}`;
  const bearer = /^Bearer +(\S{1,256})/i.exec(request.headers.authorization ?? '')?.[1];
  const token = bearer ?? query?.['access-token'];
  // Hashed: the limiter's memory never holds a usable token.
  if (typeof token === 'string' && token !== '') return `token:${hashToken(token.slice(0, 256))}`;
  return `ip:${request.ip}`;
}
