import { sign } from '@poker-launch/sdk';
import { byteSize, sendEach } from './http-send.js';
import { type BenchClient, JSON_API, type LoadRequest, playerNumber, type Scenario } from './scenario.js';

/** The v2 body of the benchmark's player `index`: a returning player, same nick every time. */
export function v2Params(index: number, extra: Record<string, string> = {}): Record<string, string> {
  const number = playerNumber(index);
  return { userId: `bench-v2-${number}`, nick: `v2n${number}`, lang: 'en', authType: 'external', ...extra };
}

/** A signed v2 create-session request, as an integrator sends it: form body, `sign` header. */
export async function v2Request(client: BenchClient, params: Record<string, string>): Promise<LoadRequest> {
  const userId = params.userId ?? '';
  return {
    method: 'POST',
    path: `/api/web/v2/app/users/${encodeURIComponent(userId)}/session?clientId=${encodeURIComponent(client.id)}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: JSON_API,
      sign: await sign(params, client.secret),
    },
    body: new URLSearchParams(params).toString(),
  };
}

/**
 * v2 create session of returning players: one signed body per player, each sent once now so every
 * player exists; under load each request creates a new session for a known player.
 */
export async function prepareV2(serviceUrl: string, client: BenchClient, players: number): Promise<Scenario> {
  const requests = await Promise.all(
    Array.from({ length: players }, (_, index) => v2Request(client, v2Params(index))),
  );
  const bodies = await sendEach(serviceUrl, requests, 200);
  return { name: 'v2', requests, status: 200, responseBytes: byteSize(bodies.at(-1) ?? '') };
}
