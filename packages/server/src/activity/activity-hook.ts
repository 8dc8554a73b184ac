import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/client.js';
import type { ActivityRecorder } from './activity-recorder.js';
import type { AttemptError, LaunchAttempt } from './launch-attempt.js';

/** The launch routes, by method and URL pattern, and the query parameter that names their client. */
const LAUNCH_ROUTES: ReadonlyMap<string, { apiVersion: 'v2' | 'v3'; clientParameter: string }> = new Map([
  ['POST /api/web/v2/app/users/:userId/session', { apiVersion: 'v2', clientParameter: 'clientId' }],
  ['POST /apiweb/v3/open-game', { apiVersion: 'v3', clientParameter: 'client' }],
]);

/** Kept short: a record is read by a person, and a hostile request must not fill the table. */
const MAX_TEXT = 300;
const MAX_ERRORS = 20;
const MAX_PLAYER_ID = 64;

/**
 * Records every answer of the launch routes, success or refusal, for the console's integration activity
 * page. Added to those routes alone as they are registered (call it before they are), as one `onSend`
 * hook: a success costs an object appended to an array; only a refusal's document is read again.
 * Attempts naming no client the service knows are not recorded (nobody's activity, and unbounded).
 */
export function recordLaunchAttempts(
  app: FastifyInstance,
  live: { client(id: string): Client | undefined },
  recorder: ActivityRecorder,
  now: () => number,
): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const launch = methods.length === 1 ? LAUNCH_ROUTES.get(`${methods[0]} ${route.url}`) : undefined;
    if (launch === undefined) return;
    const hook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: () => void) => {
      const clientId = (request.query as Record<string, unknown> | undefined)?.[launch.clientParameter];
      if (typeof clientId === 'string' && live.client(clientId) !== undefined) {
        recorder.record(attempt(request, reply, payload, launch.apiVersion, clientId, now()));
      }
      done();
    };
    const existing = route.onSend;
    route.onSend =
      existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
}

function attempt(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  apiVersion: 'v2' | 'v3',
  clientId: string,
  at: number,
): LaunchAttempt {
  const refused = reply.statusCode >= 400;
  const document = refused ? readDocument(payload) : undefined;
  return {
    at,
    clientId,
    apiVersion,
    status: reply.statusCode,
    errors: document?.errors ?? [],
    hints: document?.hints ?? [],
    playerId: playerIdOf(request, apiVersion),
    requestId: request.id,
  };
}

/** The integrator's player id as the request sent it: v2's path userId, v3's player.id. */
function playerIdOf(request: FastifyRequest, apiVersion: 'v2' | 'v3'): string | null {
  const id =
    apiVersion === 'v2'
      ? (request.params as Record<string, unknown> | undefined)?.userId
      : field(field(field(request.body, 'data'), 'attributes'), 'player');
  const value = apiVersion === 'v2' ? id : field(id, 'id');
  return typeof value === 'string' && value.length <= MAX_PLAYER_ID ? value : null;
}

/** The errors and staging hints of a JSON:API error document, as sent. */
function readDocument(payload: unknown): { errors: AttemptError[]; hints: string[] } | undefined {
  if (typeof payload !== 'string') return undefined;
  let document: unknown;
  try {
    document = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const errors = field(document, 'errors');
  const hints = field(field(field(document, 'meta'), 'signature'), 'hints');
  return {
    errors: (Array.isArray(errors) ? errors : []).slice(0, MAX_ERRORS).map((error) => ({
      code: text(field(error, 'code')) ?? 'unknown',
      pointer: text(field(field(error, 'source'), 'pointer')) ?? null,
      detail: text(field(error, 'detail')) ?? '',
    })),
    hints: (Array.isArray(hints) ? hints : [])
      .map((hint) => text(field(hint, 'detail')))
      .filter((hint) => hint !== undefined),
  };
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : undefined;
}
