import { hmacSignHeader, type SignableParams, sign } from '@poker-launch/sdk';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { parsePhpForm } from '../../src/http/body/php-form.js';
import { V2_CREATE_SESSION_URL } from '../../src/launch/v2/v2.routes.js';
import { GAME_SESSIONS_PATH } from '../../src/launch/v3/game-session.serializer.js';
import { V3_OPEN_GAME_URL } from '../../src/launch/v3/v3.routes.js';
import { ASSET_PATHS, GAME_PAGES } from '../../src/pages/game-pages.js';
import { PLAYERS_PATH } from '../../src/session-control/session-control.routes.js';
import { TOKEN_API_URL } from '../../src/token/token.routes.js';
import {
  accepts,
  apiKeyChoice,
  blockBody,
  clientChoice,
  contentTypes,
  controlQuery,
  encode,
  extraQuery,
  hostileJson,
  hostileText,
  pathSegment,
  remoteAddresses,
  requestIds,
  signing,
  sometimes,
  v2Params,
  v3Body,
} from './arbitraries.js';
import { type FuzzWorld, SECRETS } from './fuzz-world.js';

/** One request, ready for `app.inject`, and the documented route it is meant for (if any). */
export interface FuzzRequest {
  method: string;
  url: string;
  /** The route in Fastify form (`/a/:id`), when the request is aimed at one. */
  route?: string | undefined;
  /** Well-formed for a usable client, with a valid signature or key: it must succeed (2xx, or a 303). */
  wellFormed?: boolean | undefined;
  /** Must be refused (4xx): a replay of a request the service accepted. */
  mustRefuse?: boolean | undefined;
  /** Accepted, it may not be accepted again: signed with hmac for the hmac client alone. */
  oneUse?: boolean | undefined;
  headers: Record<string, string>;
  payload?: string | undefined;
  remoteAddress: string;
}

/**
 * The cases of one endpoint: plain data (what fast-check prints for a failure), turned into a request only
 * against the world, whose tokens and ids a case may use.
 */
export interface FuzzEndpoint<P> {
  plans: fc.Arbitrary<P>;
  build(plan: P, world: FuzzWorld): Promise<FuzzRequest>;
  /** Whether each case compares the store before and after: a refused request must change nothing. */
  checksStore?: boolean;
  /** What to remember of an answer for later cases. */
  afterAnswer?: (world: FuzzWorld, request: FuzzRequest, answer: LightMyRequestResponse) => void;
  /** The promises its answers keep, when not the API's (answer-checks.ts). */
  answerCheck?: (world: FuzzWorld, request: FuzzRequest, answer: LightMyRequestResponse) => string[];
}

function endpoint<P>(
  plans: fc.Arbitrary<P>,
  build: (plan: P, world: FuzzWorld) => Promise<FuzzRequest>,
  more: Partial<FuzzEndpoint<P>> = {},
): FuzzEndpoint<P> {
  return { plans, build, ...more };
}

/** What an HTTP client can put in a header: visible Latin-1 and tabs; anything else is dropped. */
const headerSafe = (text: string): string => text.replace(/[^\t\x20-\x7e\xa0-\xff]/g, '');

export function fuzzHeaders(entries: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) out[name] = headerSafe(value);
  return out;
}

function tryParseForm(text: string): Record<string, unknown> {
  try {
    return parsePhpForm(text);
  } catch {
    return {};
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `key=value` pairs as a query string; keys as given (they carry brackets and bad escapes on purpose). */
function queryString(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([key, value]) => `${key}=${encode(value)}`).join('&');
}

/** The inverse of the service's form parser: nested objects and lists as `key[sub]=…`. */
function encodeForm(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((item) => ['', item] as const) : Object.entries(value);
    return entries.flatMap(([key, item]) => encodeForm(item, prefix === '' ? key : `${prefix}[${key}]`));
  }
  return [`${encode(prefix)}=${encode(value === null ? '' : String(value))}`];
}

