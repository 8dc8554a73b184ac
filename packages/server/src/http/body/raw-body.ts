import { hash } from 'node:crypto';
import { EMPTY_BODY_SHA256 } from '@poker-launch/sdk';
import type { FastifyRequest } from 'fastify';

/** The bytes of each parsed body, as they came: what the hmac signature covers (docs/design.md §11). */
const RAW_BODIES = new WeakMap<FastifyRequest, Buffer>();

export function keepRawBody(request: FastifyRequest, bytes: Buffer): void {
  RAW_BODIES.set(request, bytes);
}

/**
 * Lowercase hex SHA-256 of the body's bytes as received (before any decoding), or of no bytes for a
 * request without a body. Computed when asked: only an hmac signature needs it.
 */
export function rawBodySha256(request: FastifyRequest): string {
  const bytes = RAW_BODIES.get(request);
  return bytes === undefined || bytes.length === 0 ? EMPTY_BODY_SHA256 : hash('sha256', bytes, 'hex');
}
