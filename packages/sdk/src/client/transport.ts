import { canonicalString } from '../signature/canonical-string.js';
import type { ErrorObjectMeta } from '../wire/errors.js';
import {
  BUSINESS_ERROR_CODES,
  LaunchApiError,
  type LaunchApiErrorInit,
  type LaunchErrorCode,
  type LaunchErrorObject,
} from './launch-api-error.js';
import type { SignatureEvidence } from './request-signing.js';
import { backoffDelay, type RetryPolicy, sleep } from './retry.js';
import { parseRetryAfter } from './retry-after.js';

/** The part of a fetch `Response` the client reads. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/**
 * The part of `fetch` the client uses; pass your own to add a proxy, tracing or a test double. Launches
 * POST; session control also sends PUT, and DELETE and GET (the reads) without a body.
 */
export type FetchLike = (
  url: string,
  init: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers: Record<string, string>;
    body?: string;
    /** Aborted when the call's time is up or the caller aborts it; the client stops waiting either way. */
    signal?: AbortSignal;
    /**
     * Always `manual`: a redirect is answered to the client, never followed. Following one would turn a
     * launch's POST into a GET (301, 302) or send the signed request to another address (307, 308).
     */
    redirect?: 'manual';
  },
) => Promise<FetchResponseLike>;

/** What bounds one call, all its attempts and waits included. */
export interface CallOptions {
  /** Aborts the call: it rejects with a LaunchApiError of code `aborted`. */
  signal?: AbortSignal | undefined;
  /** The most time the call may take, every attempt and wait included; then it rejects with code `timeout`. */
  timeoutMs?: number | undefined;
}

/** setTimeout's longest delay: a longer one fires at once (Node and browsers alike). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * `timeoutMs` as given to `createLaunchClient` or a call, checked before anything is sent (docs/sdk.md,
 * "Retries"): a JavaScript caller gets no compiler to catch `0`, `'1000'` or a value setTimeout cannot
 * wait, and each would otherwise end the call at once or fail deep inside it. `where` names the option.
 */
export function checkedTimeoutMs(timeoutMs: unknown, where: string): number | undefined {
  if (timeoutMs === undefined) return undefined;
  const expected = `${where} must be a number of milliseconds > 0 and at most ${MAX_TIMEOUT_MS}, or Infinity for no limit`;
  if (typeof timeoutMs !== 'number') {
    throw new TypeError(
      `${expected}; got ${JSON.stringify(timeoutMs) ?? String(timeoutMs)} (a ${typeof timeoutMs})`,
    );
  }
  if (timeoutMs === Number.POSITIVE_INFINITY || (timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS))
    return timeoutMs;
  throw new RangeError(`${expected}; got ${timeoutMs}`);
}

/** One attempt of a request, signed. */
export interface PreparedRequest {
  /** Default POST. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** None for a GET or a DELETE. */
  body?: string;
  /** What the signature covered, to explain a staging server's signature error. */
  evidence: SignatureEvidence;
  /** The client has an API key, which this request (a v2 create session) cannot use. */
  apiKeyNotSent?: true;
  /** The secretKey starts or ends with white space, which no secret of the service does. */
  secretPadded?: true;
  /** What to do about an error code, said for this operation only (a line of the error's message). */
  explains?: Partial<Record<LaunchErrorCode, string>>;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: FetchResponseLike['headers'];
  attempts: number;
}

/**
 * Sends the request, retrying server faults and network failures; resolves with a 2xx answer only.
 * `prepare` signs each attempt: the same body every time, and the same sign unless the signature
 * carries a time and a nonce (replay fields, hmac), which are fresh on each attempt. A wait before a retry
 * that would reach the end of the call's time is not waited: the failure that called for it is thrown
 * then, as a Retry-After beyond `maxDelayMs` is (docs/sdk.md, "Retries").
 */
