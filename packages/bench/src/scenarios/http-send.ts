import type { LoadRequest } from './scenario.js';

export interface SentResponse {
  readonly status: number;
  readonly body: string;
}

export async function send(baseUrl: string, request: LoadRequest): Promise<SentResponse> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Sends every request once, a few at a time, and returns the answers' bodies in order. Any other
 * status than `status` stops the benchmark: speed measured on refused requests would mean nothing.
 */
export async function sendEach(
  baseUrl: string,
  requests: readonly LoadRequest[],
  status: number,
  concurrency = 16,
): Promise<string[]> {
  const bodies: string[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const request = requests[index] as LoadRequest;
      const answer = await send(baseUrl, request);
      if (answer.status !== status) {
        throw new Error(
          `${request.method} ${request.path} answered ${answer.status}, not ${status}: ${answer.body.slice(0, 500)}`,
        );
      }
      bodies[index] = answer.body;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return bodies;
}

/** Byte size of an answer body, which is what bare Fastify must match. */
export function byteSize(body: string): number {
  return Buffer.byteLength(body);
}
