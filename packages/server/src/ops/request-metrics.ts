import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Every response's duration, labelled by route pattern: `/apiweb/v3/game-sessions/:id`, never an id. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback, not an async function: every request runs it, and a promise per hook adds up.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestDuration.observe(
      {
        method: request.method,
        // Unknown paths share one series: a scan of random URLs must not create a series per URL.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