/** The `sign` header a request gets under each way of signing: the real one, or a broken one. */
async function signature(
  mode: string,
  params: Record<string, unknown>,
  clientId: string | undefined,
  garbage: string,
): Promise<string | undefined> {
  const signWith = async (secret: string) => {
    try {
      return await sign(params as SignableParams, secret);
    } catch {
      return 'f'.repeat(64); // parameters the signature refuses (too deep): the service answers 400
    }
  };
  switch (mode) {
    case 'valid':
      return signWith(SECRETS[clientId ?? ''] ?? '');
    case 'valid-upper':
      return (await signWith(SECRETS[clientId ?? ''] ?? '')).toUpperCase();
    case 'other-client':
      return signWith(SECRETS.strict ?? '');
    case 'wrong':
      return 'f'.repeat(64);
    case 'garbage':
      return garbage;
    default:
      return undefined;
  }
}

function authorization(choice: string, world: FuzzWorld): string | undefined {
  switch (choice) {
    case 'admin':
      return `Bearer ${world.apiKeys.admin}`;
    case 'powerless':
      return `Bearer ${world.apiKeys.powerless}`;
    case 'strict-only':
      return `Bearer ${world.apiKeys.strictOnly}`;
    case 'unknown':
      return `Bearer plk_${'A'.repeat(43)}`;
    case 'malformed':
      return 'Basic dXNlcjpwYXNz';
    default:
      return undefined;
  }
}

const clientPairOf = (clientId: string | undefined) =>
  clientId === undefined ? [] : [['client', clientId] as const];

export const pick = <T>(pool: readonly T[], index: number): T | undefined =>
  pool.length === 0 ? undefined : pool[index % pool.length];

const common = {
  accept: accepts,
  requestId: requestIds,
  remoteAddress: remoteAddresses,
  extraQuery,
  garbage: hostileText,
};

/** v2 create session: signed right (to reach every rule) or wrong, with every field valid or hostile. */
export const v2Requests = endpoint(
  fc.record({
    ...common,
    userId: pathSegment(fc.stringMatching(/^[a-z0-9-]{1,12}$/)),
    clientId: clientChoice,
    params: v2Params,
    json: fc.boolean(),
    contentType: sometimes(contentTypes, 12),
    signing,
  }),
  async (plan) => {
    const clientPair = plan.clientId === undefined ? [] : [['clientId', plan.clientId] as const];
    const query = queryString([...clientPair, ...plan.extraQuery]);
    const params =
      plan.params.userId === 'same' ? { ...plan.params, userId: safeDecode(plan.userId) } : plan.params;
    const payload = plan.json ? JSON.stringify(params) : encodeForm(params).join('&');
    const body = plan.json ? params : tryParseForm(payload);
    const signed = { ...tryParseForm(query), ...body, userId: safeDecode(plan.userId) };
    return {
      method: 'POST',
      url: `/api/web/v2/app/users/${plan.userId}/session?${query}`,
      route: V2_CREATE_SESSION_URL,
      headers: fuzzHeaders({
        'content-type':
          plan.contentType ?? (plan.json ? 'application/json' : 'application/x-www-form-urlencoded'),
        accept: plan.accept,
        'x-request-id': plan.requestId,
        sign: await signature(plan.signing, signed, plan.clientId, plan.garbage),
      }),
      payload,
      remoteAddress: plan.remoteAddress,
    };
  },
);

/** v3 open game: a signed document, an API key, or neither; the document valid or broken anywhere. */
export const v3Requests = endpoint(
  fc.record({
    ...common,
    clientId: clientChoice,
    body: v3Body,
    raw: sometimes(hostileText, 10),
    contentType: sometimes(contentTypes, 12),
    signing,
    apiKey: apiKeyChoice,
  }),
  async (plan, world) => {
    const query = queryString([...clientPairOf(plan.clientId), ...plan.extraQuery]);
    const { client: _client, ...signedQuery } = tryParseForm(query);
    const payload = plan.raw ?? JSON.stringify(plan.body);
    const body =
      plan.body !== null && typeof plan.body === 'object' && !Array.isArray(plan.body) ? plan.body : {};
    return {
      method: 'POST',
      url: `${V3_OPEN_GAME_URL}?${query}`,
      route: V3_OPEN_GAME_URL,
      headers: fuzzHeaders({
        'content-type': plan.contentType ?? 'application/vnd.api+json',
        accept: plan.accept,
        'x-request-id': plan.requestId,
        authorization: authorization(plan.apiKey, world),
        sign: await signature(plan.signing, { ...signedQuery, ...body }, plan.clientId, plan.garbage),
      }),
      payload,
      remoteAddress: plan.remoteAddress,
    };
  },
);

