import type { FastifyInstance } from 'fastify';
import { histogramSeries, type Series } from './metric-series.js';
import type { Metrics } from './metrics.js';

/** Every response's duration, labelled by route pattern: `/apiweb/v3/game-sessions/:id`, never an id. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Each series made once (metric-series.ts: 6.5k instructions an observation through prom-client's
  // own path), found by method, route and status; all three come from small fixed sets.
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf = (method: string, route: string, status: number): Series => {
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
    return found;
  };
  // A callback, not an async function: every request runs it, and a promise per hook adds up.
  app.addHook('onResponse', (request, reply, done) => {
    seriesOf(
      request.method,
      // Unknown paths share one series: a scan of random URLs must not create a series per URL.
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
    ).add(reply.elapsedTime / 1000);
    done();
  });
}
