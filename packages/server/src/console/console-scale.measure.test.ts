import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { insertClient } from '../clients/client.repository.js';
import { dialectOf } from '../db/dialect-of.js';
import { generateSessionId } from '../sessions/token.js';
import { addTestOperator, consoleClient } from '../test-support/console-client.js';
import { useHarness } from '../test-support/harness.js';
import { testClient } from '../test-support/test-client.js';
import { DIALECTS } from '../test-support/test-database.js';
import { insertWebhookEndpoint } from '../webhooks/webhook-endpoint.repository.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-event.js';

/**
 * A measurement, not a test (docs/performance.md, "The console on a large store"): the audit log, the
 * clients pages and a client's activity on a store of 200,000 audit records, 5,000 clients (an endpoint
 * each) and 200,000 launch attempts of one client, each page fetched three times,
 * with the longest the event loop was held meanwhile. Printed; it asserts only that each page answers.
 * Run: MEASURE_CONSOLE=1 npx vitest run packages/server/src/console/console-scale.measure.test.ts
 */
const AUDIT_RECORDS = 200_000;
const CLIENTS = 5_000;
const ATTEMPTS = 200_000;

describe.skipIf(!process.env.MEASURE_CONSOLE).each(DIALECTS)('the console on a large %s store', (dialect) => {
  const h = useHarness(dialect);

  it('prints how long the audit log and clients pages take', async () => {
    const db = h().db;
    const start = Date.now() - AUDIT_RECORDS * 1000;
    const ids: string[] = [];
    for (let first = 0; first < AUDIT_RECORDS; first += 2000) {
      const rows = [];
      for (let i = first; i < Math.min(first + 2000, AUDIT_RECORDS); i++) {
        const at = new Date(start + i * 1000);
        const id = generateSessionId(at);
        ids.push(id);
        const client = i % 100 === 0;
        rows.push({
          id,
          at: at.toISOString(),
          actor_via: 'cli',
          actor_name: 'ops',
          actor_address: 'host-1',
          action: client ? 'client.update' : 'setting.change',
          target: client ? `client-${i % CLIENTS}` : 'NickMaxLength',
          details: JSON.stringify({ values: { NickMaxLength: String(20 + (i % 10)) } }),
        });
      }
      await db.insertInto('audit_log').values(rows).execute();
    }
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < CLIENTS; i++) {
        const id = `client-${String(i).padStart(5, '0')}`;
        await insertClient(trx, testClient(new Date(), { id, secretKey: `secret-${i}` }));
        // An endpoint of every client, taking every event.
        await insertWebhookEndpoint(trx, {
          id: `ep_${String(i).padStart(24, '0')}`,
          clientId: id,
          url: `https://hooks.example/${id}`,
          secret: `whsec_${i}`,
          previousSecret: undefined,
          eventTypes: [...WEBHOOK_EVENT_TYPES],
          enabled: true,
          disabledReason: null,
          createdAt: new Date().toISOString(),
        });
      }
    });
    // One busy client's launch attempts, a second apart, the newest now; one request id to find.
    const attemptsStart = Date.now() - ATTEMPTS * 1000;
    let quoted = '';
    for (let first = 0; first < ATTEMPTS; first += 2000) {
      const rows = [];
      for (let i = first; i < Math.min(first + 2000, ATTEMPTS); i++) {
        const at = new Date(attemptsStart + i * 1000);
        const requestId = randomUUID();
        if (i === ATTEMPTS - 50_000) quoted = requestId;
        rows.push({
          id: generateSessionId(at),
          at: at.toISOString(),
          client_id: 'client-02500',
          api_version: 'v2',
          status: 200,
          error_code: null,
          errors: null,
          hints: null,
          player_id: `p-${i % 1000}`,
          request_id: requestId,
        });
      }
      await db.insertInto('launch_activity').values(rows).execute();
    }
    if (dialectOf(db) === 'postgres') await sql`analyze`.execute(db);
    await addTestOperator(db, 'alice', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const newestFirst = ids.slice().reverse();
    const pages: [string, string][] = [
      ['audit log, first page', '/console/audit'],
      ['audit log, 2,000 pages deep', `/console/audit?page=2001&before=${newestFirst[100_000 - 1]}`],
      ['audit log, the last page', `/console/audit?page=4000&before=${newestFirst[AUDIT_RECORDS - 11]}`],
      ['audit log, a search (2,000 of 200,000)', '/console/audit?q=client.update'],
      [
        'audit log, a search, 20 pages deep',
        `/console/audit?q=client.update&page=21&before=${newestFirst[100_000 - 1]}`,
      ],
      ['clients, first page', '/console/clients'],
      ['clients, 50 pages deep', '/console/clients?page=51&before=client-02499'],
      ['clients, a search (111 of 5,000)', '/console/clients?q=client-04'],
      ["a client's webhook endpoints (5,000 endpoints in all)", '/console/clients/client-02500/webhooks'],
      ["a client's activity, first page (200,000 attempts)", '/console/clients/client-02500/activity'],
      [
        "a client's activity, a request id 50,000 attempts back",
        `/console/clients/client-02500/activity?request=${quoted}`,
      ],
      [
        "a client's activity, a request id it does not have (100,000 read)",
        `/console/clients/client-02500/activity?request=${randomUUID()}`,
      ],
    ];
    const lines: string[] = [];
    for (const [label, url] of pages) {
      const times: number[] = [];
      const held: number[] = [];
      for (let run = 0; run < 3; run++) {
        let last = performance.now();
        let longest = 0;
        const ticks = setInterval(() => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
        }, 5);
        const began = performance.now();
        const page = await browser.get(url);
        times.push(performance.now() - began);
        await new Promise((resolve) => setTimeout(resolve, 10));
        clearInterval(ticks);
        held.push(longest);
        expect(page.statusCode, url).toBe(200);
      }
      const range = (values: number[]) =>
        `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
      lines.push(`${dialect} | ${label} | ${range(times)} ms | event loop held ${range(held)} ms`);
    }
    console.log(lines.join('\n'));
  });
});
