import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifyInstance } from 'fastify';
import { errorObject } from './api-error.js';

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a request not received within
 * REQUEST_TIMEOUT, headers too large, malformed bytes) with a JSON:API error document on the raw socket,
 * then closes it. Only the error's code is logged: its raw bytes may hold credentials.
 */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection is already gone; nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const problem =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? errorObject('request_timeout', 'The request was not received in time')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? errorObject('bad_request', 'The request headers are too large', { status: 431 })
        : errorObject('bad_request', 'The request could not be parsed');
  this.log.debug({ code: error.code, requestId }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ errors: [problem], meta: { requestId } });
    socket.write(
      [
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
        `content-type: ${JSON_API_MEDIA_TYPE}`,
        `content-length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${requestId}`,
        'cache-control: no-store',
        'connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy();
}
