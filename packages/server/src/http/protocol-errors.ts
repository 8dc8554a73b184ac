import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ApiError } from './api-error.js';
import { completedLine, type LogDestination, redactUrl } from './logging.js';
import { type ObserveRequest, UNKNOWN_METHOD, UNMATCHED_ROUTE } from './observe-request.js';
import { commonHeaders, errorDocument, writeErrorToResponse, writeErrorToSocket } from './raw-error.js';
import { requestIdFrom } from './request-id.js';

/** An answer given before any route ran, which no route hook sees: counted and logged all the same. */
export interface EarlyAnswer {
  readonly requestId: string;
  /** Undefined when the HTTP parser refused the request before it could read a method. */
  readonly method?: string | undefined;
  /** The route pattern, when the request was routed before it was answered (a body that timed out). */
  readonly route?: string | undefined;
  readonly url?: string | undefined;
  /** The connection's (no header was read, or none is trusted this early). */
  readonly remoteAddress?: string | undefined;
  readonly answer: ApiError;
  readonly seconds: number;
}

export type NoteEarlyAnswer = (early: EarlyAnswer) => void;

/**
 * Counts an early answer in the request histogram (route `unmatched`, method `unknown` when the parser
 * read none: bounded labels, whatever the bytes) and logs its `request completed` line, as for every
 * request (docs/operations.md, Logs and request ids; Metrics and alerts).
 */
export function earlyAnswerNotes(observe: ObserveRequest, log: () => FastifyBaseLogger): NoteEarlyAnswer {
  const asGiven = (value: unknown) => value;
  return ({ requestId, method, route, url, remoteAddress, answer, seconds }) => {
    observe(method ?? UNKNOWN_METHOD, route ?? UNMATCHED_ROUTE, answer.status, seconds);
    // The line's req and res are plain objects here, not Fastify's request and reply.
    log()
      .child({ reqId: requestId }, { serializers: { req: asGiven, res: asGiven } })
      .info(
        {
          req: {
            ...(method === undefined ? {} : { method }),
            ...(url === undefined ? {} : { url: redactUrl(url) }),
            ...(remoteAddress === undefined ? {} : { remoteAddress }),
          },
          res: {
            statusCode: answer.status,
            errorCodes: [...new Set(answer.errors.map((item) => item.code))],
          },
          responseTime: seconds * 1000,
        },
        'request completed',
      );
  };
}

/** Longest path segment the router hands to a route (a userId, a session id); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 1000;
export const PATH_SEGMENT_TOO_LONG = `A path segment is longer than ${MAX_PARAM_LENGTH} characters`;

/**
 * Answers an early refusal as an HTML page instead, when the address is a page's (the console's: an
 * operator's browser gets a page, never the API's JSON); false: not one of its addresses.
 */
export type AnswerAsPage = (request: FastifyRequest, reply: FastifyReply, answer: ApiError) => boolean;

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs (a malformed
 * percent-escape in the path, a path segment over MAX_PARAM_LENGTH) is a JSON:API error like any other.
 */
export function frameworkErrorHandler(config: Config, note: NoteEarlyAnswer, asPage?: AnswerAsPage) {
  return (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
    const answer =
      error.code === 'FST_ERR_BAD_URL'
        ? ApiError.of('bad_request', 'The URL path has a malformed percent-encoding')
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? ApiError.of('uri_too_long', PATH_SEGMENT_TOO_LONG)
          : ApiError.of('internal_error', 'Internal error');
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    // No hook runs on this path: the headers are all set here, and a Buffer keeps Fastify from adding a
    // charset, which the JSON:API media type does not take.
    reply.code(answer.status).headers({ ...commonHeaders(request.id, config), 'cache-control': 'no-store' });
    if (!asPage?.(request, reply, answer)) {
      reply.type(JSON_API_MEDIA_TYPE).send(Buffer.from(JSON.stringify(errorDocument(answer, request.id))));
    }
    note({
      requestId: request.id,
      method: request.method,
      url: request.url,
      remoteAddress: request.raw.socket?.remoteAddress,
      answer,
      seconds: reply.elapsedTime / 1000,
    });
    return reply;
  };
}

/** Where a routed request is found from its raw message, while its body is still arriving. */
const ROUTED = Symbol('poker-launch routed request');
/** Set on the raw message of a routed request answered here (408), whose line and count are written. */
const ANSWERED = Symbol('poker-launch answered before its route');
/** Where a response's reply is found when its connection closes. */
const REPLY = Symbol('poker-launch reply');

type RoutedMessage = IncomingMessage & { [ROUTED]?: FastifyRequest; [ANSWERED]?: true };
type WatchedResponse = ServerResponse & { [REPLY]?: FastifyReply };

/** nginx's status for a request whose caller closed the connection before the answer was written. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * What the first onRequest hook calls on every routed request (docs/operations.md, Logs and request ids):
 * - a request whose body then stalls past REQUEST_TIMEOUT is answered by the clientErrorHandler below,
 *   with no request in hand: this is how it finds that request's id, method, URL and route;
 * - a request whose caller closes the connection before its answer is written (gives up on a slow answer,
 *   or cuts its body short) never finishes its response, so Fastify logs and counts nothing of it: its
 *   `request completed` line and its count are written when the connection closes, with status 499,
 *   so that the slow answers callers gave up on still weigh in the latency alert.
 */