/** Reading a GameSession back: ids the service handed out, or any other. */
export const gameSessionRequests = endpoint(
  fc.record({
    ...common,
    known: fc.nat(),
    id: sometimes(pathSegment(fc.stringMatching(/^[0-9a-f]{32}$/)), 4),
    clientId: clientChoice,
    signing,
    apiKey: apiKeyChoice,
  }),
  async (plan, world) => {
    const id = plan.id ?? pick(world.gameSessionIds, plan.known) ?? '0'.repeat(32);
    const query = queryString([...clientPairOf(plan.clientId), ...plan.extraQuery]);
    const { client: _client, ...signedQuery } = tryParseForm(query);
    return {
      method: 'GET',
      url: `${GAME_SESSIONS_PATH}/${id}?${query}`,
      route: `${GAME_SESSIONS_PATH}/:id`,
      headers: fuzzHeaders({
        accept: plan.accept,
        'x-request-id': plan.requestId,
        authorization: authorization(plan.apiKey, world),
        sign: await signature(
          plan.signing,
          { ...signedQuery, id: safeDecode(id) },
          plan.clientId,
          plan.garbage,
        ),
      }),
      remoteAddress: plan.remoteAddress,
    };
  },
);

/** The token API: tokens the service handed out (live, expired, ended) or made up, in every place. */
export const tokenRequests = endpoint(
  fc.record({
    ...common,
    method: fc.constantFrom('GET', 'GET', 'DELETE'),
    known: fc.nat(),
    madeUp: sometimes(hostileText, 4),
    placement: fc.constantFrom('header', 'header', 'query', 'both', 'brackets', 'none'),
  }),
  async (plan, world) => {
    const token = plan.madeUp ?? pick(world.tokens, plan.known) ?? 'a'.repeat(32);
    const inQuery = plan.placement === 'query' || plan.placement === 'both';
    const pairs = [
      ...(inQuery ? [['access-token', token] as const] : []),
      ...(plan.placement === 'brackets' ? [['access-token[]', token] as const] : []),
      ...plan.extraQuery,
    ];
    const inHeader = plan.placement === 'header' || plan.placement === 'both';
    return {
      method: plan.method,
      url: `${TOKEN_API_URL}?${queryString(pairs)}`,
      route: TOKEN_API_URL,
      headers: fuzzHeaders({
        accept: plan.accept,
        'x-request-id': plan.requestId,
        authorization: inHeader ? `Bearer ${token}` : undefined,
      }),
      remoteAddress: plan.remoteAddress,
    };
  },
);

/** The game pages and their files, with a session's token or anything else in `auth`. */
export const pageRequests = endpoint(
  fc.record({
    ...common,
    path: fc.constantFrom(...GAME_PAGES.map((page) => page.path), ASSET_PATHS.css, ASSET_PATHS.js),
    known: fc.nat(),
    auth: sometimes(hostileText, 4),
    ifNoneMatch: sometimes(hostileText, 4),
  }),
  async (plan, world) => {
    const auth = plan.auth ?? pick(world.tokens, plan.known) ?? '';
    return {
      method: 'GET',
      url: `${plan.path}?${queryString([['auth', auth], ['lang', 'en'], ...plan.extraQuery])}`,
      headers: fuzzHeaders({
        accept: plan.accept,
        'x-request-id': plan.requestId,
        'if-none-match': plan.ifNoneMatch,
      }),
      remoteAddress: plan.remoteAddress,
    };
  },
);

const KNOWN_PATHS = [
  '/api/web/v2/app/users/u-1/session',
  V3_OPEN_GAME_URL,
  `${GAME_SESSIONS_PATH}/${'0'.repeat(32)}`,
  TOKEN_API_URL,
  '/play/poker',
  '/openapi.json',
  '/docs',
  '/docs/static/index.css',
  '/',
  '/api/web/v9/nothing',
  '/api/web/v2/app/users//session',
  '/play/poker%',
  `/x;auth=${'b'.repeat(32)}`,
  `/${'s'.repeat(1001)}`,
  '*',
];

