import type { KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { insertWebhookEndpoint, listWebhookEndpoints } from './webhook-endpoint.repository.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-event.js';

describe.each(DIALECTS)("a client's webhook endpoints listed on %s", (dialect) => {
  const h = useHarness(dialect);

  it("reads that client's endpoints and their events only, not every endpoint's subscriptions", async () => {
    // A client's webhooks page read the subscriptions of every endpoint of every client: 46–75 ms on the
    // event loop at 5,000 endpoints (docs/performance.md, "The console on a large store").
    for (const clientId of ['casino-1', 'casino-2', 'casino-3']) {
      await h().addClient({ id: clientId, secretKey: `secret-of-${clientId}` });
      await insertWebhookEndpoint(h().db, {
        id: `ep_${clientId}`,
        clientId,
        url: `https://hooks.example/${clientId}`,
        secret: 'whsec_x',
        previousSecret: undefined,
        eventTypes: [...WEBHOOK_EVENT_TYPES],
        enabled: true,
        disabledReason: null,
        createdAt: h().clock.now().toISOString(),
      });
    }
    const read: UnknownRow[] = [];
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args): Promise<QueryResult<UnknownRow>> => {
        read.push(...args.result.rows);
        return args.result;
      },
    };
    const listed = await listWebhookEndpoints(h().db.withPlugin(counting), 'casino-2');
    expect(listed.map((endpoint) => [endpoint.id, endpoint.eventTypes])).toEqual([
      ['ep_casino-2', [...WEBHOOK_EVENT_TYPES].sort()],
    ]);
    expect(read.filter((row) => row.endpoint_id !== undefined && row.endpoint_id !== 'ep_casino-2')).toEqual(
      [],
    );
    expect(read).toHaveLength(1 + WEBHOOK_EVENT_TYPES.length);
    // Every client's, as the CLI's `webhook list` asks.
    expect((await listWebhookEndpoints(h().db)).map((endpoint) => endpoint.eventTypes.length)).toEqual([
      WEBHOOK_EVENT_TYPES.length,
      WEBHOOK_EVENT_TYPES.length,
      WEBHOOK_EVENT_TYPES.length,
    ]);
  });
});
