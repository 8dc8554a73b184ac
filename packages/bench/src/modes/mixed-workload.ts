import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SignableParams, sign } from '@poker-launch/sdk';
import { operatorCli, operatorEnvironment } from '../processes/operator-cli.js';
import { POKER_LAUNCH_BIN } from '../processes/service-process.js';
import { send, sendEach } from '../scenarios/http-send.js';
import { type BenchClient, JSON_API, type LoadRequest, playerNumber } from '../scenarios/scenario.js';
import { prepareToken } from '../scenarios/token-scenario.js';
import { prepareV2, v2Params, v2Request } from '../scenarios/v2-scenario.js';
import { prepareV3 } from '../scenarios/v3-scenario.js';
import type { ReceiverProcess } from '../webhooks/receiver-process.js';

/** The client whose events go to three endpoints: one answering 204, one 500, one never. */
export const MIXED_HOOKS_CLIENT = 'bench-mixed-hooks';
const REPLAY_CLIENT = 'bench-mixed-replay';
const OPERATOR = 'bench-operator';
const EVENTS = 'session.created,session.revoked,player.blocked,player.unblocked';

/** The mixed soak's requests, cycled in this order by every connection from its own offset. */
export interface MixedWorkload {
  readonly requests: readonly LoadRequest[];
  /** How many of the cycle are of each kind, for the report. */
  readonly kinds: Readonly<Record<string, number>>;
  /** What the service answered to the first request of each kind, sent once before the load. */
  readonly firstAnswers: Readonly<Record<string, number>>;
}

/**
 * Sets up everything the mixed soak needs on the running service, with the operator CLI as an operator
 * would (clients, endpoints, an API user, a console operator), signs in to the console, and builds one
 * cycle of requests: per player, a v2 launch, a launch of the client with endpoints, a v3 launch (signed)
 * and one with the API key, a token read, that player's sessions ended, a block and its lifting, a console
 * page, and refusals (a wrong signature, an unknown client, a replayed signature, unknown paths, a wrong
 * console password for a new username each time).
 */
