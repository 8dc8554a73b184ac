import { createLaunchClient, hmacSignHeader, newNonce, sign, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** Identical requests in flight at once, spread over the instances. */
const IN_FLIGHT = 40;

interface Prepared {
  /** Path and query of the v2 create session. */
  target: string;
  body: string;
  sign: string;
}

/** A v2 create session as one integrator request, sent as often as the test likes, to any instance. */
function send(instance: ServeProcess, request: Prepared): Promise<{ status: number; code?: string }> {
  return fetch(`${instance.address}${request.target}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/vnd.api+json',
      sign: request.sign,
    },
    body: request.body,
  }).then(async (response) => {
    const document = (await response.json()) as { errors?: { code: string }[] };
    const code = document.errors?.[0]?.code;
    return { status: response.status, ...(code === undefined ? {} : { code }) };
  });
}

async function withReplayFields(clientId: string, secret: string, userId: string): Promise<Prepared> {
  const fields = { ts: String(unixSeconds()), nonce: newNonce() };
  const form = { nick: `N${userId}`.slice(0, 20), lang: 'en' };
  return {
    target: `/api/web/v2/app/users/${userId}/session?${new URLSearchParams({ clientId, ...fields })}`,
    body: new URLSearchParams(form).toString(),
    sign: await sign({ ...fields, ...form, userId }, secret),
  };
}

async function withHmac(clientId: string, secret: string, userId: string): Promise<Prepared> {
  const target = `/api/web/v2/app/users/${userId}/session?clientId=${clientId}`;
  const body = new URLSearchParams({ lang: 'en' }).toString();
  return { target, body, sign: await hmacSignHeader(secret, { method: 'POST', target, body }) };
}

/** Waits until `check` holds: a client change reaches every instance within a second. */
async function eventually(check: () => Promise<boolean>, seconds = 5): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DIALECTS)('replay protection across running instances on %s', (dialect) => {
  const database = useTempDatabase(dialect);

  it('one success among identical requests on two instances, none after a kill -9; SDK and CLI sign as the service checks', async () => {
    const instances: ServeProcess[] = [];
    try {
      instances.push(await runServe(database().url));
      instances.push(await runServe(database().url));
      const [a, b] = instances as [ServeProcess, ServeProcess];
      const { clientId, secret } = printedCredentials(a.stdout());
      const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
      const changed = await cli(
        'client',
        'update',
        clientId,
        '--replay-protection',
        'require',
        '--signature',
        'both',
      );
      expect(changed.code, changed.stderr).toBe(0);
      // The change reaches both running instances, each on its own.
      const bare = async () => ({
        target: `/api/web/v2/app/users/u-0/session?clientId=${clientId}`,
        body: 'lang=en',
        sign: await sign({ lang: 'en', userId: 'u-0' }, secret),
      });
      for (const instance of [a, b]) {
        await eventually(async () => (await send(instance, await bare())).code === 'replay_fields_required');
      }

      // Many identical requests in flight at once, on one instance, then on two: exactly one launches.
      for (const [label, spread, prepare] of [
        ['one instance, replay fields', [a], withReplayFields],
        ['two instances, replay fields', [a, b], withReplayFields],
        ['two instances, hmac', [a, b], withHmac],
      ] as const) {
        const request = await prepare(clientId, secret, `burst-${label.replace(/\W+/g, '-')}`);
        const answers = await Promise.all(
          Array.from({ length: IN_FLIGHT }, (_, index) =>
            send(spread[index % spread.length] as ServeProcess, request),
          ),
        );
        const outcomes = answers.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim());
        expect(
          outcomes.filter((outcome) => outcome === '200'),
          label,
        ).toHaveLength(1);
        // Every other answer refuses the replay; a failure names the answers that did not.
        expect(
          outcomes.filter((outcome) => outcome !== '200' && outcome !== '400 request_replayed'),
          label,
        ).toEqual([]);
      }

      // Accepted by A, which is then killed at once: B, and A started again, refuse the replay.
      const accepted = await withReplayFields(clientId, secret, 'before-the-crash');
      expect(await send(a, accepted)).toEqual({ status: 200 });
      await a.stop('SIGKILL');
      expect(await send(b, accepted)).toEqual({ status: 400, code: 'request_replayed' });
      const restarted = await runServe(database().url);
      instances.push(restarted);
      expect(await send(restarted, accepted)).toEqual({ status: 400, code: 'request_replayed' });

      // The SDK signs each request anew, both ways, and the service takes them.
      for (const signature of [{ replayFields: true }, { scheme: 'hmac' as const }]) {
        const client = createLaunchClient({ baseUrl: b.address, clientId, secretKey: secret, signature });
        const created = await client.createSession(`sdk-${JSON.stringify(signature).length}`, { lang: 'en' });
        expect(created.id).toMatch(/^[0-9a-f]{32}$/);
        const opened = await client.openGame({
          player: { id: `sdk-v3-${JSON.stringify(signature).length}` },
        });
        expect(opened.url).toContain('/play/');
      }
      // So does the CLI.
      const cliToB = (command: readonly string[], ...rest: string[]) =>
        cli(...command, '--url', b.address, '--client', clientId, '--secret', secret, ...rest);
      for (const flags of [['--replay-fields'], ['--scheme', 'hmac']]) {
        const created = await cliToB(['session', 'create'], ...flags, `cli-${flags.length}`);
        expect(created.code, created.stderr).toBe(0);
        const opened = await cliToB(['open-game'], ...flags, '--player-id', `cli-v3-${flags.length}`);
        expect(opened.code, opened.stderr).toBe(0);
      }
      // Without the fields, the CLI's request is refused with the code that says so.
      const refused = await cliToB(['session', 'create'], 'cli-bare');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('400 replay_fields_required');
    } finally {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL').catch(() => undefined)));
    }
  }, 240_000);
});
