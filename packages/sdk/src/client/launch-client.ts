import { phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import { JSON_API_MEDIA_TYPE } from '../wire/media-type.js';
import type { OpenGameDocument, OpenGamePlayer, OpenGameSession } from '../wire/open-game.js';
import type { CreateSessionParams } from './create-session-params.js';
import { encodeForm, toFormFields } from './form-body.js';
import { LaunchApiError } from './launch-api-error.js';
import { pathSegment } from './path-segment.js';
import { type SignatureOptions, signRequest, type UnsignedRequest } from './request-signing.js';
import {
  type CreateSessionResult,
  type GameSession,
  type OpenGameResult,
  readGameSessionDocument,
  readGameSessionStateDocument,
  readSessionDocument,
} from './results.js';
import { type RetryOptions, retryPolicy } from './retry.js';
import {
  type BlockPlayerOptions,
  blockAttributes,
  controlRequest,
  type PlayerBlock,
  type PlayerBlockResult,
  playerRequest,
  readPlayerBlock,
  readPlayerBlockResult,
  sessionRequest,
} from './session-control.js';
import {
  type Answer,
  type CallOptions,
  checkedTimeoutMs,
  type FetchLike,
  type PreparedRequest,
  send,
} from './transport.js';

/**
 * Options of `createLaunchClient`.
 *
 * @example { baseUrl: 'https://poker.example.com', clientId: 'demo', secretKey: '…', retry: { tries: 5 } }
 */
export interface LaunchClientOptions {
  /** Where the service lives, e.g. `https://poker.example.com` (the v2 and v3 paths are appended). */
  baseUrl: string;
  /** Your client id (`clientId` in v2, `client` in v3). */
  clientId: string;
  /**
   * Signs every request. Keep it on your server; leave the option out only for a client that has no
   * secret. Passed but undefined or empty (an unset environment variable, say), it is refused at once.
   */
  secretKey?: string | undefined;
  /**
   * How requests are signed: `{ scheme: 'legacy' }` (the default, the spec's signature), with
   * `replayFields: true` to add `ts` and `nonce`, or `{ scheme: 'hmac' }`. Use what the service's setting
   * for your client accepts.
   */
  signature?: SignatureOptions | undefined;
  /** v3 only: an API key sent as `Authorization: Bearer …`, for callers that authenticate as a user. */
  apiKey?: string | undefined;
  /** Defaults to the runtime's global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Retrying of server faults and network failures (default: 3 tries, 200 ms base, 5 s cap, full jitter). */
  retry?: RetryOptions | undefined;
  /**
   * The most time one call may take, every attempt and wait included (a call's own `timeoutMs` overrides
   * it); then it rejects with code `timeout`. Default 30 s (DEFAULT_TIMEOUT_MS); `Infinity` for none.
   */
  timeoutMs?: number | undefined;
}

/** v3 open game: the player's profile (only `id` is required) and, optionally, the session's options. */
export interface OpenGameParams {
  session?: OpenGameSession | undefined;
  player: OpenGamePlayer;
}

/**
 * The operations of the API, bound to one client id and its credentials. Each takes, last, optional
 * `{ signal, timeoutMs }`: an AbortSignal of yours and a bound on the call's time, retries included.
 */
export interface LaunchClient {
  /**
   * v2 create session: registers or updates the player and answers the URL that opens the target.
   *
   * @example
   * const { redirectUrl } = await client.createSession('u-1', { nick: 'Bob', gameCode: 'poker', tableId: 7 });
   */
  createSession(
    userId: string,
    params?: CreateSessionParams,
    options?: CallOptions,
  ): Promise<CreateSessionResult>;
  /**
   * v3 open game: creates a session and stores the player's profile in the same request.
   *
   * @example
   * const { url } = await client.openGame({ player: { id: 'u-1', nick: 'Bob' }, session: { tableId: 7 } });
   */
  openGame(params: OpenGameParams, options?: CallOptions): Promise<OpenGameResult>;
  /**
   * Reads a v3 GameSession back: its state (`active`, `expired` or `revoked`), target and times, never
   * its token. Takes `openGame`'s `id` (the GameSession IRI) or its last segment. A session of another
   * client, or a v2 session, is a `not_found` (404) like one that does not exist.
   *
   * @example
   * const { id } = await client.openGame({ player: { id: 'u-1' } });
   * const { state, expiresAt } = await client.getGameSession(id);
   */
  getGameSession(id: string, options?: CallOptions): Promise<GameSession>;
  /**
   * Ends one session now: its token stops working, and an open game page leaves the game. Takes v2's
   * `id` (data.id) or v3's `id` (the GameSession IRI). A session that had ended already is fine.
   *
   * @example
   * const { id } = await client.openGame({ player: { id: 'u-1' } });
   * await client.revokeSession(id);
   */
  revokeSession(id: string, options?: CallOptions): Promise<void>;
  /**
   * Ends every live session of the player.
   *
   * @example
   * const { revokedSessions } = await client.revokePlayerSessions('u-1');
   */
  revokePlayerSessions(playerId: string, options?: CallOptions): Promise<{ revokedSessions: number }>;
  /**
   * Blocks the player: its live sessions end, and launches for it are refused (403) until `until`, or
   * until `unblockPlayer`. A block set before is replaced.
   *
   * @example
   * await client.blockPlayer('u-1', { until: new Date(Date.now() + 30 * 86_400_000), reason: 'self-exclusion' });
   */
  blockPlayer(
    playerId: string,
    options?: BlockPlayerOptions,
    callOptions?: CallOptions,
  ): Promise<PlayerBlockResult>;
  /**
   * Whether the player is blocked now (`blocked`), since and until when (`until` null: until lifted),
   * and why; `blocked` is false, the others null, when there is no block or it has ended.
   *
   * @example
   * const { blocked, until } = await client.getPlayerBlock('u-1');
   */
  getPlayerBlock(playerId: string, options?: CallOptions): Promise<PlayerBlock>;
  /**
   * Lifts the player's block (nothing happens if there is none).
   *
   * @example
   * await client.unblockPlayer('u-1');
   */
  unblockPlayer(playerId: string, options?: CallOptions): Promise<void>;
}

/**
 * A call's time limit unless the client or the call sets one: a service or proxy that accepts the
 * connection and never answers must not hold an integrator's request forever, and a launch, its retries
 * and their waits (at most 5 s each by default) end well within it.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The service's root without its trailing slashes. One that is not an absolute http(s) URL would fail
 * only at the first call, as fetch's bare "Invalid URL" that names no option: refused here, saying so.
 */
function serviceRoot(baseUrl: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new TypeError(
      `createLaunchClient: baseUrl must be the service's root as an absolute http(s) URL, such as ` +
        `https://poker.example.com or http://127.0.0.1:8080, not ${JSON.stringify(baseUrl)}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    // fetch would refuse every request, its message quoting the whole URL, password included, into
    // each LaunchApiError and every log that keeps one: refused here, and the URL not repeated.
    throw new TypeError(
      'createLaunchClient: baseUrl carries a user name or password (not repeated here), which fetch ' +
        'refuses to send: give the service root without them, and, for a proxy that wants them, add an ' +
        'authorization header in options.fetch',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(
      `createLaunchClient: baseUrl must be the service's root without a query or fragment (the API's ` +
        `paths are appended to it), not ${JSON.stringify(baseUrl)}`,
    );
  }
  return baseUrl.replace(/\/+$/, '');
}

/**
 * A client for the Poker Session Launch API. Builds each request once, signs exactly what it sends,
 * retries server faults and network failures, and throws `LaunchApiError` for every failure.
 *
 * @example
 * const client = createLaunchClient({ baseUrl: 'https://poker.example.com', clientId: 'demo', secretKey: process.env.POKER_SECRET });
 * const { redirectUrl } = await client.createSession('12345', { nick: 'Player1', lang: 'en' });
 */
export function createLaunchClient(options: LaunchClientOptions): LaunchClient {
  const baseUrl = serviceRoot(options.baseUrl);
  const policy = retryPolicy(options.retry);
  const clientTimeoutMs = checkedTimeoutMs(options.timeoutMs, 'createLaunchClient: timeoutMs');
  /** The call's bounds: its own signal, and its own timeout (checked, naming the method) or the client's. */
  const limits = (method: string, call: CallOptions = {}): CallOptions => ({
    signal: call.signal,
    timeoutMs:
      checkedTimeoutMs(call.timeoutMs, `${method}: options.timeoutMs`) ??
      clientTimeoutMs ??
      DEFAULT_TIMEOUT_MS,
  });
  const fetch = options.fetch ?? defaultFetch();
  const { secretKey } = options;
  if (Object.hasOwn(options, 'secretKey') && (secretKey === undefined || secretKey === '')) {
    // Sending unsigned requests and then reporting a "wrong signature" would send people hunting the wrong bug.
    throw new TypeError(
      `createLaunchClient: secretKey is ${secretKey === undefined ? 'undefined' : 'empty'} (an unset ` +
        'environment variable?): pass the secret key of your client, or leave the option out for a ' +
        'client that has no secret',
    );
  }
  for (const name of ['clientId', 'apiKey'] as const) {
    const value: unknown = options[name];
    if (
      (name === 'clientId' || Object.hasOwn(options, name)) &&
      (typeof value !== 'string' || value === '')
    ) {
      // The same trap as secretKey's: `clientId=undefined` in the query, or a v3 call without its key, would
      // come back as a signature error that says nothing of the unset variable.
      throw new TypeError(
        `createLaunchClient: ${name} is ${value === '' ? 'empty' : value === undefined ? 'undefined (an unset environment variable?)' : `not a string (a ${typeof value})`}: ` +
          (name === 'clientId'
            ? 'pass the client id the operator gave you'
            : 'pass your API key, or leave the option out for a client that signs with its secretKey'),
      );
    }
  }
  // No secret of the service starts or ends with white space (docs/cli.md, "Clients"): one that does was
  // read with its line break, and a refused signature says so (never showing the secret).
  const secretPadded = secretKey !== undefined && secretKey.trim() !== secretKey;
  const signature = signatureOptions(options.signature);
  /** Signs each attempt of the request with the client's scheme, under the given headers. */
  const preparer =
    (request: UnsignedRequest, headers: Record<string, string>) => async (): Promise<PreparedRequest> => {
      const signed = await signRequest(secretKey, signature, request);
      return {
        ...(request.method === undefined ? {} : { method: request.method }),
        url: signed.url,
        headers: { ...headers, ...signed.headers },
        ...(request.method === 'DELETE' || request.method === 'GET' ? {} : { body: request.body }),
        evidence: signed.evidence,
        ...(secretPadded ? { secretPadded: true as const } : {}),
      };
    };

  /** A v3 session-control request or read: `client` in the query, the API key if there is one. */
  const sendControl = (
    method: string,
    request: UnsignedRequest,
    call: CallOptions | undefined,
    explains?: PreparedRequest['explains'],
  ) => {
    const prepare = preparer(request, {
      accept: JSON_API_MEDIA_TYPE,
      ...(request.body === '' ? {} : { 'content-type': JSON_API_MEDIA_TYPE }),
      ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
    });
    const prepared =
      explains === undefined
        ? prepare
        : async (): Promise<PreparedRequest> => ({ ...(await prepare()), explains });
    return send(fetch, policy, prepared, limits(method, call));
  };
  const build = controlRequest(`${baseUrl}`, options.clientId);

  return {
    async revokeSession(id, call) {
      await sendControl('revokeSession', sessionRequest(build, 'DELETE', id), call);
    },

    async getGameSession(id, call) {
      const answer = await sendControl('getGameSession', sessionRequest(build, 'GET', id), call, {
        // The service answers a v2 session's id as it answers an unknown one (docs/integration.md).
        not_found:
          "getGameSession reads v3 sessions (openGame's) only: a v2 session (createSession's id), another client's and an unknown one all answer 404 alike",
      });
      return readGameSessionStateDocument(answer.body) ?? unexpected(answer, 'a GameSession document');
    },

    async revokePlayerSessions(playerId, call) {
      const answer = await sendControl(
        'revokePlayerSessions',
        playerRequest(build, 'DELETE', playerId, 'sessions'),
        call,
      );
      const count = (answer.body as { meta?: { revokedSessions?: unknown } } | undefined)?.meta
        ?.revokedSessions;
      return typeof count === 'number'
        ? { revokedSessions: count }
        : unexpected(answer, 'meta.revokedSessions');
    },

    async blockPlayer(playerId, blockOptions = {}, call = undefined) {
      const answer = await sendControl(
        'blockPlayer',
        playerRequest(build, 'PUT', playerId, 'block', blockAttributes(blockOptions)),
        call,
      );
      return readPlayerBlockResult(answer.body) ?? unexpected(answer, 'a PlayerBlock document');
    },

    async getPlayerBlock(playerId, call) {
      const answer = await sendControl(
        'getPlayerBlock',
        playerRequest(build, 'GET', playerId, 'block'),
        call,
      );
      return readPlayerBlock(answer.body) ?? unexpected(answer, 'a PlayerBlock document');
    },

    async unblockPlayer(playerId, call) {
      await sendControl('unblockPlayer', playerRequest(build, 'DELETE', playerId, 'block'), call);
    },

    async createSession(userId, params = {}, call = undefined) {
      const segment = pathSegment('createSession: userId', userId);
      // userId travels in the path and again in the body; the signature counts it once.
      const body = encodeForm(toFormFields({ ...params, userId }));
      const request: UnsignedRequest = {
        url: `${baseUrl}/api/web/v2/app/users/${segment}/session?clientId=${encodeURIComponent(options.clientId)}`,
        body,
        // What the service (like PHP) reads from the very bytes sent: the query, the body, the path's
        // userId (the path and body userId are one parameter, docs/design.md §2).
        legacyParams: (query) =>
          arrayReplace(parseStr(query), parseStr(body), PhpArray.from([['userId', userId]])),
      };
      const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: JSON_API_MEDIA_TYPE };
      const prepare = preparer(request, headers);
      // v2 takes no API key: a client given one hears so if the request is refused as unsigned.
      const prepared =
        options.apiKey === undefined
          ? prepare
          : async (): Promise<PreparedRequest> => ({ ...(await prepare()), apiKeyNotSent: true });
      const answer = await send(fetch, policy, prepared, limits('createSession', call));
      return readSessionDocument(answer.body) ?? unexpected(answer, 'a session document');
    },

    async openGame({ session, player }, call) {
      const document: OpenGameDocument = {
        data: { type: 'OpenGame', attributes: session === undefined ? { player } : { session, player } },
      };
      const body = JSON.stringify(document);
      const request: UnsignedRequest = {
        url: `${baseUrl}/apiweb/v3/open-game?client=${encodeURIComponent(options.clientId)}`,
        body,
        // The query, then the document as the server (like PHP's json_decode) reads it, without
        // `client`: the canonical form (docs/design.md §2).
        legacyParams: (query) => {
          const params = arrayReplace(parseStr(query), phpJsonDecode(body) as PhpArray);
          params.delete('client');
          return params;
        },
      };
      const headers: Record<string, string> = {
        'content-type': JSON_API_MEDIA_TYPE,
        accept: JSON_API_MEDIA_TYPE,
        ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
      };
      const answer = await send(fetch, policy, preparer(request, headers), limits('openGame', call));
      const location = answer.headers.get('location') ?? undefined;
      return readGameSessionDocument(answer.body, location) ?? unexpected(answer, 'a GameSession document');
    },
  };
}

/** The signature option, checked: a JavaScript caller gets no compiler to catch a misspelled scheme. */
function signatureOptions(options: SignatureOptions = {}): SignatureOptions {
  const scheme = options.scheme ?? 'legacy';
  if (scheme !== 'legacy' && scheme !== 'hmac') {
    throw new TypeError(
      `createLaunchClient: signature.scheme must be 'legacy' or 'hmac', got ${JSON.stringify(scheme)}`,
    );
  }
  if (scheme === 'hmac' && options.replayFields !== undefined) {
    throw new TypeError(
      'createLaunchClient: signature.replayFields belongs to the legacy scheme; the hmac scheme signs its time and nonce itself',
    );
  }
  return options;
}

function defaultFetch(): FetchLike {
  if (typeof globalThis.fetch !== 'function') {
    throw new TypeError('createLaunchClient: this runtime has no global fetch; pass options.fetch');
  }
  // Looked up on each call, so a fetch installed later (a polyfill, an instrumentation) is used.
  return (url, init) => globalThis.fetch(url, init);
}

function unexpected(answer: Answer, expected: string): never {
  throw new LaunchApiError({
    status: answer.status,
    errors: [],
    attempts: answer.attempts,
    fallback: { code: 'unexpected_response', detail: `HTTP ${answer.status} without ${expected}` },
  });
}
