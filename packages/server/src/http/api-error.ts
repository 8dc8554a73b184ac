import type { ErrorCode, ErrorObject, ErrorObjectMeta } from '@poker-launch/sdk';

/** Status and title of each error code; a code always answers with the same title. */
const ERROR_TABLE: Record<ErrorCode, { status: number; title: string }> = {
  invalid_signature: { status: 400, title: 'Bad Request' },
  timestamp_out_of_window: { status: 400, title: 'Bad Request' },
  request_replayed: { status: 400, title: 'Bad Request' },
  replay_fields_required: { status: 400, title: 'Bad Request' },
  bad_request: { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  token_invalid: { status: 401, title: 'Unauthorized' },
  token_expired: { status: 401, title: 'Unauthorized' },
  token_revoked: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  player_blocked: { status: 403, title: 'Forbidden' },
  address_not_allowed: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  player_not_found: { status: 404, title: 'Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  not_acceptable: { status: 406, title: 'Not Acceptable' },
  type_conflict: { status: 409, title: 'Conflict' },
  payload_too_large: { status: 413, title: 'Payload Too Large' },
  uri_too_long: { status: 414, title: 'URI Too Long' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type' },
  expectation_failed: { status: 417, title: 'Expectation Failed' },
  invalid_field: { status: 422, title: 'Unprocessable Entity' },
  field_required: { status: 422, title: 'Unprocessable Entity' },
  field_conflict: { status: 422, title: 'Unprocessable Entity' },
  user_id_mismatch: { status: 422, title: 'Unprocessable Entity' },
  auth_type_not_valid: { status: 422, title: 'Unprocessable Entity' },
  game_code_not_valid: { status: 422, title: 'Unprocessable Entity' },
  currency_blank: { status: 422, title: 'Unprocessable Entity' },
  currency_not_found: { status: 422, title: 'Unprocessable Entity' },
  currency_not_active: { status: 422, title: 'Unprocessable Entity' },
  // The spec answers these with 500 in v2 and 422 in v3; the route chooses (see `errorObject`'s status).
  username_exists: { status: 422, title: 'Unprocessable Entity' },
  username_too_long: { status: 422, title: 'Unprocessable Entity' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  rate_limited: { status: 429, title: 'Too Many Requests' },
  header_fields_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  internal_error: { status: 500, title: 'Internal Server Error' },
  service_unavailable: { status: 503, title: 'Service Unavailable' },
};

const STATUS_TITLES: Record<number, string> = {
  422: 'Unprocessable Entity',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

export interface ErrorOptions {
  /** JSON pointer into the request document, e.g. `/data/attributes/authType`. */
  pointer?: string | undefined;
  /** Overrides the code's status where the spec gives one operation another status (v2's business 500s). */
  status?: number | undefined;
  meta?: ErrorObjectMeta | undefined;
}

export function errorObject(code: ErrorCode, detail: string, options: ErrorOptions = {}): ErrorObject {
  const entry = ERROR_TABLE[code];
  const status = options.status ?? entry.status;
  const title = status === entry.status ? entry.title : (STATUS_TITLES[status] ?? entry.title);
  return {
    status,
    code,
    title,
    detail,
    ...(options.pointer === undefined ? {} : { source: { pointer: options.pointer } }),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}

/**
 * The one exception for HTTP failures: carries every error of the request, rendered by the error
 * handler into a JSON:API `errors` document.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly errors: readonly ErrorObject[],
    readonly extras: {
      meta?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** Counts against the caller's address as a failed authentication, whatever its code says. */
      failedAuthentication?: boolean;
    } = {},
  ) {
    super(errors.map((error) => error.detail).join('; '));
    this.status = responseStatus(errors);
  }

  static of(code: ErrorCode, detail: string, options?: ErrorOptions): ApiError {
    return new ApiError([errorObject(code, detail, options)]);
  }
}

/** The same answer, counted against the caller's address as a failed authentication (error-handler.ts). */
export function failedAuthentication(error: ApiError): ApiError {
  return new ApiError(error.errors, { ...error.extras, failedAuthentication: true });
}

/** 401 `unauthorized` with the `WWW-Authenticate` challenge that says which credential to send. */
export function unauthorized(detail: string, challenge: string): ApiError {
  return new ApiError([errorObject('unauthorized', detail)], { headers: { 'www-authenticate': challenge } });
}

/** 503 with Retry-After: the request was fine, this instance cannot serve it now (database, shutdown). */
export function serviceUnavailable(detail: string, retryAfterSeconds: number): ApiError {
  return new ApiError([errorObject('service_unavailable', detail)], {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/** One status for the response: the errors' own when they agree, else 422 (the request as a whole is invalid). */
function responseStatus(errors: readonly ErrorObject[]): number {
  const statuses = new Set(errors.map((error) => error.status));
  if (statuses.size === 1) return [...statuses][0] ?? 500;
  return 422;
}