export function routedRequests(observe: ObserveRequest, destination: LogDestination) {
  function closed(this: WatchedResponse): void {
    const reply = this[REPLY];
    // An answer sent is Fastify's to log and count, when its response finishes (or errs).
    if (reply === undefined || reply.sent || this.writableFinished) return;
    const { request } = reply;
    if ((request.raw as RoutedMessage)[ANSWERED]) return;
    observe(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      CLIENT_CLOSED_REQUEST,
      reply.elapsedTime / 1000,
    );
    if ((request.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')) {
      destination.write(completedLine(request, reply, CLIENT_CLOSED_REQUEST));
    }
  }
  return (request: FastifyRequest, reply: FastifyReply): void => {
    (request.raw as RoutedMessage)[ROUTED] = request;
    (reply.raw as WatchedResponse)[REPLY] = reply;
    reply.raw.on('close', closed);
  };
}

/** The routed request whose body the socket is still reading, if any (Node's parser holds its message). */
function pendingRequest(socket: Duplex): FastifyRequest | undefined {
  const incoming = (socket as { parser?: { incoming?: RoutedMessage | null } }).parser?.incoming;
  // A message received whole is an earlier one of the connection: the request that timed out is newer.
  return incoming && !incoming.complete ? incoming[ROUTED] : undefined;
}

/** What Node's HTTP parser failed on, in our vocabulary; undefined when there is nobody to answer. */
function clientErrorAnswer(code: string | undefined): ApiError | undefined {
  switch (code) {
    case 'ECONNRESET':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ApiError.of('request_timeout', 'The request did not arrive in time');
    case 'HPE_HEADER_OVERFLOW':
      return ApiError.of('header_fields_too_large', 'The request line and headers are larger than allowed');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return ApiError.of('payload_too_large', 'The chunk extensions of the request body are too large');
    default:
      return ApiError.of('bad_request', 'The request is not valid HTTP/1.1');
  }
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (a malformed request line or
 * header, headers over the size limit, a timeout), so there is no request; the answer is written to the
 * socket. Logged by code only: the error carries the raw bytes received (`rawPacket`), and with them any
 * sign, token or API key the request held.
 */
export function clientErrorHandler(config: Config, log: () => FastifyBaseLogger, note: NoteEarlyAnswer) {
  return (error: Error & { code?: string }, socket: Duplex) => {
    const answer = clientErrorAnswer(error.code);
    if (answer === undefined || socket.destroyed) return;
    // A body that timed out or that the parser refused belongs to a request routed already: its answer
    // keeps that request's id (the caller's, when it sent one), its line and count its method, URL and
    // route, and it is that request's only line (no 499 when the connection then closes).
    const routed = pendingRequest(socket);
    if (routed && error.code === 'HPE_INVALID_EOF_STATE') {
      // The caller closed the connection in the middle of its body: nobody reads an answer, and the
      // request's line is the 499 written when the connection closes (routedRequests).
      socket.destroy();
      return;
    }
    if (routed) (routed.raw as RoutedMessage)[ANSWERED] = true;
    const requestId = routed?.id ?? randomUUID();
    log().debug({ requestId, code: error.code, status: answer.status }, 'client error');
    const remoteAddress = routed?.ip ?? (socket as { remoteAddress?: string }).remoteAddress;
    if (writeErrorToSocket(socket, answer, requestId, config)) {
      // A request that timed out took the whole REQUEST_TIMEOUT; the parser refuses the others at once.
      const seconds = answer.status === 408 ? config.requestTimeoutMs / 1000 : 0;
      note({
        requestId,
        method: routed?.method,
        route: routed?.routeOptions.url,
        url: routed?.url,
        remoteAddress,
        answer,
        seconds,
      });
    }
  };
}

/**
 * Node answers an HTTP/1.1 request without a Host header with a bare 400 of its own unless told not to
 * (`requireHostHeader: false`); this check gives the same refusal as a JSON:API error.
 */
export function assertHostHeader(request: FastifyRequest): void {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    throw ApiError.of('bad_request', 'An HTTP/1.1 request must carry a Host header');
  }
}

/**
 * `Expect` with anything but `100-continue`: Node would answer a bare 417 itself; this one is a JSON:API
 * error with X-Request-Id like every other answer.
 */
export function answerUnmetExpectations(app: FastifyInstance, config: Config, note: NoteEarlyAnswer): void {
  app.server.on('checkExpectation', (request, response) => {
    const requestId = requestIdFrom(request.headers['x-request-id'], randomUUID);
    app.log.debug({ requestId, status: 417 }, 'expectation failed');
    const answer = ApiError.of('expectation_failed', 'Only "Expect: 100-continue" is supported');
    writeErrorToResponse(response, answer, requestId, config);
    const { method, url } = request;
    note({ requestId, method, url, remoteAddress: request.socket.remoteAddress, answer, seconds: 0 });
  });
}

/**
 * CONNECT asks for a tunnel to a host and port (RFC 9110 §9.3.6). Node hands it to a `connect`
 * listener instead of the routes, and without one closes the connection unanswered; this service is no
 * proxy, so it answers 405 as a JSON:API error like every other answer. The target names no resource of
 * this service, so there is no Allow list to give; the connection closes after the answer.
 */
export function answerConnect(app: FastifyInstance, config: Config, note: NoteEarlyAnswer): void {
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = requestIdFrom(request.headers['x-request-id'], randomUUID);
    app.log.debug({ requestId, status: 405 }, 'CONNECT refused');
    const answer = ApiError.of('method_not_allowed', 'CONNECT opens a tunnel, and this service is no proxy');
    if (writeErrorToSocket(socket, answer, requestId, config)) {
      const { method, url } = request;
      note({ requestId, method, url, remoteAddress: request.socket.remoteAddress, answer, seconds: 0 });
    }
  });
}
