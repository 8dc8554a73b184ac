import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifyReply } from 'fastify';

/**
 * Sends a JSON:API document; responses carrying tokens must never be cached by anyone on the way.
 * The reply's own serializer keeps the media type exactly as JSON:API names it: Fastify adds
 * `; charset=utf-8` to a JSON type it serializes itself, a parameter JSON:API does not allow.
 */
export function sendDocument(reply: FastifyReply, status: number, document: unknown): FastifyReply {
  return reply
    .code(status)
    .header('content-type', JSON_API_MEDIA_TYPE)
    .header('cache-control', 'no-store')
    .serializer(JSON.stringify)
    .send(document);
}