export async function send(
  fetch: FetchLike,
  policy: RetryPolicy,
  prepare: () => Promise<PreparedRequest>,
  limits: CallOptions = {},
): Promise<Answer> {
  const { signal, stopped, timeLeft, dispose } = callSignal(limits);
  try {
    for (let attempt = 1; ; attempt++) {
      stopped(attempt - 1, undefined);
      const request = await prepare();
      let answer: Answer;
      let status: number | undefined;
      try {
        const response = await until(
          fetch(request.url, {
            method: request.method ?? 'POST',
            headers: request.headers,
            ...(request.body === undefined ? {} : { body: request.body }),
            ...(signal === undefined ? {} : { signal }),
            redirect: 'manual',
          }),
          signal,
        );
        status = response.status;
        answer = {
          status: response.status,
          body: parseJson(await until(response.text(), signal)),
          headers: response.headers,
          attempts: attempt,
        };
      } catch (cause) {
        stopped(attempt, cause);
        if (status !== undefined && status < 500 && status !== 429) {
          // The status arrived, its body did not: the service answered, and a 2xx one did what was asked.
          // Sending a launch again would surely make a second session; nothing else here is retried either.
          throw new LaunchApiError({
            status,
            errors: [],
            attempts: attempt,
            fallback: {
              code: 'unexpected_response',
              detail:
                `HTTP ${status} arrived, its body cut off (${causeText(cause)})` +
                (status < 300 ? ': the service did what was asked, so the request is not sent again' : ''),
            },
            cause,
          });
        }
        const wait = backoffDelay(attempt, policy);
        if (attempt < policy.tries && wait < timeLeft()) {
          await sleep(wait, signal);
          continue;
        }
        throw new LaunchApiError({
          status: 0,
          errors: [],
          attempts: attempt,
          fallback: { code: 'network_error', detail: causeText(cause) },
          cause,
        });
      }
      if (answer.status >= 200 && answer.status < 300) return answer;
      const error = toLaunchApiError(answer, request, attempt);
      if (!isRetryable(error) || attempt >= policy.tries) throw error;
      const asked = error.retryAfterSeconds;
      if (asked !== undefined && asked * 1000 > policy.maxDelayMs) throw error;
      const wait = Math.max(backoffDelay(attempt, policy), (asked ?? 0) * 1000);
      // A wait the call's time would cut short is not waited: the answer says more than "timeout" would.
      if (wait >= timeLeft()) throw error;
      await sleep(wait, signal);
    }
  } finally {
    dispose();
  }
}

/**
 * One signal for the call: the caller's, and the timeout's. `stopped` throws the call's error once either
 * has fired: `aborted` (the caller's) or `timeout`, status 0, with the attempts sent so far. `timeLeft` is
 * what remains of the call's time, in milliseconds (Infinity without a limit).
 */
function callSignal(limits: CallOptions): {
  signal: AbortSignal | undefined;
  stopped(attempts: number, cause: unknown): void;
  timeLeft(): number;
  dispose(): void;
} {
  const { signal: caller, timeoutMs } = limits;
  const deadline =
    timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY
      ? Number.POSITIVE_INFINITY
      : Date.now() + timeoutMs;
  const timeLeft = () => deadline - Date.now();
  if (caller === undefined && timeoutMs === undefined) {
    return { signal: undefined, stopped: () => {}, timeLeft, dispose: () => {} };
  }
  const controller = new AbortController();
  let timedOut = false;
  // Infinity: no limit (a timer of Infinity ms would fire at once).
  const timer =
    timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timeLeft,
    stopped(attempts, cause) {
      if (!controller.signal.aborted) return;
      throw new LaunchApiError({
        status: 0,
        errors: [],
        attempts,
        fallback: timedOut
          ? { code: 'timeout', detail: `no answer within timeoutMs (${timeoutMs} ms)` }
          : { code: 'aborted', detail: "aborted by the caller's signal" },
        cause: cause ?? controller.signal.reason,
      });
    },
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** The promise, or a rejection once the signal fires: a `fetch` that ignores the signal is not waited. */
function until<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * `Retry-After` of a 429 or 503, in seconds: the delay form (`5`) or an HTTP date. The service sends it
 * when the database is away (5 s) or the instance is shutting down (1 s), and past a rate limit
 * (docs/integration.md, Errors).
 */
export function retryAfterSeconds(status: number, headers: FetchResponseLike['headers']): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  return parseRetryAfter(headers.get('retry-after') ?? undefined);
}

