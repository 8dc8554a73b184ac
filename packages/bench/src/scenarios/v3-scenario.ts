import { type SignableParams, sign } from '@poker-launch/sdk';
import { byteSize, sendEach } from './http-send.js';
import { type BenchClient, JSON_API, type LoadRequest, playerNumber, type Scenario } from './scenario.js';

/** A signed v3 OpenGame document of the benchmark's player `index` (its own players, not v2's). */
async function v3Request(client: BenchClient, index: number): Promise<LoadRequest> {
  const number = playerNumber(index);
  const document = {
    data: {
      type: 'OpenGame',
      attributes: {
        session: { lang: 'en', authType: 'external' },
        player: { id: `bench-v3-${number}`, nick: `v3n${number}` },
      },
    },
  };
  return {
    method: 'POST',
    path: `/apiweb/v3/open-game?client=${encodeURIComponent(client.id)}`,
    headers: {
      'content-type': JSON_API,
      accept: JSON_API,
      sign: await sign(document as SignableParams, client.secret),
    },
    body: JSON.stringify(document),
  };
}

/** v3 open game of returning players, prepared like v2: each document sent once first. */
export async function prepareV3(serviceUrl: string, client: BenchClient, players: number): Promise<Scenario> {
  const requests = await Promise.all(Array.from({ length: players }, (_, index) => v3Request(client, index)));
  const bodies = await sendEach(serviceUrl, requests, 201);
  return { name: 'v3', requests, status: 201, responseBytes: byteSize(bodies.at(-1) ?? '') };
}
