import { byteSize, sendEach } from './http-send.js';
import { type BenchClient, JSON_API, type LoadRequest, type Scenario } from './scenario.js';
import { v2Params, v2Request } from './v2-scenario.js';

/**
 * Token API reads: one session per player created now through v2 (long-life, so a long run or a soak
 * never meets an expired token), then `GET /api/web/v2/app/session` with each auth token in turn.
 */
export async function prepareToken(
  serviceUrl: string,
  client: BenchClient,
  players: number,
): Promise<Scenario> {
  const launches = await Promise.all(
    Array.from({ length: players }, (_, index) =>
      v2Request(client, v2Params(index, { longLifeLoginToken: 'true' })),
    ),
  );
  const sessions = await sendEach(serviceUrl, launches, 200);
  const requests: LoadRequest[] = sessions.map((body) => ({
    method: 'GET',
    path: '/api/web/v2/app/session',
    headers: { accept: JSON_API, authorization: `Bearer ${authOf(body)}` },
  }));
  const bodies = await sendEach(serviceUrl, requests, 200);
  return { name: 'token', requests, status: 200, responseBytes: byteSize(bodies.at(-1) ?? '') };
}

function authOf(sessionDocument: string): string {
  const auth = (JSON.parse(sessionDocument) as { data?: { attributes?: { auth?: unknown } } }).data
    ?.attributes?.auth;
  if (typeof auth !== 'string')
    throw new Error(`a v2 answer without data.attributes.auth: ${sessionDocument}`);
  return auth;
}
