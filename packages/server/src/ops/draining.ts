import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serviceUnavailable } from '../http/api-error.js';

/** What the balancer should do with a request refused while this instance drains: retry elsewhere now. */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

/** Whether the instance is shutting down. */
export interface ServiceState {
  /**
   * `/readyz` answers 503: set at the signal, SHUTDOWN_DELAY before the drain (server.ts closeOnSignals),
   * by stopReadiness.
   */
  unready: boolean;
  /** Called once, when readiness turns 503 before a drain (the heartbeat records it for the console). */
  readonly onUnready: (() => void)[];
  /** Set once, when the app starts closing: requests other than operational ones get a 503. */
  draining: boolean;
}

/** A fresh state: ready, not draining. */
export function serviceState(): ServiceState {
  return { unready: false, draining: false, onUnready: [] };
}

/** `/readyz` answers 503 from now on; everything else is served as before (SHUTDOWN_DELAY). */
export function stopReadiness(state: ServiceState): void {
  if (state.unready) return;
  state.unready = true;
  for (const listener of state.onUnready) listener();
}

/**
 * From the moment the app starts closing (SIGTERM): `/readyz` answers 503 so balancers stop sending,
 * requests already running finish, and a new request on a connection still open gets a JSON:API 503.
 * Every response sent from then on, the in-flight ones included, carries `Connection: close`, so its
 * connection closes once it is written instead of idling until the keep-alive timeout (which would hold
 * the shutdown up to SHUTDOWN_TIMEOUT); connections idle when the close began are closed at once by
 * Node's `server.close()` (docs/design.md §10). Operational routes (`/livez`, `/readyz`, `/metrics`)
 * answer as themselves. The 503 itself is assertNotDraining, in the app's onRequest hook.
 */
export function registerDraining(app: FastifyInstance, state: ServiceState): void {
  app.addHook('preClose', async () => {
    state.unready = true;
    state.draining = true;
  });
  // A callback, not an async function: every request runs it, and a promise per hook adds up.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (state.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * The draining rule for a new request: a JSON:API 503 once the instance drains, but for operational
 * routes. Called by the app's onRequest hook (app.ts), which runs every request's first checks in one.
 */
export function assertNotDraining(request: FastifyRequest, state: ServiceState): void {
  if (state.draining && !request.routeOptions.config.operational) throw shuttingDown();
}

export const shuttingDown = () =>
  serviceUnavailable('This instance is shutting down; retry the request', DRAINING_RETRY_AFTER_SECONDS);
