import type { FastifyReply } from 'fastify';
import { bareOrigin } from '../clients/frame-origin.js';

/** The client's frame origins as `frame-ancestors` sources: bare origins only, each once. */
export function frameAncestorSources(frameOrigins: readonly string[]): string[] {
  return [...new Set(frameOrigins.map(bareOrigin).filter((origin) => origin !== undefined))];
}

/**
 * A strict policy: the page runs only its own script and style files (no inline code, so injected
 * markup cannot run), writes no markup through the DOM (Trusted Types), talks only to its own origin,
 * and may be framed only by the given origins.
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
    // Trusted Types (docs/integration.md, "The game pages"): the script writes only textContent, so it
    // needs no policy, and the browser refuses any markup (innerHTML) or script URL written through the DOM.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
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
