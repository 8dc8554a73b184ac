import type { ErrorCode } from '@poker-launch/sdk';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorObject } from './api-error.js';
import { sendDocument } from './json-api.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import type { RateLimiter } from './rate-limit.js';
import { errorDocument } from './raw-error.js';

/** Answers to a caller that could not prove who it is: counted per address, so guessing stays slow. */
const AUTHENTICATION_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'invalid_signature',
  'unauthorized',
  'token_invalid',
]);

/** Renders every failure as a JSON:API errors document. Unknown errors become a logged 500 with no internals. */
export function registerErrorHandler(app: FastifyInstance, rateLimiter: RateLimiter): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = error instanceof ApiError ? error : fromFrameworkError(error);
    const counted = apiError.errors.some((item) => AUTHENTICATION_FAILURES.has(item.code))
      ? rateLimiter.recordFailure(request)
      : undefined;
    if (apiError.status >= 500 && !(error instanceof ApiError)) {
      request.log.error({ err: error }, 'unhandled error');
    }
    // Counted in Redis: answer once it is, so the caller's next request sees it.
    return counted === undefined
      ? renderApiError(request, reply, apiError)
      : counted.then(() => renderApiError(request, reply, apiError));
  });

  app.setNotFoundHandler((request, reply) =>
    renderApiError(
      request,
      reply,
      ApiError.of('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}

export function renderApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) reply.header(name, value);
  return sendDocument(reply, error.status, errorDocument(error, request.id));
}

/** Fastify's own failures (body parsing, limits) in our vocabulary. */
function fromFrameworkError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ApiError.of('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return ApiError.of('unsupported_media_type', 'The request media type is not supported');
  }
  const status = error.statusCode ?? 500;
  if (status === 400) return ApiError.of('bad_request', 'The request body could not be parsed');
  if (status === 413)
    return ApiError.of('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes`);
  if (status === 415) return ApiError.of('unsupported_media_type', 'The request media type is not supported');
  if (status >= 400 && status < 500) {
    return new ApiError([{ ...errorObject('bad_request', 'The request could not be processed'), status }]);
  }
  return ApiError.of('internal_error', 'Internal error');
}
