import { phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import { sign } from '../signature/sign.js';
import { JSON_API_MEDIA_TYPE } from '../wire/media-type.js';
import type { OpenGameDocument, OpenGamePlayer, OpenGameSession } from '../wire/open-game.js';
import type { CreateSessionParams } from './create-session-params.js';
import { encodeForm, toFormFields } from './form-body.js';
import { LaunchApiError } from './launch-api-error.js';
import {
  type CreateSessionResult,
  type OpenGameResult,
  readGameSessionDocument,
  readSessionDocument,
} from './results.js';
import { type RetryOptions, retryPolicy } from './retry.js';
import { type Answer, type FetchLike, type PreparedRequest, send } from './transport.js';

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
  /** v3 only: an API key sent as `Authorization: Bearer …`, for callers that authenticate as a user. */
  apiKey?: string;
  /** Defaults to the runtime's global `fetch`. */
  fetch?: FetchLike;
  /** Retrying of server faults and network failures (default: 3 tries, 200 ms base, 5 s cap, full jitter). */
  retry?: RetryOptions;
}

/** v3 open game: the player's profile (only `id` is required) and, optionally, the session's options. */
export interface OpenGameParams {
  session?: OpenGameSession;
  player: OpenGamePlayer;
}

/** The two operations of the API, bound to one client id and its credentials. */
export interface LaunchClient {
  /**
   * v2 create session: registers or updates the player and answers the URL that opens the target.
   *
   * @example
   * const { redirectUrl } = await client.createSession('u-1', { nick: 'Bob', gameCode: 'poker', tableId: 7 });
   */
  createSession(userId: string, params?: CreateSessionParams): Promise<CreateSessionResult>;
  /**
   * v3 open game: creates a session and stores the player's profile in the same request.
   *
   * @example
   * const { url } = await client.openGame({ player: { id: 'u-1', nick: 'Bob' }, session: { tableId: 7 } });
   */
  openGame(params: OpenGameParams): Promise<OpenGameResult>;
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
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const policy = retryPolicy(options.retry);
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
  const signatureHeader = async (signed: PhpArray): Promise<Record<string, string>> =>
    secretKey === undefined ? {} : { sign: await sign(signed, secretKey) };

  return {
    async createSession(userId, params = {}) {
      if (typeof userId !== 'string' || userId === '')
        throw new TypeError('createSession: userId must be a non-empty string');
      // userId travels in the path and again in the body; the signature counts it once.
      const query = `clientId=${encodeURIComponent(options.clientId)}`;
      const body = encodeForm(toFormFields({ ...params, userId }));
      // Signed over what the service (like PHP) reads from the very bytes sent: the query, the body, the
      // path's userId (docs/design.md §2: the path and body userId are one parameter).
      const signed = arrayReplace(parseStr(query), parseStr(body), PhpArray.from([['userId', userId]]));
      const request: PreparedRequest = {
        url: `${baseUrl}/api/web/v2/app/users/${encodeURIComponent(userId)}/session?${query}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: JSON_API_MEDIA_TYPE,
          ...(await signatureHeader(signed)),
        },
        body,
        signed,
        unsigned: secretKey === undefined,
      };
      const answer = await send(fetch, policy, request);
      return readSessionDocument(answer.body) ?? unexpected(answer, 'a session document');
    },

    async openGame({ session, player }) {
      const document: OpenGameDocument = {
        data: { type: 'OpenGame', attributes: session === undefined ? { player } : { session, player } },
      };
      const body = JSON.stringify(document);
      // Signed over the document as the server (like PHP's json_decode) reads it; `client` is left out,
      // which is the canonical form (docs/design.md §2).
      const signed = phpJsonDecode(body) as PhpArray;
      const request: PreparedRequest = {
        url: `${baseUrl}/apiweb/v3/open-game?client=${encodeURIComponent(options.clientId)}`,
        headers: {
          'content-type': JSON_API_MEDIA_TYPE,
          accept: JSON_API_MEDIA_TYPE,
          ...(await signatureHeader(signed)),
          ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
        },
        body,
        signed,
        unsigned: secretKey === undefined,
      };
      const answer = await send(fetch, policy, request);
      const location = answer.headers.get('location') ?? undefined;
      return readGameSessionDocument(answer.body, location) ?? unexpected(answer, 'a GameSession document');
    },
  };
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
