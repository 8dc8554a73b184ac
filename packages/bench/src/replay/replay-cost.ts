import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { signedText } from '@poker-launch/sdk';
import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import { type PairedRow, pairedRow } from '../modes/paired-row.js';
import type { ServiceUnderTest } from '../modes/service-under-test.js';
import { POKER_LAUNCH_BIN } from '../processes/service-process.js';
import { sendEach } from '../scenarios/http-send.js';
import {
  type BenchClient,
  JSON_API,
  type LoadRequest,
  playerNumber,
  type Scenario,
} from '../scenarios/scenario.js';
import { v2Params } from '../scenarios/v2-scenario.js';

const run = promisify(execFile);
/** The client whose launches must carry a signed `ts` and `nonce`, each signature accepted once. */
export const REPLAY_CLIENT_ID = 'bench-replay';

/**
 * The `v2-replay` scenario: v2 launches of a client with `--replay-protection require`, every request
 * signed anew as it is sent (the current `ts`, a `nonce` never used before), against plain v2 launches of
 * the `bench` client on the same service, alternated round by round; ratio = with ÷ without. Each launch
 * of the protected client also records its signature as used, in the launch's own transaction.
 */
export async function runReplayCost(
  options: BenchOptions,
  dialect: Dialect,
  under: ServiceUnderTest,
  plain: Scenario,
  progress: (line: string) => void,
): Promise<PairedRow> {
  progress(`${dialect}: preparing v2-replay (client ${REPLAY_CLIENT_ID}, replay protection required)…`);
  const client = await addReplayClient(under.databaseUrl);
  const requests = Array.from({ length: options.players }, (_, index) => replayRequest(client, index));
  // Each player once, so that under load every launch is a returning player's, as in plain v2.
  await sendEach(under.service.url, requests.map(renewed), 200);
  progress(`${dialect} v2-replay: ${options.rounds} rounds of ${options.duration} s per target`);
  const summaries = await alternate(
    [
      { label: 'v2', url: under.service.url, requests: plain.requests, pid: under.service.pid },
      { label: 'v2 + replay protection', url: under.service.url, requests, pid: under.service.pid },
    ],
    options,
    progress,
  );
  return pairedRow('v2-replay', dialect, options.connections, 0, summaries);
}

/** A nonce no request of this run has used: a random prefix per process, then a counter. */
const NONCE_PREFIX = randomBytes(9).toString('base64url');
let nonceCount = 0;

/**
 * The launch of player `index` as an integrator with replay protection sends it: `ts` and `nonce` among
 * the signed form parameters. `renew` signs it again with the time and a fresh nonce each time it is
 * sent (synchronously, with the SDK's signed text: the load generator must not wait on a promise).
 */
export function replayRequest(client: BenchClient, index: number): LoadRequest {
  const number = playerNumber(index);
  const params = v2Params(index, { userId: `bench-v2r-${number}`, nick: `v2r${number}` });
  const renew = () => {
    const signed = {
      ...params,
      ts: String(Math.floor(Date.now() / 1000)),
      nonce: `${NONCE_PREFIX}-${(nonceCount++).toString(36).padStart(8, '0')}`,
    };
    return {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: JSON_API,
        sign: createHash('sha256').update(signedText(signed, client.secret), 'utf8').digest('hex'),
      },
      body: new URLSearchParams(signed).toString(),
    };
  };
  return {
    method: 'POST',
    path: `/api/web/v2/app/users/${encodeURIComponent(params.userId ?? '')}/session?clientId=${REPLAY_CLIENT_ID}`,
    ...renew(),
    renew,
  };
}

/** The request as it would be sent now: signed anew. */
function renewed(request: LoadRequest): LoadRequest {
  return request.renew ? { ...request, ...request.renew() } : request;
}

/** The client, added with the operator CLI while the service runs (it sees it within a second). */
async function addReplayClient(databaseUrl: string): Promise<BenchClient> {
  const client = { id: REPLAY_CLIENT_ID, secret: randomBytes(32).toString('hex') };
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
  await run(
    process.execPath,
    [
      POKER_LAUNCH_BIN,
      'client',
      'add',
      client.id,
      '--secret',
      client.secret,
      '--replay-protection',
      'require',
    ],
    { env },
  );
  await sleep(1500);
  return client;
}
