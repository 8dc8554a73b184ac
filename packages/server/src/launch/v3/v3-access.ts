import type { PhpArray } from '@poker-launch/sdk/php';
import type { AppContext } from '../../app-context.js';
import type { Client } from '../../clients/client.js';
import { clientIdParameter } from '../../clients/client-id-parameter.js';
import { ApiError, failedAuthentication } from '../../http/api-error.js';
import type { RouteRequest } from '../../http/route-request.js';
import { type Authenticated, headerValue } from '../../http/routes.js';
import { authenticateClient } from '../../signature/authenticate-client.js';
import type { AcceptedSignature } from '../../signature/request-protection-checks.js';
import { recordUsedSignature } from '../../signature/used-signatures.js';
import { type ApiUser, mayActFor, PERMISSION_CREATE_OPEN_GAME } from '../../users/api-user.js';
import { authorizeApiKey } from '../../users/authorize-api-key.js';
import { isNotSent } from '../../validation/parse-fields.js';
import { onTheWire, v3SignedRequest } from '../signed-request.js';

/**
 * Who may open (and read back) v3 game sessions for the client named by `?client=` (docs/design.md §8):
 * - with `Authorization`, an API key of a user with ROLE_ADMIN or CREATE:OpenGame (no `sign` needed),
 *   for a client the key is bound to (403 otherwise, docs/design.md §11); the key is then the whole
 *   proof, so an unusable client of its own is said plainly: 422;
 * - without it, the request signature, or nothing for a client without a secret; there an unknown or
 *   disabled client is the same 400 as a wrong sign, so nobody can probe which clients exist.
 *
 * `params` are the request's other parameters (body or path); the canonical signature drops `client`,
 * and a signature computed with `client` kept is accepted too (docs/design.md §2). The caller counts
 * against its client's quota (a route's `authenticate`, counted by the quota hook). With it comes the
 * API user whose key authorized the call (undefined for a signed call) and, for a signed call, the
 * signature to record as used: open-game records it in the launch's own transaction
 * (docs/design.md §11), other routes with `useSignature`.
 */
export async function authenticateV3Caller(
  context: AppContext,
  request: RouteRequest,
  params: PhpArray,
): Promise<Authenticated<V3Caller>> {
  const caller = await authenticateCaller(context, request, params);
  return { quota: `client:${caller.client.id}`, caller };
}

/**
 * The caller's client, its signature recorded as used first: a request that launches nothing has no
 * session to record it with, so the signature is used up before the request does anything.
 */
export async function useSignature(context: AppContext, caller: V3Caller): Promise<Client> {
  await recordUsedSignature(context, caller.usedSignature);
  return caller.client;
}

export interface V3Caller extends AcceptedSignature {
  apiUser?: ApiUser | undefined;
}

/** Whose GameSessions a caller may read: one client's, or (an API key without `client`) its clients'. */
export interface GameSessionReader {
  /** The client named by `?client=`, authenticated; undefined when the key alone was given. */
  readonly client: Client | undefined;
  /** The API user whose key was given, if one was (admins see who opened a session). */
  readonly apiUser?: ApiUser | undefined;
  /** A signed reader's signature, to record as used (useSignature) before reading. */
  readonly usedSignature?: AcceptedSignature['usedSignature'];
  mayRead(clientId: string): boolean;
}

/**
 * Who may read a GameSession. With `?client=`, those who may open games for that client: the client.
 * With an API key and no `client`, the IRI alone (`data.id`, `Location`) is enough, as for any JSON:API
 * resource, since the session knows its client: a session of a client the key may act for
 * (docs/design.md §11); such a reader counts against its API user's quota. A key whose user may not
 * open games gets `hidden`, the answer of a session that does not exist, so such a key cannot tell
 * which sessions exist.
 */
export async function authenticateGameSessionReader(
  context: AppContext,
  request: RouteRequest,
  params: PhpArray,
  hidden: () => ApiError,
): Promise<Authenticated<GameSessionReader>> {
  const { client } = request.query;
  const { authorization } = request.headers;
  if (authorization === undefined || !isNotSent(client)) {
    const { quota, caller } = await authenticateV3Caller(context, request, params);
    const { client: authenticated, apiUser, usedSignature } = caller;
    return {
      quota,
      caller: { client: authenticated, apiUser, usedSignature, mayRead: (id) => id === authenticated.id },
    };
  }
  let user: ApiUser;
  try {
    user = await authorizeApiKey(context.live, authorization, PERMISSION_CREATE_OPEN_GAME);
  } catch (error) {
    throw error instanceof ApiError && error.status === 403 ? hidden() : error;
  }
  return {
    quota: `api-user:${user.name}`,
    caller: { client: undefined, apiUser: user, mayRead: (clientId) => mayActFor(user, clientId) },
  };
}

async function authenticateCaller(
  context: AppContext,
  request: RouteRequest,
  params: PhpArray,
): Promise<V3Caller> {
  const clientId = clientIdParameter(request.query, 'client');
  const { authorization } = request.headers;
  if (authorization !== undefined) {
    const apiUser = await authorizeApiKey(context.live, authorization, PERMISSION_CREATE_OPEN_GAME);
    // A key that names no client it may act for proved nothing for any client: no client's quota counts
    // the request, so it counts against the caller's address as a failed authentication.
    if (clientId === undefined) {
      throw failedAuthentication(ApiError.of('field_required', CLIENT_REQUIRED));
    }
    // Decided before the client is looked up: the answer and its cost are the same whether it exists.
    if (!mayActFor(apiUser, clientId)) throw notBoundToClient();
    return { client: await activeClientOrThrow(context, clientId), apiUser };
  }
  return authenticateClient(
    context.live,
    context.config,
    v3SignedRequest({
      query: request.query,
      params,
      body: request.body,
      received: headerValue(request, 'sign'),
      now: context.clock(),
      ...onTheWire(request),
    }),
  );
}

/** With an API key, v3 routes that act (open a game, end sessions, block) name the client they act for. */
export const CLIENT_REQUIRED =
  'The client query parameter cannot be blank: with an API key, name the client it acts for (?client=<id>)';

/** One answer for every client a key is not bound to, existing or not (docs/design.md §11). */
export function notBoundToClient(): ApiError {
  return failedAuthentication(ApiError.of('forbidden', 'This API key may not act for the client named'));
}

async function activeClientOrThrow(context: AppContext, clientId: string): Promise<Client> {
  const client = context.live.findClient(clientId);
  if (!client?.active) {
    throw failedAuthentication(
      ApiError.of('invalid_field', 'The client query parameter names no active client'),
    );
  }
  return client;
}
