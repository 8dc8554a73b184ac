import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { unauthorized } from '../http/api-error.js';
import { parseBearer } from '../http/bearer.js';
import type { RouteDefinition } from '../http/routes.js';

export const METRICS_URL = '/metrics';

/** Prometheus text format for scrapers; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export function metricsRoutes(context: AppContext): RouteDefinition[] {
  const { metricsToken } = context.config;
  const expected = metricsToken === undefined ? undefined : sha256(metricsToken);
  return [
    {
      method: 'GET',
      url: METRICS_URL,
      operational: true,
      async handler(request, reply) {
        if (expected !== undefined) {
          const presented = parseBearer(request.headers.authorization);
          // Hashes of equal length, compared in constant time: neither the token nor its length leaks.
          if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
            throw unauthorized(
              'The metrics need Authorization: Bearer <METRICS_TOKEN>',
              'Bearer realm="metrics"',
            );
          }
        }
        const { registry } = context.metrics;
        const text = await registry.metrics();
        return reply.code(200).type(registry.contentType).header('cache-control', 'no-store').send(text);
      },
    },
  ];
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
