import type { AppContext } from '../app-context.js';
import { serviceUnavailable } from '../http/api-error.js';
import { sendDocument } from '../http/json-api.js';
import type { RouteDefinition } from '../http/routes.js';
import { databaseProbe } from './database-probe.js';
import { shuttingDown } from './draining.js';

export const LIVEZ_URL = '/livez';
export const READYZ_URL = '/readyz';

/** How soon a balancer may ask again after a failed readiness probe. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

/**
 * Health for balancers and orchestrators. `/livez`: the process answers (restart it if not). `/readyz`:
 * send it traffic: the database answers, the last write committed (a failed one is retried by a probe
 * write, write-health.ts) and the instance is not shutting down. Neither writes while writes succeed.
 */
export function healthRoutes(context: AppContext): RouteDefinition[] {
  const databaseAnswers = databaseProbe(context.db);
  return [
    {
      method: 'GET',
      url: LIVEZ_URL,
      operational: true,
      handler: async (_request, reply) => sendDocument(reply, 200, { meta: { status: 'live' } }),
    },
    {
      method: 'GET',
      url: READYZ_URL,
      operational: true,
      async handler(_request, reply) {
        if (context.state.unready) throw shuttingDown();
        // Counted like a request that met an unavailable database: once the balancers stop sending
        // traffic, the probes are all that meets an outage (docs/operations.md, Metrics and alerts).
        if (!(await databaseAnswers())) {
          context.metrics.databaseErrors.inc({ kind: 'unavailable' });
          throw serviceUnavailable('The database does not answer', NOT_READY_RETRY_AFTER_SECONDS);
        }
        if (!(await context.writeHealth.canCommit())) {
          context.metrics.databaseErrors.inc({ kind: 'unavailable' });
          throw serviceUnavailable('The database does not take writes', NOT_READY_RETRY_AFTER_SECONDS);
        }
        // Checked again: the instance may have been signalled while the database was asked.
        if (context.state.unready) throw shuttingDown();
        return sendDocument(reply, 200, { meta: { status: 'ready' } });
      },
    },
  ];
}