/**
 * What failed, through the chain of causes: Node.js's fetch says only "fetch failed" and keeps the reason
 * (`getaddrinfo ENOTFOUND poker.example`, `connect ECONNREFUSED 10.0.0.5:443`) in its `cause`.
 */
function causeText(cause: unknown): string {
  const messages: string[] = [];
  for (let link = cause, depth = 0; link !== undefined && link !== null && depth < 5; depth++) {
    const message = link instanceof Error ? link.message : String(link);
    if (message !== '' && !messages.includes(message)) messages.push(message);
    link = link instanceof Error ? link.cause : undefined;
  }
  return messages.join(': ') || 'no response';
}

/**
 * 5xx are server faults worth another try, except the documented business errors; of the 4xx, only a
 * 429 that says when to come back (the rate limit refused the request before anything was done with it).
 * A wait asked for by `Retry-After` longer than `maxDelayMs` is not waited: the error is thrown at once,
 * with `retryAfterSeconds`.
 */
function isRetryable(error: LaunchApiError): boolean {
  if (error.status === 429) return error.retryAfterSeconds !== undefined;
  return error.status >= 500 && !error.errors.some((item) => BUSINESS_ERROR_CODES.has(item.code));
}

export function toLaunchApiError(answer: Answer, request: PreparedRequest, attempts: number): LaunchApiError {
  const document = isRecord(answer.body) ? answer.body : {};
  const errors = Array.isArray(document.errors)
    ? document.errors.flatMap((item) => toErrorObject(item, answer.status))
    : [];
  const meta = isRecord(document.meta) ? document.meta : {};
  const requestId = typeof meta.requestId === 'string' ? meta.requestId : answer.headers.get('x-request-id');
  const signature = isRecord(meta.signature) ? meta.signature : {};
  const hints = Array.isArray(signature.hints)
    ? signature.hints.flatMap((hint) =>
        isRecord(hint) && typeof hint.detail === 'string' ? [hint.detail] : [],
      )
    : [];
  const refusedSignature = errors.some((error) => error.code === 'invalid_signature');
  const unsigned = request.evidence.scheme === 'none';
  return new LaunchApiError({
    unsigned,
    notes: [
      ...(refusedSignature && unsigned
        ? ['the request was sent unsigned: no secretKey was configured, and this client needs one']
        : []),
      ...(refusedSignature && unsigned && request.apiKeyNotSent
        ? ['v2 createSession takes no API key: only a sign made with the secretKey opens it']
        : []),
      ...(refusedSignature && request.secretPadded
        ? [
            'the secretKey starts or ends with white space (a line break read from a file?), which no secret of the service has: trim it',
          ]
        : []),
      ...(wantedReplayFields(errors, request.evidence)
        ? [
            "the request was signed without ts and nonce: the service requires them of this client; create the client with signature: { replayFields: true } (or { scheme: 'hmac' }, where the client accepts it)",
          ]
        : []),
      ...hints,
      ...whatToDo(errors, request.explains),
      ...redirected(answer),
    ],
    status: answer.status,
    errors,
    requestId: requestId ?? undefined,
    retryAfterSeconds: retryAfterSeconds(answer.status, answer.headers),
    attempts,
    ...sidesOfTheSignature(request.evidence, signature),
    fallback: {
      code: 'unexpected_response',
      detail: `HTTP ${answer.status} without a JSON:API errors document`,
    },
  });
}

/**
 * What to do about an error whose detail (the spec's exact message, docs/integration.md "Errors") does
 * not say it: one line for each such code among the errors.
 */