/** Any method on any path, with any body and media type: what a scanner sends. */
export const anyRequests = endpoint(
  fc.record({
    ...common,
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    path: fc.oneof(
      fc.constantFrom(...KNOWN_PATHS),
      fc
        .array(pathSegment(fc.stringMatching(/^[a-z]{1,8}$/)), { minLength: 1, maxLength: 4 })
        .map((segments) => `/${segments.join('/')}`),
    ),
    contentType: contentTypes,
    body: fc.option(
      fc.oneof(
        hostileText,
        hostileJson.map((value) => JSON.stringify(value) ?? ''),
      ),
      {
        nil: undefined,
      },
    ),
  }),
  async (plan) => ({
    method: plan.method,
    url: `${plan.path}?${queryString(plan.extraQuery)}`,
    headers: fuzzHeaders({
      'content-type': plan.body === undefined ? undefined : plan.contentType,
      accept: plan.accept,
      'x-request-id': plan.requestId,
    }),
    payload: plan.method === 'GET' || plan.method === 'HEAD' ? undefined : plan.body,
    remoteAddress: plan.remoteAddress,
  }),
);

const CONTROL_ROUTES = {
  'end-session': { method: 'DELETE', route: `${GAME_SESSIONS_PATH}/:id` },
  'end-player-sessions': { method: 'DELETE', route: `${PLAYERS_PATH}/:playerId/sessions` },
  'block-put': { method: 'PUT', route: `${PLAYERS_PATH}/:playerId/block` },
  'block-get': { method: 'GET', route: `${PLAYERS_PATH}/:playerId/block` },
  'block-delete': { method: 'DELETE', route: `${PLAYERS_PATH}/:playerId/block` },
} as const;

/** A client the fuzz may name that answers a well-formed request (`gone` is disabled). */
const USABLE_CLIENTS = new Set(['demo', 'open', 'internal', 'strict', 'hmac']);

/**
 * Session control: end a session, end a player's sessions, block, read and lift a block. Mostly a player
 * or session of the client named (a well-formed request must succeed), else another client's, a made-up
 * id, or one no player can have; signed right or wrong, or with an API key; duplicate and foreign
 * parameters; the block's document valid or broken anywhere, as JSON or not.
 */
