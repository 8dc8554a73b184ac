import { readdir, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../server/src/test-support/webhook-receiver.js';
import { SENDER_NICE } from '../../../server/src/webhooks/send-jobs.js';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** Webhooks to the receiver on 127.0.0.1, retried every second (the default waits minutes). */
const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 30 }, () => '1').join(','),
};

/**
 * A killed instance's rows wait for their lease to end: four times WEBHOOK_TIMEOUT and 5 s, 17 s with
 * this instead of the default's 45 s. Still ample for a receiver on this machine to answer.
 */
const KILLED_INSTANCE_ENV = { ...WEBHOOK_ENV, WEBHOOK_TIMEOUT: '3' };

/** The nice value of each thread of a process, by thread id (Linux: the 19th field of its stat). */
async function threadNiceValues(pid: number): Promise<Map<number, number>> {
  const values = new Map<number, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue; // the thread ended while listed
    // After the command's ")" come the fields from the 3rd on: the nice value is the 19th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    values.set(Number(tid), Number(fields[19 - 3]));
  }
  return values;
}

describe.each(DIALECTS)('webhooks from running instances on %s', (kind) => {
  const database = useTempDatabase(kind);
  let instances: ServeProcess[] = [];
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
    await receiver?.stop();
  });

  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url, ...WEBHOOK_ENV });
  /** Launches on `instance` and logs out at once: a session.created and a session.logged_out event each. */
  const launchAndLogOut = async (
    instance: ServeProcess,
    credentials: { clientId: string; secret: string },
    userId: string,
  ) => {
    const created = await createSession(instance.address, credentials.clientId, credentials.secret, userId);
    expect(created.status).toBe(200);
    const logout = await fetch(`${instance.address}/api/web/v2/app/session`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${created.body.data.attributes.auth}` },
    });
    expect(logout.status).toBe(204);
  };
  const addEndpoint = async () => {
    receiver = await startWebhookReceiver();
    const added = await cli(
      'webhook',
      'add',
      'demo',
      receiver.url,
      '--events',
      'session.created,session.logged_out',
    );
    expect(added.code, added.stderr).toBe(0);
    const [id, secret] = added.stdout.trim().split('\n');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.secrets.push(secret ?? '');
    return { receiver, id: id ?? '' };
  };
  /** The states once every delivery is recorded delivered (the receiver answers before the record). */
  const allRecordedDelivered = async (count: number) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = await storedStates();
      if (states.length === count && states.every((state) => state === 'delivered')) return states;
      if (Date.now() > deadline) return states;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const storedStates = async () => {
    const stored = await database().open();
    try {
      return (await stored.db.selectFrom('webhook_deliveries').select('state').execute()).map(
        (row) => row.state,
      );
    } finally {
      await stored.close();
    }
  };

  it('delivers every event after the receiver was down (dropping every connection) and the instance was killed (SIGKILL) with deliveries pending', async () => {
    const first = await runServe(database().url, KILLED_INSTANCE_ENV);
    instances = [first];
    const credentials = printedCredentials(first.stdout());
    const { receiver } = await addEndpoint();
    receiver.down();
    for (let index = 0; index < 40; index++) await launchAndLogOut(first, credentials, `player-${index}`);
    // The receiver is down: every delivery fails and waits for its next attempt.
    const stored = await storedStates();
    expect(stored.filter((state) => state === 'pending')).toHaveLength(80);
    await first.stop('SIGKILL');

    receiver.up();
    instances = [await runServe(database().url, KILLED_INSTANCE_ENV)];
    // Rows the killed instance held stay its own until their lease ends (17 s): a generous deadline.
    const delivered = await receiver.waitForDelivered(80, 150_000);
    expect(new Set(delivered.map((webhook) => webhook.id)).size).toBe(80);
    expect(delivered.every((webhook) => webhook.verifiedWith.length === 1)).toBe(true);
    // Each session reported created (by the launch's own write) and logged out (by the trigger).
    const sessionsOf = (type: string) =>
      new Set(
        delivered
          .filter((webhook) => webhook.payload.type === type)
          .map((webhook) => webhook.payload.data.gameSessionId),
      );
    expect(sessionsOf('session.created').size).toBe(40);
    expect(sessionsOf('session.created')).toEqual(sessionsOf('session.logged_out'));
    expect(new Set(delivered.map((webhook) => webhook.payload.data.playerId)).size).toBe(40);
    expect(await allRecordedDelivered(80)).toEqual(Array.from({ length: 80 }, () => 'delivered'));
  }, 240_000);

  it('share the work between two instances on one database: each event delivered once', async () => {
    const first = await runServe(database().url, WEBHOOK_ENV);
    instances = [first, await runServe(database().url, WEBHOOK_ENV)];
    const credentials = printedCredentials(first.stdout());
    const { receiver } = await addEndpoint();
    await Promise.all(
      [0, 1].map(async (worker) => {
        for (let index = worker; index < 60; index += 2) {
          await launchAndLogOut(instances[index % 2] as ServeProcess, credentials, `player-${index}`);
        }
      }),
    );
    const delivered = await receiver.waitForDelivered(120, 60_000);
    // Let a second instance's duplicate, if there were one, arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ids = receiver.received.map((webhook) => webhook.id);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    expect(delivered.filter((webhook) => webhook.payload.type === 'session.created')).toHaveLength(60);
    expect(delivered.every((webhook) => webhook.verifiedWith.length === 1)).toBe(true);
    expect(await allRecordedDelivered(120)).toEqual(Array.from({ length: 120 }, () => 'delivered'));
  }, 120_000);

  it.runIf(process.platform === 'linux')(
    'runs the webhook sender thread, and it alone, at the lower priority (nice value SENDER_NICE)',
    async () => {
      const instance = await runServe(database().url, WEBHOOK_ENV);
      instances = [instance];
      const pid = instance.child.pid ?? 0;
      const mainNice = (await threadNiceValues(pid)).get(pid);
      expect(mainNice).toBeLessThan(SENDER_NICE);
      // The thread starts when the instance listens, and lowers its own priority as it starts.
      let niced: number[] = [];
      for (const deadline = Date.now() + 10_000; niced.length === 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        niced = [...(await threadNiceValues(pid)).values()].filter((nice) => nice !== mainNice);
      }
      expect(niced).toEqual([SENDER_NICE]);
    },
    60_000,
  );
});
