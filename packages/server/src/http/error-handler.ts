import type { ErrorCode } from '@poker-launch/sdk';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import type { Clock } from '../clock.js';
import { isDatabaseError, isDatabaseUnavailable } from '../db/database-errors.js';
import { ApiError, errorObject, serviceUnavailable } from './api-error.js';
import { BODY_LIMIT_BYTES } from './body/limits.js';
import { unsupported } from './content-negotiation.js';
import { sendDocument } from './json-api.js';
import { noteErrorCodes } from './logging.js';
import type { RateLimiter } from './rate-limit.js';
import { errorDocument } from './raw-error.js';
import type { RouteDirectory } from './route-suggestion.js';
import { ThrottledWarning } from './throttled-warning.js';

/**
 * Answers to a caller that could not prove who it is: counted per address, so guessing stays slow. A
 * replayed signature proves nothing either (whoever sent it needed no secret): it is found after the
 * client's quota was counted, and that count is taken back.
 */
const AUTHENTICATION_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'invalid_signature',
  'unauthorized',
  'token_invalid',
  'request_replayed',
]);

/** Refusals of replay protection (docs/design.md §11), counted by code. */
const REPLAY_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'timestamp_out_of_window',
  'request_replayed',
  'replay_fields_required',
]);

/** The nick refusals v2 answers with the API's own 500 (docs/integration.md, v2 errors). */
const USERNAME_REFUSALS: ReadonlySet<ErrorCode> = new Set(['username_exists', 'username_too_long']);

/** How soon a caller may retry after the database was unavailable: a failover or restart takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The counters a refused or failed request adds to: those of the service's metrics (ops/metrics.ts, whose
 * `Metrics` has them), named here so that answering requests needs nothing of the metrics' code.
 */
export interface ErrorCounters {
  readonly databaseErrors: Counter<'kind'>;
  readonly signatureFailures: Counter;
  readonly addressRefusals: Counter;
  readonly replayRefusals: Counter<'code'>;
  readonly quotaRefusals: Counter;
  readonly v2UsernameRefusals: Counter;
}

/**
 * Renders every failure as a JSON:API errors document. An unavailable database is a 503 with
 * Retry-After (the request may succeed later); other unknown errors become a logged 500 with no internals.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  rateLimiter: RateLimiter,
  metrics: ErrorCounters,
  clock: Clock,
  routes: RouteDirectory,
): void {
  // Every request of an outage answers 503 with its own line and count; the warning with the error is
  // said once every 10 s, with how many answered 503 since (docs/operations.md, Database outages).
  const outageWarnings = new ThrottledWarning(clock, 'database unavailable', 'unavailableSinceLastWarning');
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const callerAborted = isCallerAbort(error, request);
    const apiError =
      error instanceof ApiError
        ? error
        : callerAborted
          ? fromFrameworkError(error, request)
          : fromUnknownError(error, request);
    const failedAuthentication =
      apiError.errors.some((item) => AUTHENTICATION_FAILURES.has(item.code)) ||
      apiError.extras.failedAuthentication;
    countError(metrics, error, apiError, request);
    if (apiError.status >= 500 && !(error instanceof ApiError)) {
      if (apiError.status === 503) outageWarnings.say(request.log, error);
      else request.log.error({ err: error }, 'unhandled error');
    }
    // Answered once counted (in Redis too), so the caller's next request sees it.
    if (failedAuthentication) {
      await rateLimiter.recordFailure(request);
      if (request.countedQuota !== undefined) await rateLimiter.refundCaller(request.countedQuota);
    }
    return renderApiError(request, reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const meant = routes.closest(request.method, path);
    const hint = meant === undefined ? '' : ` (did you mean ${request.method} ${meant}?)`;
    return renderApiError(
      request,
      reply,
      ApiError.of('not_found', `No route for ${request.method} ${path}${hint}`),
    );
  });
}

export function renderApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) reply.header(name, value);
  noteErrorCodes(
    reply,
    error.errors.map((item) => item.code),
  );
  return sendDocument(reply, error.status, errorDocument(error, request.id));
}

function fromUnknownError(error: FastifyError, request: FastifyRequest): ApiError {
  if (isDatabaseUnavailable(error)) {
    return serviceUnavailable('The database is unavailable; retry later', DATABASE_RETRY_AFTER_SECONDS);
  }
  return fromFrameworkError(error, request);
}

/**
 * The caller went away while sending its body: Node's "aborted" carries ECONNRESET, the code of a
 * database connection reset, and must not read as an outage (nor fire its alert).
 */
export function isCallerAbort(error: unknown, request: FastifyRequest): boolean {
  return error === request.raw.errored;
}

/** A database error met by a request, API or console: `unavailable` (answered 503) or `query`. */
export function countDatabaseError(
  metrics: Pick<ErrorCounters, 'databaseErrors'>,
  error: unknown,
  request: FastifyRequest,
): void {
  if (!isCallerAbort(error, request) && isDatabaseError(error)) {
    metrics.databaseErrors.inc({ kind: isDatabaseUnavailable(error) ? 'unavailable' : 'query' });
  }
}

function countError(
  metrics: ErrorCounters,
  error: unknown,
  apiError: ApiError,
  request: FastifyRequest,
): void {
  countDatabaseError(metrics, error, request);
  // Refused requests are counted, so a code said twice in one answer (ts and nonce both malformed) counts once.
  for (const code of new Set(apiError.errors.map((entry) => entry.code))) {
    if (code === 'invalid_signature') metrics.signatureFailures.inc();
    if (code === 'address_not_allowed') metrics.addressRefusals.inc();
    if (REPLAY_REFUSALS.has(code)) metrics.replayRefusals.inc({ code });
    if (code === 'rate_limited') metrics.quotaRefusals.inc();
  }
  // v2 answers these with the API's 500 (v3 with 422): counted so that an alert on the service's own
  // 5xx can leave them out (docs/operations.md, Metrics and alerts).
  if (apiError.status === 500 && apiError.errors.some((entry) => USERNAME_REFUSALS.has(entry.code))) {
    metrics.v2UsernameRefusals.inc();
  }
}

/** Fastify's own failures (body parsing, limits) in our vocabulary. */
function fromFrameworkError(error: FastifyError, request: FastifyRequest): ApiError {
  // A media type no body parser takes: the 415 names those the route does take.
  const unsupportedHere = () => unsupported(request.routeOptions.config?.bodyTypes);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ApiError.of('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedHere();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.of(
        'bad_request',
        'The request body is empty, but its Content-Type says JSON: send the document',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ApiError.of('bad_request', 'The request body is not valid JSON');
  }
  const status = error.statusCode ?? 500;
  if (status === 400) return ApiError.of('bad_request', 'The request body could not be parsed');
  if (status === 413)
    return ApiError.of('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes`);
  if (status === 415) return unsupportedHere();
  if (status >= 400 && status < 500) {
    return new ApiError([{ ...errorObject('bad_request', 'The request could not be processed'), status }]);
  }
  return ApiError.of('internal_error', 'Internal error');
}
