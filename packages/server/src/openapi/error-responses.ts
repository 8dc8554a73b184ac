import { type ErrorCode, type ErrorObject, JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import { type ErrorOptions, errorObject } from '../http/api-error.js';
import { JSON_API_PARAMETERS_REFUSED, NO_REQUEST_BODY } from '../http/content-negotiation.js';
import { PATH_SEGMENT_TOO_LONG } from '../http/protocol-errors.js';
import type { FieldRule } from '../validation/field-rule.js';
import { ERROR_DOCUMENT, type JsonSchema, ref } from './document-schemas.js';

/**
 * One error an operation answers, as the API reference shows it. Built with the server's own
 * `errorObject`, so its status and title are the ones the code answers with; the contract tests check
 * that every error a route really answers is among its operation's examples.
 */
export interface ErrorExample {
  name: string;
  summary: string;
  error: ErrorObject;
  /** Top-level `meta` besides `requestId` (e.g. the staging `signature` hint). */
  meta?: Record<string, unknown>;
}

export function errorExample(
  name: string,
  summary: string,
  code: ErrorCode,
  detail: string,
  options: ErrorOptions & { documentMeta?: Record<string, unknown> } = {},
): ErrorExample {
  const { documentMeta, ...errorOptions } = options;
  return {
    name,
    summary,
    error: errorObject(code, detail, errorOptions),
    ...(documentMeta ? { meta: documentMeta } : {}),
  };
}

/**
 * A field error as the field rule itself makes it from a wrong value, so the example's text is the one
 * the service sends.
 */
export function refusal(
  name: string,
  summary: string,
  rule: FieldRule<unknown>,
  raw: unknown,
  field: string,
  pointer: string,
): ErrorExample {
  const result = rule.parse(raw, field);
  if (result.ok) throw new Error(`${field}: the example value is accepted`);
  const { code, detail, meta } = result.issue;
  return errorExample(name, summary, code, detail, { pointer, meta });
}

/** Answered the same way by every JSON:API operation, before or around the route itself. */
export const COMMON_ERRORS = {
  notAcceptable: errorExample(
    'notAcceptable',
    'Accept admits no JSON',
    'not_acceptable',
    `Responses are ${JSON_API_MEDIA_TYPE}; the Accept header admits none of it`,
  ),
  jsonApiMediaTypeParameters: errorExample(
    'jsonApiMediaTypeParameters',
    `A body of ${JSON_API_MEDIA_TYPE} with a media type parameter other than ext or profile (charset=utf-8)`,
    'unsupported_media_type',
    JSON_API_PARAMETERS_REFUSED,
  ),
  noRequestBody: errorExample(
    'noRequestBody',
    'An operation without a body, sent one of a media type the service reads for no route (text/plain, for instance)',
    'unsupported_media_type',
    NO_REQUEST_BODY,
  ),
  payloadTooLarge: errorExample(
    'payloadTooLarge',
    'Body over 64 KiB',
    'payload_too_large',
    'The request body is larger than 65536 bytes',
  ),
  uriTooLong: errorExample(
    'uriTooLong',
    'A path segment over 1000 characters',
    'uri_too_long',
    PATH_SEGMENT_TOO_LONG,
  ),
  rateLimited: errorExample(
    'rateLimited',
    'Past RATE_LIMIT_PER_MINUTE (see Retry-After)',
    'rate_limited',
    'More than 1200 requests in a minute; retry after 17 s',
  ),
  internalError: errorExample(
    'internalError',
    'A failure of the service, logged with the request id; retry later',
    'internal_error',
    'Internal error',
  ),
  serviceUnavailable: errorExample(
    'serviceUnavailable',
    'The database is unreachable (see Retry-After), or the instance is shutting down',
    'service_unavailable',
    'The database is unavailable; retry later',
  ),
} as const;

const DESCRIPTIONS: Record<number, string> = {
  400: 'Not valid request signature (unknown client, missing or wrong sign), or a malformed request',
  401: 'Missing or invalid credentials',
  403: 'Authenticated, but not allowed',
  404: 'Not found',
  406: 'The Accept header admits no JSON:API response',
  409: 'Wrong data.type',
  413: 'Body over 64 KiB',
  414: 'A path segment over 1000 characters',
  415: 'Unsupported request media type; the detail names those the operation takes',
  422: 'Invalid fields; every problem of the request is listed, each with its pointer',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'The database is unavailable or the instance is shutting down; retry after Retry-After seconds',
};

const HEADERS: Record<number, Record<string, JsonSchema>> = {
  401: {
    'WWW-Authenticate': {
      type: 'string',
      description: 'The Bearer challenge (RFC 6750), e.g. Bearer error="invalid_token"',
    },
  },
  429: {
    'Retry-After': {
      type: 'integer',
      minimum: 1,
      description: 'Seconds until the quota admits the caller again',
    },
  },
};

/**
 * The error responses of an operation: one per status its examples have, each an errors document with
 * those examples; `descriptions` replace the generic description of a status.
 */
export function errorResponses(
  examples: readonly ErrorExample[],
  descriptions: Readonly<Record<number, string>> = {},
): Record<number, JsonSchema> {
  const statuses = [...new Set(examples.map((example) => example.error.status))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status] ?? DESCRIPTIONS[status] ?? 'Error',
        ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
        content: {
          [JSON_API_MEDIA_TYPE]: {
            schema: ref(ERROR_DOCUMENT),
            examples: Object.fromEntries(
              examples
                .filter((example) => example.error.status === status)
                .map((example) => [
                  example.name,
                  {
                    summary: example.summary,
                    value: {
                      errors: [example.error],
                      meta: { requestId: '5d0f2c1e-8a7b-4c3d-9e2f-1a0b9c8d7e6f', ...example.meta },
                    },
                  },
                ]),
            ),
          },
        },
      },
    ]),
  );
}

/**
 * Adds to an operation the errors the service answers before its route runs, whatever the route's own
 * list holds: a body over the limit (413) for every method whose body is read (all but GET and HEAD), and
 * a path segment over the router's limit (414) on every path with a parameter. The swagger transform
 * calls it for every route, so a new route's reference has them without its author remembering.
 */
export function withProtocolErrors<Schema extends { response?: unknown }>(
  schema: Schema | undefined,
  methods: readonly string[],
  url: string,
): Schema | undefined {
  if (!schema || typeof schema.response !== 'object' || schema.response === null) return schema;
  const response = schema.response as Record<string, unknown>;
  const added: ErrorExample[] = [];
  if (methods.some((method) => method !== 'GET' && method !== 'HEAD') && !('413' in response)) {
    added.push(COMMON_ERRORS.payloadTooLarge);
  }
  if (url.includes('/:') && !('414' in response)) added.push(COMMON_ERRORS.uriTooLong);
  return added.length === 0 ? schema : { ...schema, response: { ...response, ...errorResponses(added) } };
}
