import type { FastifyInstance } from 'fastify';
import { type ObserveRequest, UNMATCHED_ROUTE } from '../http/observe-request.js';
import { histogramSeries, type Series } from './metric-series.js';
import type { Metrics } from './metrics.js';

/**
 * The request histogram's observer, labelled by route pattern: `/apiweb/v3/game-sessions/:id`, never an
 * id. Used by every answer, those given before any route included (http/protocol-errors.ts).
 */
export function requestObserver(metrics: Metrics): ObserveRequest {
  // Each series made once (metric-series.ts: 6.5k instructions an observation through prom-client's
  // own path), found by method, route and status; all three come from small fixed sets.
  const series = new Map<string, Map<string, Map<number, Series>>>();
  return (method, route, status, seconds) => {
    let routes = series.get(method);
    if (routes === undefined) {
      routes = new Map();
      series.set(method, routes);
    }
    let statuses = routes.get(route);
    if (statuses === undefined) {
      statuses = new Map();
      routes.set(route, statuses);
    }
    let found = statuses.get(status);
    if (found === undefined) {
      found = histogramSeries(metrics.requestDuration, { method, route, status: String(status) });
      statuses.set(status, found);
    }
    found.add(seconds);
  };
}

/** Every routed response's duration (answers given before routing are observed where they are written). */
export function registerRequestMetrics(app: FastifyInstance, observe: ObserveRequest): void {
  // A callback, not an async function: every request runs it, and a promise per hook adds up.
  app.addHook('onResponse', (request, reply, done) => {
    observe(
      request.method,
      // Unknown paths share one series: a scan of random URLs must not create a series per URL.
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
