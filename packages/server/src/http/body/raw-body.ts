import { hash } from 'node:crypto';
import { EMPTY_BODY_SHA256 } from '@poker-launch/sdk/internal';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The bytes of each parsed body, as they came: what the hmac signature covers (docs/design.md §11).
 * A property of the request (declared on every request, so they all keep one shape), not a WeakMap:
 * an entry set, read and collected cost 2.4k instructions a request, the property 0.1k (docs/performance.md).
 */
const RAW_BODY = Symbol('raw body');

interface WithRawBody {
  [RAW_BODY]?: Buffer | undefined;
}

/** Declares the request property the raw body is kept in (before the body parsers run). */
export function declareRawBody(app: FastifyInstance): void {
  app.decorateRequest(RAW_BODY as unknown as string, undefined);
}

export function keepRawBody(request: FastifyRequest, bytes: Buffer): void {
  (request as WithRawBody)[RAW_BODY] = bytes;
}

/**
 * Lowercase hex SHA-256 of the body's bytes as received (before any decoding), or of no bytes for a
 * request without a body. Computed when asked: only an hmac signature needs it.
 */
export function rawBodySha256(request: FastifyRequest): string {
  const bytes = (request as WithRawBody)[RAW_BODY];
  return bytes === undefined || bytes.length === 0 ? EMPTY_BODY_SHA256 : hash('sha256', bytes, 'hex');
}
