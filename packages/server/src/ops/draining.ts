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
 * requests already running finish, and a new request on a connection still open gets a JSON:API 503
 * with `Connection: close`. Operational routes (`/livez`, `/readyz`, `/metrics`) answer as themselves.
 */
export function registerDraining(app: FastifyInstance, state: ServiceState): void {
  app.addHook('preClose', async () => {
    state.draining = true;
  });
  // A callback, not an async function: every request runs it, and a promise per hook adds up.
  app.addHook('onRequest', (request, reply, done) => {
    if (!state.draining || request.routeOptions.config.operational) return done();
    reply.header('connection', 'close');
    done(shuttingDown());
  });
}

export const shuttingDown = () =>
  serviceUnavailable('This instance is shutting down; retry the request', DRAINING_RETRY_AFTER_SECONDS);