export async function prepareMixedWorkload(
  serviceUrl: string,
  databaseUrl: string,
  client: BenchClient,
  receiver: ReceiverProcess,
  players: number,
  progress: (line: string) => void,
): Promise<MixedWorkload> {
  const env = operatorEnvironment(databaseUrl, { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  const cli = operatorCli(env);
  const hooks = { id: MIXED_HOOKS_CLIENT, secret: randomBytes(32).toString('hex') };
  const replay = { id: REPLAY_CLIENT, secret: randomBytes(32).toString('hex') };
  await cli('client', 'add', hooks.id, '--secret', hooks.secret);
  const base = receiver.url.replace(/\/hooks$/, '');
  for (const path of ['hooks', 'fail', 'hang']) {
    await cli('webhook', 'add', hooks.id, `${base}/${path}`, '--events', EVENTS);
  }
  await cli('client', 'add', replay.id, '--secret', replay.secret, '--replay-protection', 'require');
  const apiKey = (
    await cli('user', 'add', 'bench-api', '--permission', 'CREATE:OpenGame', '--client', client.id)
  ).stdout.trim();
  const password = randomBytes(16).toString('hex');
  await operatorAdd(env, password);
  // Clients and endpoints reach the service's live configuration within a second.
  await sleep(1500);

  progress('  mixed: preparing v2, v3, token and the webhook client’s players…');
  const v2 = await prepareV2(serviceUrl, client, players);
  const v3 = await prepareV3(serviceUrl, client, players);
  const token = await prepareToken(serviceUrl, client, players);
  const hookLaunches = await Promise.all(
    Array.from({ length: players }, (_, index) => {
      const number = playerNumber(index);
      return v2Request(hooks, v2Params(index, { userId: `bench-mh-${number}`, nick: `mh${number}` }));
    }),
  );
  await sendEach(serviceUrl, hookLaunches, 200);
  const cookie = await signIn(serviceUrl, password);

  const requests: LoadRequest[] = [];
  const kinds: Record<string, number> = {};
  const firsts: Record<string, LoadRequest> = {};
  const add = (kind: string, request: LoadRequest) => {
    requests.push(request);
    firsts[kind] ??= request;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  };
  const badSign = await v2Request({ id: client.id, secret: 'f'.repeat(64) }, v2Params(0));
  const unknownClient = await v2Request({ id: 'bench-nobody', secret: client.secret }, v2Params(0));
  const replayed = await v2Request(
    replay,
    // A player of its own: a nick another player has is v2's 500 username_exists (docs/integration.md).
    v2Params(0, {
      userId: 'bench-mr-0000001',
      nick: 'mr0000001',
      ts: String(Math.floor(Date.now() / 1000)),
      nonce: randomBytes(12).toString('hex'),
    }),
  );
  const consolePages = ['/console', '/console/players', '/console/clients', `/console/players?q=bench`];
  for (let index = 0; index < players; index++) {
    const player = `bench-mh-${playerNumber(index)}`;
    add('v2', v2.requests[index] as LoadRequest);
    add('v2 with 3 endpoints', hookLaunches[index] as LoadRequest);
    add('v3 signed', v3.requests[index] as LoadRequest);
    add('v3 API key', apiKeyRequest(v3.requests[index] as LoadRequest, apiKey));
    add('token read', token.requests[index] as LoadRequest);
    add('end sessions', await controlRequest(hooks, 'DELETE', player, 'sessions'));
    add('block', await controlRequest(hooks, 'PUT', player, 'block'));
    add('unblock', await controlRequest(hooks, 'DELETE', player, 'block'));
    add('console page', {
      method: 'GET',
      path: consolePages[index % consolePages.length] as string,
      headers: { cookie, accept: 'text/html' },
    });
    add('refused: bad signature', badSign);
    add('refused: unknown client', unknownClient);
    add('refused: replayed', replayed);
    add('refused: unknown path', {
      method: 'GET',
      path: `/api/web/v2/app/nothing-${randomBytes(6).toString('hex')}`,
      headers: { accept: JSON_API },
    });
    add('refused: wrong sign-in', wrongSignIn(serviceUrl));
  }
  const firstAnswers: Record<string, number> = {};
  for (const [kind, request] of Object.entries(firsts)) {
    const answer = await send(serviceUrl, renewed(request));
    firstAnswers[kind] = answer.status;
    if (answer.status >= 500) {
      throw new Error(`mixed: ${kind} answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    }
  }
  return { requests, kinds, firstAnswers };
}

function renewed(request: LoadRequest): LoadRequest {
  return request.renew ? { ...request, ...request.renew() } : request;
}

/** The v3 document as sent signed, with the API user's key instead of the signature. */
function apiKeyRequest(signed: LoadRequest, key: string): LoadRequest {
  const { sign: _signature, ...headers } = signed.headers;
  return { ...signed, headers: { ...headers, authorization: `Bearer ${key}` } };
}

/** Session control (docs/design.md §11): the path's playerId is signed, and a block's body with it. */
async function controlRequest(
  client: BenchClient,
  method: 'DELETE' | 'PUT',
  playerId: string,
  what: 'sessions' | 'block',
): Promise<LoadRequest> {
  const document = method === 'PUT' ? { data: { type: 'PlayerBlock', attributes: {} } } : undefined;
  const params = { ...(document ?? {}), playerId } as SignableParams;
  return {
    method: method as LoadRequest['method'],
    path: `/apiweb/v3/players/${encodeURIComponent(playerId)}/${what}?client=${encodeURIComponent(client.id)}`,
    headers: {
      accept: JSON_API,
      sign: await sign(params, client.secret),
      ...(document ? { 'content-type': JSON_API } : {}),
    },
    ...(document ? { body: JSON.stringify(document) } : {}),
  };
}

/** A wrong password for a username never seen before, each time it is sent: the throttle's keys grow. */
function wrongSignIn(serviceUrl: string): LoadRequest {
  const body = () =>
    new URLSearchParams({
      username: `nobody-${randomBytes(6).toString('hex')}`,
      password: 'wrong',
    }).toString();
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'text/html',
    origin: serviceUrl,
  };
  return {
    method: 'POST',
    path: '/console/sign-in',
    headers,
    body: body(),
    renew: () => ({ headers, body: body() }),
  };
}

async function operatorAdd(env: NodeJS.ProcessEnv, password: string): Promise<void> {
  const child = spawn(process.execPath, [POKER_LAUNCH_BIN, 'operator', 'add', OPERATOR, '--role', 'admin'], {
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(`${password}\n`);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`operator add failed (${code}): ${stderr}`);
}

/** Signs the operator in and returns the Cookie header its console session needs. */
async function signIn(serviceUrl: string, password: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    // The console refuses a form that does not say it comes from the console's own origin.
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: serviceUrl },
    body: new URLSearchParams({ username: OPERATOR, password }).toString(),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('poker_launch_console='));
  if (response.status !== 303 || !cookie) {
    throw new Error(`console sign-in answered ${response.status}: ${await response.text()}`);
  }
  const pair = cookie.split(';')[0] as string;
  const page = await send(serviceUrl, { method: 'GET', path: '/console/players', headers: { cookie: pair } });
  if (page.status !== 200) throw new Error(`console page answered ${page.status} after sign-in`);
  return pair;
}
