import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifyReply } from 'fastify';

/** Sends a JSON:API document; responses carrying tokens must never be cached by anyone on the way. */
export function sendDocument(reply: FastifyReply, status: number, document: unknown): FastifyReply {
  return reply.code(status).type(JSON_API_MEDIA_TYPE).header('cache-control', 'no-store').send(document);
}
