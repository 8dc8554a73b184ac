import type { FastifyReply } from 'fastify';

/** A serialized origin whose host is a plain name or IP address: nothing CSP would read as syntax. */
const PLAIN_ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The origins a client lists, as they may appear in `frame-ancestors`. Anything that is not an http(s)
 * origin with a plain host is dropped, so a stored value can never add a directive (`;`) or a wildcard.
 */
export function frameAncestorSources(frameOrigins: readonly string[]): string[] {
  const sources = new Set<string>();
  for (const origin of frameOrigins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      continue;
    }
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (bare && PLAIN_ORIGIN.test(url.origin)) sources.add(url.origin);
  }
  return [...sources];
}

/**
 * A strict policy: the page runs only its own script and style files (no inline code, so injected
 * markup cannot run), talks only to its own origin, and may be framed only by the given origins.
 */
export function contentSecurityPolicy(frameOrigins: readonly string[]): string {
  const sources = frameAncestorSources(frameOrigins);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${sources.length > 0 ? sources.join(' ') : "'none'"}`,
  ].join('; ');
}

/** Headers of every game page: the policy above, no caching (the URL held a token), no referrer. */
export function setPageHeaders(reply: FastifyReply, frameOrigins: readonly string[]): void {
  reply.header('content-security-policy', contentSecurityPolicy(frameOrigins));
  // X-Frame-Options cannot name several origins; it only backs up the "none" case for old browsers.
  if (frameAncestorSources(frameOrigins).length === 0) reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cache-control', 'no-store');
}
