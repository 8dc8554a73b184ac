import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { Config } from '../config.js';
import type { ApiError } from './api-error.js';

/** One year: browsers remember to use https only, as for any service that is https only. */
const HSTS = 'max-age=31536000';

/**
 * Headers every answer carries, whichever way it is written: by a route, by Fastify before any route
 * (a bad URL), or raw, before Fastify has a request at all (an HTTP parser error).
 */
export function commonHeaders(requestId: string, config: Config): Record<string, string> {
  return {
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    // Over plain http browsers ignore it.
    ...(config.publicUrl.startsWith('https:') ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** The JSON:API errors document of an ApiError: the body of every error answer. */
export function errorDocument(error: ApiError, requestId: string) {
  return { errors: error.errors, meta: { requestId, ...error.extras.meta } };
}

/** Every header of an error answer written outside Fastify's reply. */
function errorHeaders(error: ApiError, requestId: string, config: Config, body: string) {
  return {
    ...commonHeaders(requestId, config),
    ...error.extras.headers,
    'content-type': JSON_API_MEDIA_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    // Whatever went wrong may have left the connection unusable (a half-read request): start afresh.
    connection: 'close',
  };
}

/**
 * Answers on a Node response Fastify never sees (e.g. `checkExpectation`, or connections refused
 * while shutting down): the same JSON:API document and headers as every other error.
 */
export function writeErrorToResponse(
  response: ServerResponse,
  error: ApiError,
  requestId: string,
  config: Config,
): void {
  const body = JSON.stringify(errorDocument(error, requestId));
  response.writeHead(error.status, errorHeaders(error, requestId, config, body));
  response.end(body);
}

/**
 * Answers on a raw socket, where there is no request to answer through (an HTTP parser error, a
 * header too large): a whole HTTP/1.1 response, then the connection is closed. Writes nothing when the
 * socket cannot take it or a response is already on its way (that would corrupt what the peer reads).
 * True when it wrote the answer.
 */
export function writeErrorToSocket(
  socket: Duplex,
  error: ApiError,
  requestId: string,
  config: Config,
): boolean {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return false;
  }
  const body = JSON.stringify(errorDocument(error, requestId));
  const head = Object.entries(errorHeaders(error, requestId, config, body)).map(
    ([name, value]) => `${name}: ${value}`,
  );
  const statusLine = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`;
  socket.end([statusLine, ...head, '', body].join('\r\n'), () => socket.destroy());
  return true;
}