const WHAT_TO_DO: Partial<Record<LaunchErrorCode, string>> = {
  player_not_found:
    "the service knows a player once a launch (createSession or openGame) registered it, or once the operator added it (poker-launch player add); a client in internal player-id mode gives the service's own player id",
  currency_not_active:
    'the service takes only the currencies its operator activated (poker-launch currency enable <CODE>): ask for this one, or send an active one',
};

function whatToDo(
  errors: readonly LaunchErrorObject[],
  explains: PreparedRequest['explains'] = {},
): string[] {
  const codes = new Set(errors.map((error) => error.code));
  // An unknown code (a newer service's) has no line here: the lookup answers undefined.
  return [...codes].flatMap(
    (code) => explains[code as LaunchErrorCode] ?? WHAT_TO_DO[code as LaunchErrorCode] ?? [],
  );
}

/**
 * A 3xx the client did not follow (`redirect: 'manual'`): most often an http:// baseUrl that a proxy sends
 * to https://. Said with where it points, so the integrator sets baseUrl to it.
 */
function redirected(answer: Answer): string[] {
  if (answer.status < 300 || answer.status > 399) return [];
  const location = answer.headers.get('location');
  return [
    `the service answered a redirect${location ? ` to ${location}` : ''}, which the SDK does not follow (a POST would come back a GET, or the signed request would go to another address): set baseUrl to the address the service answers at`,
  ];
}

/** The service requires replay fields of the client, and the SDK signed the spec's way without them. */
function wantedReplayFields(errors: readonly LaunchErrorObject[], evidence: SignatureEvidence): boolean {
  return (
    evidence.scheme === 'legacy' &&
    evidence.params.get('ts') === undefined &&
    errors.some((error) => error.code === 'replay_fields_required')
  );
}

/** The text the staging server signed, beside the SDK's own, for the scheme the request was signed with. */
function sidesOfTheSignature(
  evidence: SignatureEvidence,
  signature: Record<string, unknown>,
): Pick<LaunchApiErrorInit, 'canonical' | 'hmacSigningText'> {
  if (evidence.scheme !== 'hmac' && typeof signature.canonical === 'string') {
    return { canonical: { server: signature.canonical, sdk: canonicalString(evidence.params) } };
  }
  if (evidence.scheme === 'hmac' && typeof signature.hmacSigningText === 'string') {
    return { hmacSigningText: { server: signature.hmacSigningText, sdk: evidence.signingText } };
  }
  return {};
}

/** One item of an errors document; items of other JSON:API servers may lack a code or an integer status. */
function toErrorObject(item: unknown, responseStatus: number): LaunchErrorObject[] {
  if (!isRecord(item) || typeof item.detail !== 'string') return [];
  const pointer = isRecord(item.source) ? item.source.pointer : undefined;
  const status = Number(item.status);
  const meta = errorMeta(item.meta);
  return [
    {
      status: Number.isInteger(status) && status > 0 ? status : responseStatus,
      code: typeof item.code === 'string' ? item.code : 'unexpected_response',
      title: typeof item.title === 'string' ? item.title : '',
      detail: item.detail,
      ...(typeof pointer === 'string' ? { source: { pointer } } : {}),
      ...(meta === undefined ? {} : { meta }),
    },
  ];
}

/** What an error's `meta` says that the SDK knows: allowed values, the server's clock and window. */
function errorMeta(meta: unknown): ErrorObjectMeta | undefined {
  if (!isRecord(meta)) return undefined;
  const known: ErrorObjectMeta = {};
  if (Array.isArray(meta.allowedValues)) known.allowedValues = meta.allowedValues.map(String);
  if (Number.isSafeInteger(meta.serverTime)) known.serverTime = meta.serverTime as number;
  if (Number.isSafeInteger(meta.windowSeconds)) known.windowSeconds = meta.windowSeconds as number;
  return Object.keys(known).length === 0 ? undefined : known;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
