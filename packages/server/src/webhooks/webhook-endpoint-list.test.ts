import { describe, expect, it } from 'vitest';
import { type KyselyPlugin, type QueryResult, sql, type UnknownRow } from '#kysely';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { planOf, recordingStatements } from '../test-support/query-plans.js';
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

  it("finds a client's endpoints by webhook_endpoints_client_id_idx, not by reading all 5,000", async () => {
    // 1,000 clients with 5 endpoints each, every endpoint taking every event.
    const now = h().clock.now().toISOString();
    const clients = Array.from({ length: 1000 }, (_, c) => `casino-${c}`);
    for (let start = 0; start < clients.length; start += 200) {
      await h()
        .db.insertInto('clients')
        .values(
          clients.slice(start, start + 200).map((id) => ({
            id,
            secret_key: `secret-of-${id}`,
            active: 1,
            currency_mandatory: 0,
            player_id_mode: 'external',
            url_poker: null,
            url_casino_lobby: null,
            url_casino: null,
            url_sport: null,
            frame_origins: '[]',
            previous_secret_key: null,
            previous_secret_until: null,
            replay_signed_not_before: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      const endpoints = clients
        .slice(start, start + 200)
        .flatMap((clientId) => [0, 1, 2, 3, 4].map((n) => ({ id: `ep_${clientId}_${n}`, clientId })));
      await h()
        .db.insertInto('webhook_endpoints')
        .values(
          endpoints.map(({ id, clientId }) => ({
            id,
            client_id: clientId,
            url: `https://hooks.example/${id}`,
            secret: 'whsec_x',
            previous_secret: null,
            previous_secret_until: null,
            enabled: 1,
            disabled_reason: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      for (const type of WEBHOOK_EVENT_TYPES) {
        await h()
          .db.insertInto('webhook_subscriptions')
          .values(endpoints.map(({ id }) => ({ endpoint_id: id, event_type: type })))
          .execute();
      }
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h().db);

    // The console's webhooks page of a client: the queries listWebhookEndpoints makes.
    const recording = recordingStatements(h().db);
    expect(await listWebhookEndpoints(recording.db, 'casino-500')).toHaveLength(5);
    const statements = recording.statements();
    // What the outbox triggers read for each session a client's disable ends (migration 009's
    // sessionEventInsert, with the trigger's row as parameters).
    statements.push(
      sql`select e.id from webhook_subscriptions s
          join webhook_endpoints e on e.id = s.endpoint_id and e.client_id = ${'casino-500'} and e.enabled = 1
          join clients c on c.id = ${'casino-500'}
          where s.event_type = ${'session.revoked'}`.compile(h().db),
    );
    // The endpoints, their subscriptions, which of them are failing (endpoint-health.ts), the trigger's.
    expect(statements).toHaveLength(4);
    for (const statement of statements) {
      const plan = await planOf(h().db, dialect, statement);
      // The failing ones' read starts from the health rows (a few: PostgreSQL looks each endpoint up by
      // its key) or from the client's endpoints: either way not from all 5,000.
      if (!statement.sql.includes('webhook_endpoint_health'))
        expect(plan, statement.sql).toMatch(/webhook_endpoints_client_id_idx/);
      expect(plan, statement.sql).not.toMatch(/(SCAN webhook_endpoints|Seq Scan on webhook_endpoints)\b/);
    }
  });
});
