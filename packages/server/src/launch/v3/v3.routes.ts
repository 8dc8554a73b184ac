import { PhpArray } from '@poker-launch/sdk/php';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../http/api-error.js';
import { phpReading } from '../../http/body/php-reading.js';
import { sendDocument } from '../../http/json-api.js';
import { type RouteDefinition, route } from '../../http/routes.js';
import { integratorPlayerId } from '../../players/player.js';
import { findPlayerById } from '../../players/player.repository.js';
import { sessionState } from '../../sessions/session.js';
import { findSessionById } from '../../sessions/session.repository.js';
import { isSessionId } from '../../sessions/token.js';
import { recordUsedSignature } from '../../signature/used-signatures.js';
import { ROLE_ADMIN } from '../../users/api-user.js';
import { checkAndLaunch } from '../check-and-launch.js';
import {
  GAME_SESSIONS_PATH,
  gameSessionIri,
  toGameSessionDocument,
  toGameSessionStateDocument,
} from './game-session.serializer.js';
import { authenticateGameSessionReader, authenticateV3Caller } from './v3-access.js';
import {
  parseOpenGameAttributes,
  readOpenGameDocument,
  unknownAttributeWarnings,
  unknownQueryParameterWarnings,
} from './v3-document.js';
import { V3_POINTERS } from './v3-fields.js';
import { v3GameSessionSchema, v3OpenGameSchema } from './v3-schema.js';

/** The answer for a GameSession this caller cannot see, existing or not. */
const notFound = (id: string) =>
  ApiError.of('not_found', `No GameSession ${gameSessionIri(id.slice(0, 64))}`);

export const V3_OPEN_GAME_URL = '/apiweb/v3/open-game';

/** v3 open game, and reading back the GameSession it created. */
export function v3Routes(context: AppContext): RouteDefinition[] {
  return [
    route({
      method: 'POST',
      url: V3_OPEN_GAME_URL,
      schema: v3OpenGameSchema(),
      bodyTypes: ['json'],
      // Who is asking comes first: a caller without access learns nothing about the document's problems.
      // The signature covers the document as PHP's json_decode reads it (a list too; a scalar, nothing).
      authenticate: (request) => authenticateV3Caller(context, request, phpReading(request.body)),
      async handler(request, reply, { client, apiUser, usedSignature }) {
        const attributes = readOpenGameDocument(request.body);
        const parsed = parseOpenGameAttributes(attributes);
        // Who opened it, for the operators (GET on its IRI with an admin key, player show).
        if (parsed.request) parsed.request.apiUser = apiUser?.name;

        const { result, warnings } = await checkAndLaunch(
          context,
          client,
          parsed,
          V3_POINTERS,
          usedSignature,
        );
        reply.header('location', gameSessionIri(result.session.id));
        return sendDocument(
          reply,
          201,
          toGameSessionDocument(result, [
            ...unknownQueryParameterWarnings(request.query),
            ...unknownAttributeWarnings(attributes),
            ...warnings,
          ]),
        );
      },
    }),
    route({
      method: 'GET',
      url: `${GAME_SESSIONS_PATH}/:id`,
      schema: v3GameSessionSchema(),
      // The path id is a signed parameter (spec: query ∪ path ∪ body), so a sign is good for one session.
      authenticate: (request) =>
        authenticateGameSessionReader(context, request, PhpArray.from([['id', request.params.id]]), () =>
          notFound(request.params.id),
        ),
      async handler(request, reply, reader) {
        const { id } = request.params;
        await recordUsedSignature(context, reader.usedSignature);
        // Only a well-formed id is looked up: no other (a NUL, say) can name a session.
        const session = isSessionId(id) ? await findSessionById(context.db, id) : undefined;
        // Another client's session, or a v2 one, is not a GameSession this caller can see.
        if (session?.apiVersion !== 'v3' || !reader.mayRead(session.clientId)) throw notFound(id);
        const client = reader.client ?? context.live.client(session.clientId);
        const player = client && (await findPlayerById(context.db, client.id, session.playerId));
        if (!client || !player) throw notFound(id);
        const state = sessionState(session, context.clock());
        const playerId = integratorPlayerId(client, player);
        // Which API user opened it is for admins only (docs/design.md §8).
        const forAdmin = reader.apiUser?.role === ROLE_ADMIN;
        return sendDocument(reply, 200, toGameSessionStateDocument(session, playerId, state, forAdmin));
      },
    }),
  ];
}
