import type { ErrorCode, ErrorObject } from '../wire/errors.js';
import { explainCanonicalMismatch, explainHmacMismatch } from './canonical-diff.js';

/**
 * `code` of a LaunchApiError: one of the service's error codes, or, when no JSON:API error document
 * came back, `network_error` (no response at all), `unexpected_response` (a response the SDK cannot read),
 * `timeout` (the call's `timeoutMs` ran out) or `aborted` (the caller's `signal` aborted it).
 */
export type LaunchErrorCode = ErrorCode | 'network_error' | 'unexpected_response' | 'timeout' | 'aborted';

/**
 * A code as it arrives: one of LaunchErrorCode, or one this SDK does not know yet, which a newer service may
 * send and the SDK passes on as it is. `(string & {})` keeps the known codes offered in an editor, and makes
 * a `switch` over them need a `default`.
 */
type ReceivedErrorCode = LaunchErrorCode | (string & {});

/** One item of the response's `errors`, as the service sends it (`code` may be one the SDK does not know). */
export type LaunchErrorObject = Omit<ErrorObject, 'code'> & { code: ReceivedErrorCode };

/**
 * The spec's documented business errors: v2 answers them with 500, but they are the caller's to fix
 * (pick another nickname), so they are never retried.
 *
 * @example BUSINESS_ERROR_CODES.has(error.code) // true for username_exists and username_too_long
 */
export const BUSINESS_ERROR_CODES: ReadonlySet<ReceivedErrorCode> = new Set<ReceivedErrorCode>([
  'username_exists',
  'username_too_long',
]);

/**
 * What `new LaunchApiError(init)` takes: the response's status and errors, and what the client learnt
 * making the call. Typed for a test double of the client's failures:
 *
 * @example
 * const taken: LaunchApiErrorInit = {
 *   status: 500,
 *   attempts: 1,
 *   errors: [{ status: 500, code: 'username_exists', title: 'Internal Server Error', detail: 'A Player with this username already exists in the system.' }],
 * };
 * throw new LaunchApiError(taken);
 */
export interface LaunchApiErrorInit {
  /** HTTP status; 0 when no response arrived. */
  status: number;
  /** The response's errors, the first of them giving the error's `code`, `detail` and `pointer`. */
  errors: readonly LaunchErrorObject[];
  /** The service's request id, quoted to the operator. */
  requestId?: string | undefined;
  /** `Retry-After` of a 429 or 503, in seconds. */
  retryAfterSeconds?: number | undefined;
  /** The staging server's canonical string and the SDK's own, for a signature error. */
  canonical?: { server: string; sdk: string } | undefined;
  /** The staging server's hmac signing text and the SDK's own, for a signature error of the hmac scheme. */
  hmacSigningText?: { server: string; sdk: string } | undefined;
  /** Lines that explain the error further (an unsigned request, the staging server's signature hints). */
  notes?: readonly string[] | undefined;
  /** The request went without a sign (no secret key configured): the canonical strings cannot explain it. */
  unsigned?: boolean | undefined;
  /** Fallback code and detail when the response carried no errors document. */
  fallback?: { code: LaunchErrorCode; detail: string } | undefined;
  /** How many requests were sent, retries included. */
  attempts: number;
  /** The error that caused this one (a network failure), as `Error.cause`. */
  cause?: unknown;
}

/**
 * The one error the client throws: the service refused the request, or it could not be reached.
 * `code`, `detail` and `pointer` are those of the first error; `errors` holds all of them.
 *
 * @example
 * try {
 *   await client.createSession('u-1', { nick: 'Bob' });
 * } catch (error) {
 *   if (error instanceof LaunchApiError && error.code === 'username_exists') askForAnotherNick();
 *   else throw error;
 * }
 */
export class LaunchApiError extends Error {
  override readonly name = 'LaunchApiError';
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /**
   * One of LaunchErrorCode, or a code this SDK does not know (a newer service's), passed on as it came:
   * give a `switch` over it a `default`.
   */
  readonly code: ReceivedErrorCode;
  readonly detail: string;
  /** JSON pointer of the field at fault, e.g. `/data/attributes/authType`. */
  readonly pointer: string | undefined;
  /** `meta.requestId` (or the `X-Request-Id` header): quote it when asking the operator about a failure. */
  readonly requestId: string | undefined;
  /**
   * A 429 or 503's `Retry-After`, in seconds: when the service asks to be tried again. The client waits it
   * out itself when it is within `retry.maxDelayMs`; a longer one is left to the caller.
   */
  readonly retryAfterSeconds: number | undefined;
  /** Every error of the response, in its order. */
  readonly errors: readonly LaunchErrorObject[];
  /** Staging only: the canonical strings of both sides of a signature error. */
  readonly canonical: { readonly server: string; readonly sdk: string } | undefined;
  /**
   * Staging only, hmac scheme: the text the server's HMAC covered (`meta.signature.hmacSigningText`) and
   * the SDK's own: method, path and query, time, nonce and body hash, one a line.
   */
  readonly hmacSigningText: { readonly server: string; readonly sdk: string } | undefined;
  /** How many requests were sent, retries included. */
  readonly attempts: number;

  constructor(init: LaunchApiErrorInit) {
    const first = init.errors[0];
    const code = first?.code ?? init.fallback?.code ?? 'unexpected_response';
    const detail = first?.detail ?? init.fallback?.detail ?? `HTTP ${init.status}`;
    super(describe(init, code, detail), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = code;
    this.detail = detail;
    this.pointer = first?.source?.pointer;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.errors = init.errors;
    this.canonical = init.canonical;
    this.hmacSigningText = init.hmacSigningText;
    this.attempts = init.attempts;
  }

  /** A documented business error (username taken or too long), not a fault of the service. */
  get isBusinessError(): boolean {
    return BUSINESS_ERROR_CODES.has(this.code);
  }
}

function describe(init: LaunchApiErrorInit, code: ReceivedErrorCode, detail: string): string {
  const where = (error: LaunchErrorObject) =>
    (error.source ? ` (${error.source.pointer})` : '') +
    (error.meta?.allowedValues ? `; one of: ${error.meta.allowedValues.join(', ')}` : '');
  const head = `${init.status === 0 ? 'no response' : init.status} ${code}: ${detail}`;
  const first = init.errors[0];
  const lines = [first ? head + where(first) : head];
  for (const error of init.errors.slice(1)) lines.push(`${error.code}: ${error.detail}${where(error)}`);
  lines.push(...(init.notes ?? []));
  if (init.canonical && !init.unsigned) {
    lines.push(...explainCanonicalMismatch(init.canonical.server, init.canonical.sdk));
  }
  if (init.hmacSigningText) {
    lines.push(...explainHmacMismatch(init.hmacSigningText.server, init.hmacSigningText.sdk));
  }
  // The service's 429 says it in its detail already ("…; retry after 17 s"): once is enough.
  const retry = `retry after ${init.retryAfterSeconds} s`;
  if (init.retryAfterSeconds !== undefined && !detail.endsWith(retry)) lines.push(retry);
  if (init.requestId !== undefined) lines.push(`request id: ${init.requestId}`);
  if (init.attempts > 1) lines.push(`after ${init.attempts} attempts`);
  return lines.join('\n');
}
