import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { AppContext } from '../../app-context.js';
import { CLIENT_ID_PATTERN } from '../../client-id.js';
import { ApiError } from '../../http/api-error.js';
import { sendDocument } from '../../http/json-api.js';
import { headerValue, type RouteDefinition, route } from '../../http/routes.js';
import { fieldsSchema, ref, SESSION_DOCUMENT, SIGNED } from '../../openapi/document-schemas.js';
import { errorResponses } from '../../openapi/error-responses.js';
import { authenticateClient } from '../../signature/authenticate-client.js';
import { REPLAY_QUERY_PROPERTIES } from '../../signature/replay-fields-schema.js';
import { isBeyondSafeIntegers, tooLargeIntegerDetail } from '../../validation/field-rules.js';
import { isNotSent, isPlainObject } from '../../validation/parse-fields.js';
import { checkAndLaunch } from '../check-and-launch.js';
import { USER_ID } from '../launch-fields.js';
import { onTheWire, v2SignedRequest } from '../signed-request.js';
import { toSessionDocument } from './session.serializer.js';
import { V2_CREATE_SESSION_ERRORS } from './v2-error-examples.js';
import {
  assertFlatParameters,
  parseV2Params,
  unknownParameterWarnings,
  V2_FIELDS,
  V2_POINTER_BASE,
  V2_POINTERS,
  v2Pointer,
} from './v2-params.js';

export const V2_CREATE_SESSION_URL = '/api/web/v2/app/users/:userId/session';

/** v2 create session: `POST /api/web/v2/app/users/{userId}/session?clientId=…`. */
export function v2Routes(context: AppContext): RouteDefinition[] {
  return [
    route({
      method: 'POST',
      url: V2_CREATE_SESSION_URL,
      bodyTypes: ['form', 'json'],
      bodyPointerBase: V2_POINTER_BASE,
      schema: {
        summary: 'Create session (v2)',
        description:
          'Registers or updates the player and creates a session; answers the URL that opens the target ' +
          '(gameCode). The body is a form (PHP-style nesting: launchOptions[restoreSessionUrl]=…) or a flat ' +
          'JSON object. Signed over the path userId and the body parameters; clientId is not signed.',
        tags: ['v2'],
        operationId: 'createSession',
        security: SIGNED,
        params: { type: 'object', required: ['userId'], properties: { userId: USER_ID.schema } },
        querystring: {
          type: 'object',
          required: ['clientId'],
          // ts and nonce may travel in the body too (docs/integration.md "Replay fields").
          properties: {
            clientId: { type: 'string', pattern: CLIENT_ID_PATTERN.source },
            ...REPLAY_QUERY_PROPERTIES,
          },
        },
        // Nothing is required in the body: userId travels in the path (the body may repeat it).
        body: fieldsSchema(V2_FIELDS),
        consumes: ['application/x-www-form-urlencoded', 'application/json', JSON_API_MEDIA_TYPE],
        produces: [JSON_API_MEDIA_TYPE],
        response: {
          200: { description: 'The session and the launch URL', ...ref(SESSION_DOCUMENT) },
          ...errorResponses(V2_CREATE_SESSION_ERRORS, {
            403: 'The player is blocked (player_blocked) until its block ends',
            500:
              'Business errors of the spec: "A Player with this username already exists in the system." ' +
              '(username_exists), "The maximum username length is X" (username_too_long); or an internal error',
          }),
        },
      },
      // Synchronous: nothing here waits (a promise fewer a launch, http/routes.ts's preHandler).
      authenticate(request) {
        const { userId } = request.params;
        const body = readBody(request.body);
        assertFlatParameters(body);
        assertSameUserId(body.userId, userId);
        // Its two fields passed by name, not spread into the literal (CopyDataProperties, 0.33 µs a launch, perf).
        const { wire, address } = onTheWire(request);
        const accepted = authenticateClient(
          context.live,
          context.config,
          v2SignedRequest({
            query: request.query,
            body,
            userId,
            received: headerValue(request, 'sign'),
            now: context.clock(),
            wire,
            address,
          }),
        );
        // Every field named, not `{ ...accepted, body }`: the spread made a new hidden class each launch, and the
        // handler's reads of it missed their caches (three IC misses a launch, --log-ic).
        const caller = { client: accepted.client, usedSignature: accepted.usedSignature, body };
        return { quota: `client:${accepted.client.id}`, caller };
      },
      async handler(request, reply, { client, usedSignature, body }) {
        const params = { ...request.query, ...body, userId: request.params.userId };
        const { result, warnings } = await checkAndLaunch(
          context,
          client,
          parseV2Params(params),
          V2_POINTERS,
          usedSignature,
        );
        return sendDocument(
          reply,
          200,
          toSessionDocument(result, [...unknownParameterWarnings(body), ...warnings]),
        );
      },
    }),
  ];
}

/**
 * The body may repeat the path's userId (docs/design.md §2), as text or a JSON number; anything else in
 * its place is refused before the signature is checked, like a different value.
 */
export function assertSameUserId(bodyUserId: unknown, pathUserId: string): void {
  if (isNotSent(bodyUserId)) return;
  if (typeof bodyUserId !== 'string' && typeof bodyUserId !== 'number') {
    throw ApiError.of('invalid_field', 'userId must be a string or an integer', {
      pointer: v2Pointer('userId'),
    });
  }
  // Read rounded, it would be reported as another id than the path's.
  if (isBeyondSafeIntegers(bodyUserId)) {
    throw ApiError.of('invalid_field', tooLargeIntegerDetail('userId'), { pointer: v2Pointer('userId') });
  }
  if (String(bodyUserId) !== pathUserId) {
    throw ApiError.of('user_id_mismatch', 'userId in the body does not match userId in the path', {
      pointer: v2Pointer('userId'),
    });
  }
}

/** A form body is already an object; a JSON body must be one (flat parameters, as the form would carry). */
export function readBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body))
    throw ApiError.of('bad_request', 'The request body must be a JSON object of parameters');
  return body;
}
