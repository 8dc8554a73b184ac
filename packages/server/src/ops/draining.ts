import type { FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../http/api-error.js';

/** What the balancer should do with a request refused while this instance drains: retry elsewhere now. */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

/** Whether the instance is shutting down; set once, when the app starts closing. */
export interface ServiceState {
  draining: boolean;
}

/**
 * From the moment the app starts closing (SIGTERM): `/readyz` answers 503 so balancers stop sending,
 * requests already running finish, and a new request on a connection still open gets a JSON:API 503.
 * Every response sent from then on, the in-flight ones included, carries `Connection: close`, so its
 * connection closes once it is written instead of idling until the keep-alive timeout (which would hold
 * the shutdown up to SHUTDOWN_TIMEOUT); connections idle when the close began are closed at once by
 * Node's `server.close()` (docs/design.md §10). Operational routes (`/livez`, `/readyz`, `/metrics`)
 * answer as themselves.
 */
export function registerDraining(app: FastifyInstance, state: ServiceState): void {
  app.addHook('preClose', async () => {
    state.draining = true;
  });
  // Callbacks, not async functions: every request runs them, and a promise per hook adds up.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!state.draining || request.routeOptions.config.operational) return done();
    done(shuttingDown());
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (state.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

export const shuttingDown = () =>
  serviceUnavailable('This instance is shutting down; retry the request', DRAINING_RETRY_AFTER_SECONDS);
