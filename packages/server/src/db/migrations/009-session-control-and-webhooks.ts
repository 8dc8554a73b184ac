import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';
import { webhookIdSql } from '../webhook-id-sql.js';

/** Webhook tables every instance keeps in memory (the endpoints and what they subscribe to). */
const LIVE_WEBHOOK_TABLES = ['webhook_endpoints', 'webhook_subscriptions'] as const;

/**
 * Session control and webhooks (docs/design.md §11):
 * - players: a block (since when, until when or for good, why), read by the launch write with the player;
 * - sessions: when its token was first used, and why it was revoked (null: the player's logout);
 * - webhook endpoints per client, the event types each takes, and the outbox of deliveries;
 * - triggers that write the outbox row of a session's end or first use and of a block, in the very
 *   statement that makes the change, whoever makes it (the service, the CLI, hand-written SQL);
 * - the watermark of the expiry scan, which reports sessions that reached their expiry.
 */
export function sessionControlAndWebhooks(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['blocked_at', 'blocked_until', 'block_reason']) {
        await db.schema.alterTable('players').addColumn(column, 'text').execute();
      }
      for (const column of ['opened_at', 'revoke_reason']) {
        await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
      }
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('endpoint_id', 'text', (c) =>
          c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
        )
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['endpoint_id', 'event_type'])
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) =>
          c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('player_id', 'text')
        .addColumn('session_id', 'text')
        .addColumn('game_session_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('block_until', 'text')
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('claimed_by', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('delivered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // What the deliverer looks for: only pending rows are in it, so it stays as small as the backlog.
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'next_attempt_at'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();
      // The rows a claim took, read back by the claim's id: only claimed rows are in it.
      await db.schema
        .createIndex('webhook_deliveries_claim_idx')
        .on('webhook_deliveries')
        .column('claimed_by')
        .where(sql.ref('claimed_by'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint_idx')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'id'])
        .execute();
      await db.schema
        .createTable('webhook_expiry_scan')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        // Null until the first scan, which only sets it: sessions that expired before there were
        // webhooks are never reported.
        .addColumn('scanned_until', 'text')
        .execute();
      await sql`insert into webhook_expiry_scan (id, scanned_until) values (1, null)`.execute(db);
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);
    },
  };
}

/** Who a session's player is to the integrator: its own id, or ours in internal player-id mode. */
const PLAYER_ID = "case when c.player_id_mode = 'internal' then p.id else p.external_id end";

/**
 * One outbox row per enabled endpoint of the session's client that takes `type`. `row` is the
 * trigger's row name (`new`); `at` the SQL of the moment the event reports.
 */
function sessionEventInsert(dialect: Dialect, type: string, at: string, reason: string): string {
  return `insert into webhook_deliveries (id, endpoint_id, client_id, event_type, occurred_at, player_id,
      session_id, game_session_id, reason, next_attempt_at, created_at)
    select ${webhookIdSql(dialect)}, e.id, new.client_id, s.event_type, ${at}, ${PLAYER_ID},
      new.external_session_id, new.id, ${reason}, ${at}, ${at}
    from webhook_subscriptions s
    join webhook_endpoints e on e.id = s.endpoint_id and e.client_id = new.client_id and e.enabled = 1
    join clients c on c.id = new.client_id
    join players p on p.id = new.player_id
    where s.event_type = ${type}`;
}

function playerEventInsert(dialect: Dialect, type: string, at: string, until: string): string {
  return `insert into webhook_deliveries (id, endpoint_id, client_id, event_type, occurred_at, player_id,
      block_until, next_attempt_at, created_at)
    select ${webhookIdSql(dialect)}, e.id, new.client_id, s.event_type, ${at},
      case when c.player_id_mode = 'internal' then new.id else new.external_id end, ${until}, ${at}, ${at}
    from webhook_subscriptions s
    join webhook_endpoints e on e.id = s.endpoint_id and e.client_id = new.client_id and e.enabled = 1
    join clients c on c.id = new.client_id
    where s.event_type = ${type}`;
}

const ENDED_TYPE = "case when new.revoke_reason is null then 'session.logged_out' else 'session.revoked' end";

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    `create trigger sessions_end_reports_webhook after update of revoked_at on sessions
       when old.revoked_at is null and new.revoked_at is not null
     begin ${sessionEventInsert('sqlite', ENDED_TYPE, 'new.revoked_at', 'new.revoke_reason')}; end`,
    `create trigger sessions_first_use_reports_webhook after update of opened_at on sessions
       when old.opened_at is null and new.opened_at is not null
     begin ${sessionEventInsert('sqlite', "'session.opened'", 'new.opened_at', 'null')}; end`,
    `create trigger players_block_reports_webhook after update of blocked_at, blocked_until on players
       when new.blocked_at is not null
     begin ${playerEventInsert('sqlite', "'player.blocked'", 'new.blocked_at', 'new.blocked_until')}; end`,
    `create trigger players_unblock_reports_webhook after update of blocked_at on players
       when old.blocked_at is not null and new.blocked_at is null
     begin ${playerEventInsert('sqlite', "'player.unblocked'", 'new.updated_at', 'null')}; end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
  for (const table of LIVE_WEBHOOK_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger ${table}_${event}_bumps_config_version after ${event} on ${table} ` +
            'begin update config_version set version = version + 1; end',
        )
        .execute(db);
    }
  }
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const functions: [name: string, table: string, when: string, columns: string, insert: string][] = [
    [
      'poker_launch_session_end_webhook',
      'sessions',
      'old.revoked_at is null and new.revoked_at is not null',
      'revoked_at',
      sessionEventInsert('postgres', ENDED_TYPE, 'new.revoked_at', 'new.revoke_reason'),
    ],
    [
      'poker_launch_session_first_use_webhook',
      'sessions',
      'old.opened_at is null and new.opened_at is not null',
      'opened_at',
      sessionEventInsert('postgres', "'session.opened'", 'new.opened_at', 'null'),
    ],
    [
      'poker_launch_player_block_webhook',
      'players',
      'new.blocked_at is not null',
      'blocked_at, blocked_until',
      playerEventInsert('postgres', "'player.blocked'", 'new.blocked_at', 'new.blocked_until'),
    ],
    [
      'poker_launch_player_unblock_webhook',
      'players',
      'old.blocked_at is not null and new.blocked_at is null',
      'blocked_at',
      playerEventInsert('postgres', "'player.unblocked'", 'new.updated_at', 'null'),
    ],
  ];
  for (const [name, table, when, columns, insert] of functions) {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql set search_path from current as $$
         begin ${insert}; return null; end $$`,
      )
      .execute(db);
    // Row triggers that fire only for an update naming these columns: a launch's insert or profile
    // update never runs them.
    await sql
      .raw(
        `create trigger ${name} after update of ${columns} on ${table} for each row
           when (${when}) execute function ${name}()`,
      )
      .execute(db);
  }
  for (const table of LIVE_WEBHOOK_TABLES) {
    await sql
      .raw(
        `create trigger ${table}_bumps_config_version after insert or update or delete or truncate ` +
          `on ${table} for each statement execute function poker_launch_bump_config_version()`,
      )
      .execute(db);
  }
}
