import autocannon from 'autocannon';
import type { LoadRequest } from '../scenarios/scenario.js';
import { percentile } from '../stats.js';

export interface LoadOptions {
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  readonly connections: number;
  /** Seconds. */
  readonly duration: number;
  /** Send exactly this many requests instead, however long they take. */
  readonly amount?: number | undefined;
  /** Requests per second in all, across the connections (undefined or 0: as fast as answered). */
  readonly rate?: number | undefined;
  /** Seconds a request may wait for its answer before it counts as an error (default 30). */
  readonly requestTimeout?: number | undefined;
}

/** What one load run measured. Latencies in milliseconds, of successful answers only. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly answered: number;
  /** Answers with a status outside 2xx. */
  readonly non2xx: number;
  /** Connection errors and timeouts: requests that got no answer. */
  readonly errors: number;
  readonly statusCounts: Readonly<Record<string, number>>;
}

/**
 * Runs autocannon in this process (one thread) against `url`. Every connection cycles through all the
 * requests, each starting at its own offset, so that at any moment the connections send for
 * different players, as independent integrators would.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { requests, connections } = options;
  const latencies: number[] = [];
  let nextClient = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections,
        ...(options.amount === undefined ? { duration: options.duration } : { amount: options.amount }),
        timeout: options.requestTimeout ?? 30,
        ...(options.rate ? { overallRate: options.rate } : {}),
        // Results come on a sample tick: ticks of 100 ms end the run within 100 ms of `duration`.
        sampleInt: 100,
        requests: [toAutocannon(requests[0] as LoadRequest)],
        setupClient(client) {
          const offset = Math.floor((nextClient++ * requests.length) / connections);
          client.setRequests(rotate(requests, offset).map(toAutocannon));
        },
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        resolve({
          requestsPerSecond: result.requests.total / result.duration,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          answered: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          statusCounts: Object.fromEntries(
            Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
          ),
        });
      },
    );
    // autocannon's own histogram counts whole milliseconds; bare Fastify answers in less than one.
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}

function rotate<T>(items: readonly T[], offset: number): T[] {
  const start = offset % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

function toAutocannon(request: LoadRequest): autocannon.Request {
  return {
    method: request.method,
    path: request.path,
    headers: { ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.renew === undefined
      ? {}
      : {
          // Rebuilt before every send; otherwise autocannon sends the bytes it built once.
          setupRequest: (built: autocannon.Request) => {
            const { headers, body } = (request.renew as NonNullable<LoadRequest['renew']>)();
            return { ...built, headers: { ...headers }, body };
          },
        }),
  };
}
