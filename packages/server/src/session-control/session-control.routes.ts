import { arrayReplace, PhpArray } from '@poker-launch/sdk/php';
import type { AppContext } from '../app-context.js';
import type { Client } from '../clients/client.js';
import { storeStatements } from '../db/write-statements.js';
import { ApiError } from '../http/api-error.js';
import { phpReading } from '../http/body/php-reading.js';
import { sendDocument } from '../http/json-api.js';
import type { RouteRequest } from '../http/route-request.js';
import { type RouteDefinition, route } from '../http/routes.js';
import { USER_ID_LOOKUP } from '../launch/launch-fields.js';
import { GAME_SESSIONS_PATH, gameSessionIri } from '../launch/v3/game-session.serializer.js';
import { authenticateV3Caller, useSignature, type V3Caller } from '../launch/v3/v3-access.js';
import { findSessionById } from '../sessions/session.repository.js';
import { isSessionId } from '../sessions/token.js';
import { isPlainObject } from '../validation/parse-fields.js';
import { blockPlayer, type ControlledPlayer, findControlledPlayer, unblockPlayer } from './player-block.js';
import { readBlockDocument, toPlayerBlockDocument } from './player-block-document.js';
import { OWN_PARAMETERS_ONLY } from './session-control.errors.js';
import {
  blockSchema,
  endPlayerSessionsSchema,
  endSessionSchema,
  playerBlockSchema,
  unblockSchema,
} from './session-control.schema.js';
import { endPlayerSessions, endSession } from './session-end.js';

export const PLAYERS_PATH = '/apiweb/v3/players';

/**
 * Session control for integrators (docs/design.md §11): end one session, end all of a player's, block
 * and unblock a player. Authorized like open-game, for the client named by `?client=`; the path
 * parameters are signed (and the body, for a block).
 */
export function sessionControlRoutes(context: AppContext): RouteDefinition[] {
  const write = storeStatements(context.sessions);
  /**
   * The caller of a route with a playerId path parameter, signed, and the body's document with it. The
   * path goes last, as v2's userId does (docs/design.md §11): a body member named `playerId` must not
   * stand in for the signed path, or one captured sign would act on any player of its client.
   */
  const authenticate = (request: RouteRequest<'/:playerId'>) => {
    assertOwnParameters(request);
    const signed = PhpArray.from([['playerId', request.params.playerId]]);
    const params = arrayReplace(phpReading(request.body), signed);
    return authenticateV3Caller(context, request, params);
  };
  const playerFor = async (caller: V3Caller, playerId: string) =>
    controlledPlayerOrThrow(context, await useSignature(context, caller), playerId);
  return [
    route({
      method: 'DELETE',
      url: `${GAME_SESSIONS_PATH}/:id`,
      schema: endSessionSchema(),
      authenticate: (request) =>
        authenticateV3Caller(context, request, PhpArray.from([['id', request.params.id]])),
      async handler(request, reply, caller) {
        const { id } = request.params;
        const client = await useSignature(context, caller);
        // v2 sessions are found by their data.id too: one id space for both.
        const session = isSessionId(id) ? await findSessionById(context.db, id) : undefined;
        if (session?.clientId !== client.id) {
          throw ApiError.of('not_found', `No GameSession ${gameSessionIri(id.slice(0, 64))}`);
        }
        await endSession(write, context.db, id, 'integrator', context.clock());
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    }),
    route({
      method: 'DELETE',
      url: `${PLAYERS_PATH}/:playerId/sessions`,
      schema: endPlayerSessionsSchema(),
      authenticate,
      async handler(request, reply, caller) {
        const player = await playerFor(caller, request.params.playerId);
        const ended = await endPlayerSessions(write, context.db, player.id, 'integrator', context.clock());
        return sendDocument(reply, 200, { meta: { revokedSessions: ended } });
      },
    }),
    route({
      method: 'PUT',
      url: `${PLAYERS_PATH}/:playerId/block`,
      schema: blockSchema(),
      bodyTypes: ['json'],
      authenticate,
      async handler(request, reply, caller) {
        const { playerId } = request.params;
        const client = await useSignature(context, caller);
        const now = context.clock();
        const { warnings, ...block } = readBlockDocument(request.body, now, playerId);
        const player = await controlledPlayerOrThrow(context, client, playerId);
        const ended = await blockPlayer(write, context.db, player.id, block, now);
        const blocked = { ...player, block: { since: now.toISOString(), ...block } };
        const meta = { revokedSessions: ended, ...(warnings.length > 0 ? { warnings } : {}) };
        return sendDocument(reply, 200, toPlayerBlockDocument(blocked, now, meta));
      },
    }),
    route({
      method: 'GET',
      url: `${PLAYERS_PATH}/:playerId/block`,
      schema: playerBlockSchema(),
      authenticate,
      async handler(request, reply, caller) {
        const player = await playerFor(caller, request.params.playerId);
        return sendDocument(reply, 200, toPlayerBlockDocument(player, context.clock()));
      },
    }),
    route({
      method: 'DELETE',
      url: `${PLAYERS_PATH}/:playerId/block`,
      schema: unblockSchema(),
      authenticate,
      async handler(request, reply, caller) {
        const player = await playerFor(caller, request.params.playerId);
        await unblockPlayer(write, context.db, player.id, context.clock());
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    }),
  ];
}

/** Beside `client`, the only parameters a player route takes: the replay fields (docs/integration.md). */
const OWN_QUERY = new Set(['client', 'ts', 'nonce']);
const OWN_BODY_MEMBERS = new Set(['ts', 'nonce']);

/**
 * A player route takes `client` and the replay fields in its query, and in its body a block's document
 * (PUT) or the replay fields alone; anything else is refused before the signature is checked. The API's
 * signature signs values, not names or routes, so with other parameters taken and signed, an ordinary v2
 * launch of a player (`authType`, `lang`, `nick`, `userId`), sent again with its values in the query,
 * carried the sign of lifting that player's block or ending its sessions (docs/design.md §11).
 */
function assertOwnParameters(request: RouteRequest<'/:playerId'>): void {
  const query = Object.keys(request.query).some((name) => !OWN_QUERY.has(name));
  const body =
    request.method !== 'PUT' &&
    isPlainObject(request.body) &&
    Object.keys(request.body).some((name) => !OWN_BODY_MEMBERS.has(name));
  if (query || body) {
    throw ApiError.of('bad_request', OWN_PARAMETERS_ONLY);
  }
}

/** The client's player named by the path, checked like a launch's userId (as a lookup); else 422 or 404. */
async function controlledPlayerOrThrow(
  context: AppContext,
  client: Client,
  playerId: string,
): Promise<ControlledPlayer> {
  const checked = USER_ID_LOOKUP.parse(playerId, 'playerId');
  if (!checked.ok) throw ApiError.of(checked.issue.code, checked.issue.detail);
  const player = await findControlledPlayer(context.db, client, checked.value);
  if (!player) throw ApiError.of('player_not_found', 'Player not found');
  return player;
}