export const controlRequests = endpoint(
  fc.record({
    ...common,
    which: fc.constantFrom(...(Object.keys(CONTROL_ROUTES) as (keyof typeof CONTROL_ROUTES)[])),
    known: fc.nat(),
    /** Another client's player or session, as a caller that knows one would send it. */
    foreign: fc.oneof(
      { weight: 6, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    playerId: sometimes(pathSegment(fc.stringMatching(/^[a-z0-9-]{1,12}$/)), 6),
    sessionId: sometimes(pathSegment(fc.stringMatching(/^[0-9a-f]{32}$/)), 6),
    clientId: fc.oneof({ weight: 6, arbitrary: clientChoice }, { weight: 1, arbitrary: fc.constant('hmac') }),
    /** The last hmac-signed request again, as sent: the nonce is used, so it must be refused. */
    replay: fc.oneof(
      { weight: 15, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    query: controlQuery,
    signing,
    apiKey: fc.oneof(
      { weight: 7, arbitrary: apiKeyChoice },
      { weight: 1, arbitrary: fc.constant('strict-only') },
    ),
    block: blockBody,
    raw: sometimes(hostileText, 10),
    /** A body where none is read (GET, DELETE): JSON, or any text. */
    stray: sometimes(
      fc.oneof(
        hostileText,
        hostileJson.map((value) => JSON.stringify(value) ?? ''),
      ),
      10,
    ),
    contentType: sometimes(contentTypes, 12),
  }),
  async (plan, world) => {
    const { method, route } = CONTROL_ROUTES[plan.which];
    const isPlayerRoute = plan.which !== 'end-session';
    const clientId = plan.clientId;
    // The player or session: one of the client's (or, foreign, another's), else made up.
    const candidates = world.players.filter((player) => (player.clientId === clientId) !== plan.foreign);
    const player = pick(candidates, plan.known);
    let id: string;
    let owner: string | undefined;
    if (isPlayerRoute) {
      id = plan.playerId ?? encode(player?.integratorId ?? 'nobody');
      owner = plan.playerId === undefined ? player?.clientId : undefined;
    } else {
      id = plan.sessionId ?? pick(world.gameSessionIds, plan.known) ?? '0'.repeat(32);
      const row = isHex32(id)
        ? await world.db.selectFrom('sessions').select('client_id').where('id', '=', id).executeTakeFirst()
        : undefined;
      owner = plan.sessionId === undefined ? row?.client_id : undefined;
    }
    const pairs = [...clientPairOf(clientId), ...plan.query];
    const query = queryString(pairs);
    const { client: _client, ...signedQuery } = tryParseForm(query);
    const payload = method === 'PUT' ? (plan.raw ?? JSON.stringify(plan.block.document)) : plan.stray;
    const body =
      method === 'PUT' && plan.raw === undefined && isObject(plan.block.document) ? plan.block.document : {};
    const pathParam = isPlayerRoute ? { playerId: safeDecode(id) } : { id: safeDecode(id) };
    const wellFormed =
      clientId !== undefined &&
      USABLE_CLIENTS.has(clientId) &&
      owner === clientId &&
      plan.query.length === 0 &&
      plan.stray === undefined &&
      plan.contentType === undefined &&
      (method !== 'PUT' || (plan.raw === undefined && plan.block.valid)) &&
      [undefined, '*/*', 'application/vnd.api+json'].includes(plan.accept) &&
      ((plan.signing === 'valid' || (plan.signing === 'valid-upper' && clientId !== 'hmac')) &&
      plan.apiKey === 'none'
        ? true
        : plan.signing === 'none' &&
          (plan.apiKey === 'admin' || (plan.apiKey === 'strict-only' && clientId === 'strict')));
    const contentType = plan.contentType ?? (payload === undefined ? undefined : 'application/vnd.api+json');
    const path = isPlayerRoute
      ? `${PLAYERS_PATH}/${id}/${plan.which === 'end-player-sessions' ? 'sessions' : 'block'}`
      : `${GAME_SESSIONS_PATH}/${id}`;
    const url = `${path}?${query}`;
    if (plan.replay && world.lastHmac) {
      return { ...world.lastHmac, wellFormed: false, mustRefuse: true, remoteAddress: plan.remoteAddress };
    }
    // The hmac scheme signs the method, the target as sent and the body's bytes, at the world's time.
    const hmac =
      clientId === 'hmac' && plan.signing === 'valid'
        ? await hmacSignHeader(
            SECRETS.hmac ?? '',
            { method, target: url, body: payload },
            {
              timestamp: Math.floor(world.clock.now().getTime() / 1000),
              nonce: `fuzz-nonce-${String(++world.nonces).padStart(8, '0')}`,
            },
          ).catch(() => undefined)
        : undefined;
    const request: FuzzRequest = {
      method,
      url,
      route,
      wellFormed: wellFormed && (clientId !== 'hmac' || hmac !== undefined || plan.apiKey !== 'none'),
      headers: fuzzHeaders({
        'content-type': contentType,
        accept: plan.accept,
        'x-request-id': plan.requestId,
        authorization: authorization(plan.apiKey, world),
        sign:
          hmac ??
          (await signature(plan.signing, { ...signedQuery, ...body, ...pathParam }, clientId, plan.garbage)),
      }),
      payload,
      // Not with an API key too (the key authorizes it, the sign is not read: keys are not one-use), nor
      // with other query parameters: `client` twice names the last one, and `open` takes unsigned calls.
      oneUse: hmac !== undefined && plan.apiKey === 'none' && plan.query.length === 0,
      // A well-formed request from the proxy's address: the client's quota may still refuse it (429).
      remoteAddress: wellFormed ? '127.0.0.1' : plan.remoteAddress,
    };
    return request;
  },
  {
    checksStore: true,
    // An hmac-signed request the service accepted: its sign is used, and a later case sends it again.
    afterAnswer(world, request, answer) {
      if (answer.statusCode < 300 && request.oneUse) world.lastHmac = request;
    },
  },
);

const isHex32 = (text: string): boolean => /^[0-9a-f]{32}$/.test(text);
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
