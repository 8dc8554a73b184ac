import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addWebhookEndpoint } from '../admin/webhook-admin.js';
import { createMetrics } from '../ops/metrics.js';
import { endSessionRequest } from '../test-support/control-requests.js';
import { outage } from '../test-support/database-outage.js';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { LOCAL_WEBHOOKS } from '../test-support/webhook-world.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { startExpiryScan } from './webhook-jobs.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('webhook deliveries while the database is unavailable on %s', (dialect) => {
  // No launch attempts recorded: their writes would queue before the deliverer's on SQLite's one writer.
  const h = useHarness(dialect, { ...LOCAL_WEBHOOKS, ACTIVITY_RECORDS: 'off' });
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // Launches' rows go out under the endpoint's lease; on SQLite, the revocations' (written by triggers)
  // are claimed row by row: both ways of holding rows meet the outage.
  it.each([
    ['launches', 'player.created,session.created'],
    ['revocations', 'session.revoked'],
  ])(
    'records the answers to %s received while it was away once it is back: none sent twice, none lost',
    async (what, events) => {
      await h().addClient();
      const seen: string[] = [];
      let answer: () => void = () => {};
      const answering = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const server: Server = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          seen.push(String(request.headers['webhook-id']));
          void answering.then(() => response.writeHead(204).end());
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const added = await addWebhookEndpoint(
        h().db,
        h().config,
        { clientId: 'demo', url, events },
        h().clock.now(),
      );
      if (!added.ok) throw new Error(added.reason);
      await h().refresh();
      // Ten events: a player.created and a session.created for each of five launches, or ten revocations.
      for (let index = 0; index < (what === 'launches' ? 5 : 10); index++) {
        const launched = await h().createSession(`u-${index}`);
        expect(launched.statusCode).toBe(200);
        if (what === 'revocations') {
          expect((await endSessionRequest(h(), launched.json().data.id)).statusCode).toBe(204);
        }
      }
      // The real clock: the endpoint's lease (4 × 5 s + 5 s) runs out in real time.
      const deliverer = new WebhookDeliverer({
        ...h(),
        log: h().app.log,
        clock: () => new Date(),
        metrics: createMetrics(),
        config: { ...h().config, webhookTimeoutMs: 5000 },
        pollMs: 50,
      });
      cleanups.push(() => deliverer.stop());
      deliverer.start();
      // All ten in flight, their answers held back.
      for (let waited = 0; seen.length < 10 && waited < 10_000; waited += 20) await sleep(20);
      expect(seen).toHaveLength(10);

      const away = await outage(h(), dialect);
      cleanups.push(away.back);
      answer();
      // Past SQLite's busy timeout: the first record fails on either dialect.
      await sleep(dialect === 'sqlite' ? 7500 : 1500);
      await away.back();

      let states: string[] = [];
      for (let waited = 0; waited < 20_000; waited += 100) {
        states = await h()
          .db.selectFrom('webhook_deliveries')
          .select('state')
          .execute()
          .then(
            (rows) => rows.map((row) => row.state),
            () => [],
          );
        if (states.length === 10 && states.every((state) => state === 'delivered')) break;
        await sleep(100);
      }
      expect(states).toEqual(Array.from({ length: 10 }, () => 'delivered'));
      // A second sending, had there been one, has had time to arrive.
      await sleep(500);
      expect(seen.length, `${seen.length - new Set(seen).size} sent twice`).toBe(10);
    },
    60_000,
  );

  // SQLite, locked for writes, still answers the deliverer's reads: only PostgreSQL refuses them.
  it.skipIf(dialect !== 'postgres')(
    'says once that it cannot look for deliveries, not at every poll, and once that it can again',
    async () => {
      await h().addClient();
      const added = await addWebhookEndpoint(
        h().db,
        h().config,
        { clientId: 'demo', url: 'http://127.0.0.1:9/hooks', events: 'session.created' },
        h().clock.now(),
      );
      if (!added.ok) throw new Error(added.reason);
      await h().refresh();
      const deliverer = new WebhookDeliverer({
        ...h(),
        log: h().app.log,
        clock: () => new Date(),
        metrics: createMetrics(),
        pollMs: 20,
      });
      cleanups.push(() => deliverer.stop());
      const said = (message: string) => h().said(message);
      const away = await outage(h(), dialect);
      cleanups.push(away.back);
      deliverer.start();
      // About fifty polls meet the outage.
      for (let waited = 0; said('could not look for webhook deliveries') === 0 && waited < 5000; waited += 20)
        await sleep(20);
      await sleep(1000);
      expect(said('could not look for webhook deliveries')).toBe(1);
      await away.back();
      for (
        let waited = 0;
        said('looking for webhook deliveries again') === 0 && waited < 10_000;
        waited += 50
      )
        await sleep(50);
      expect(said('looking for webhook deliveries again')).toBe(1);
      expect(said('could not look for webhook deliveries')).toBe(1);
    },
    60_000,
  );

  // Every 15 s on every instance: an outage of an hour left 240 warnings with their stacks.
  it.skipIf(dialect !== 'postgres')(
    'says once that the expiry scan fails, not at every scan, and once that it works again',
    async () => {
      const scan = startExpiryScan({ ...h(), clock: () => new Date() }, h().app.log, 20);
      cleanups.push(() => scan.stop());
      const said = (message: string) => h().said(message);
      const away = await outage(h(), dialect);
      cleanups.push(away.back);
      for (let waited = 0; said('webhook expiry scan failed') === 0 && waited < 5000; waited += 20)
        await sleep(20);
      // About fifty scans meet the outage.
      await sleep(1000);
      expect(said('webhook expiry scan failed')).toBe(1);
      await away.back();
      for (let waited = 0; said('webhook expiry scan works again') === 0 && waited < 10_000; waited += 50)
        await sleep(50);
      expect(said('webhook expiry scan works again')).toBe(1);
      expect(said('webhook expiry scan failed')).toBe(1);
    },
    60_000,
  );
});
