import { type Kysely, type Migration, Migrator } from '#kysely';
import type { Dialect } from './dialect.js';
import { initialSchema } from './migrations/001-initial-schema.js';
import { liveConfigAndSessionWriter } from './migrations/002-live-config-and-session-writer.js';
import { sessionPurgeIndexes } from './migrations/003-session-purge-indexes.js';
import { previousSecret } from './migrations/004-previous-secret.js';
import { cheaperWriteBatch } from './migrations/005-cheaper-write-batch.js';
import { sessionControlAndWebhooks } from './migrations/009-session-control-and-webhooks.js';
import { consoleTables } from './migrations/010-console.js';
import { launchWriteRecords } from './migrations/012-launch-write-records.js';
import { apiUserClients } from './migrations/013-api-user-clients.js';
import { apiUserAndErasure } from './migrations/015-api-user-and-erasure.js';
import { blockWaitsForLaunches } from './migrations/016-block-waits-for-launches.js';
import { replayProtection } from './migrations/017-replay-protection.js';
import { smallerLaunchWrite } from './migrations/018-smaller-launch-write.js';
import { oneSessionInsertPerBatch } from './migrations/019-one-session-insert-per-batch.js';
import { endpointDeliveryLeases } from './migrations/020-endpoint-delivery-leases.js';
import { oneOutboxInsertPerBatch } from './migrations/021-one-outbox-insert-per-batch.js';
import { compactOutboxEntries } from './migrations/022-compact-outbox-entries.js';
import { replaySignedNotBefore } from './migrations/023-replay-signed-not-before.js';
import { launchActivityMinutes } from './migrations/024-launch-activity-minutes.js';
import { failedDeliveriesIndex } from './migrations/025-failed-deliveries-index.js';
import { concurrentFirstLaunchNick } from './migrations/026-concurrent-first-launch-nick.js';
import { blockedWhileFirstLaunch } from './migrations/027-blocked-while-first-launch.js';
import { logoutWhileLive } from './migrations/028-logout-while-live.js';
import { redeliveredAt } from './migrations/029-redelivered-at.js';
import { webhookEndpointsClientIndex } from './migrations/030-webhook-endpoints-client-index.js';
import { sessionsPlayerIndex } from './migrations/031-sessions-player-index.js';
import { webhookEndpointHealth } from './migrations/032-webhook-endpoint-health.js';
import { instanceVersionAddress } from './migrations/033-instance-version-address.js';
import { auditLogTargetIndex } from './migrations/034-audit-log-target-index.js';

/** Migrations in order. Names sort as they apply; never rename or edit one that has shipped. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_initial_schema': initialSchema,
    '002_live_config_and_session_writer': liveConfigAndSessionWriter(dialect),
    '003_session_purge_indexes': sessionPurgeIndexes,
    '004_previous_secret': previousSecret,
    '005_cheaper_write_batch': cheaperWriteBatch,
    '009_session_control_and_webhooks': sessionControlAndWebhooks(dialect),
    '010_console': consoleTables(dialect),
    '012_launch_write_records': launchWriteRecords(dialect),
    '013_api_user_clients': apiUserClients(dialect),
    '015_api_user_and_erasure': apiUserAndErasure,
    '016_block_waits_for_launches': blockWaitsForLaunches(dialect),
    '017_replay_protection': replayProtection,
    '018_smaller_launch_write': smallerLaunchWrite(dialect),
    '019_one_session_insert_per_batch': oneSessionInsertPerBatch(dialect),
    '020_endpoint_delivery_leases': endpointDeliveryLeases(dialect),
    '021_one_outbox_insert_per_batch': oneOutboxInsertPerBatch(dialect),
    '022_compact_outbox_entries': compactOutboxEntries(dialect),
    '023_replay_signed_not_before': replaySignedNotBefore,
    '024_launch_activity_minutes': launchActivityMinutes(dialect),
    '025_failed_deliveries_index': failedDeliveriesIndex,
    '026_concurrent_first_launch_nick': concurrentFirstLaunchNick(dialect),
    '027_blocked_while_first_launch': blockedWhileFirstLaunch(dialect),
    '028_logout_while_live': logoutWhileLive(dialect),
    '029_redelivered_at': redeliveredAt,
    '030_webhook_endpoints_client_index': webhookEndpointsClientIndex,
    '031_sessions_player_index': sessionsPlayerIndex(dialect),
    '032_webhook_endpoint_health': webhookEndpointHealth,
    '033_instance_version_address': instanceVersionAddress,
    '034_audit_log_target_index': auditLogTargetIndex,
  };
}

/** The names of every migration this version knows, in the order they apply. */
export function migrationNames(dialect: Dialect): string[] {
  return Object.keys(migrations(dialect));
}

/** One migration and whether this database has it. */
export interface MigrationState {
  readonly name: string;
  /** When it was applied; undefined: pending. */
  readonly appliedAt: Date | undefined;
  /** Applied by a later version: this one does not know it (docs/operations.md, "Upgrades and migrations"). */
  readonly newer?: true;
}

/**
 * Applies the pending migrations and returns their names (empty when the schema was up to date). On
 * PostgreSQL, Kysely's migrator holds an advisory lock meanwhile, so instances starting together on an
 * empty database migrate it once: the others wait, then find nothing pending. On SQLite the caller holds
 * the write lock instead (sqlite/sqlite-migrate.ts).
 *
 * @param schema PostgreSQL: the schema the tables live in. Named, because without it Kysely takes a
 * migration table in ANY schema of the database (another app's, a parallel test's) for ours.
 */
export async function migrateToLatest<T>(
  db: Kysely<T>,
  dialect: Dialect,
  schema?: string,
): Promise<string[]> {
  const { error, results = [] } = await migrator(db, dialect, schema).migrateToLatest();
  if (error) {
    // Kysely calls a migration it does not know "corrupted migrations"; a later version's is the usual one.
    const newer = await newerMigrations(db, dialect, schema).catch(() => []);
    if (newer.length > 0) throw new Error(schemaAheadMessage(newer));
    throw error;
  }
  return results.map((result) => result.migrationName);
}

/** What `migrate` and `serve` say of a database a later version migrated, with what to do. */
export function schemaAheadMessage(newer: readonly MigrationState[]): string {
  const names = newer.map((migration) => migration.name).join(', ');
  return (
    `the database schema is newer than this version: it has migrations this version does not know (${names}), ` +
    "a later version's (or another application's in the same schema), so this one migrates nothing; run " +
    'the later version, or start this one with MIGRATE_ON_START=false (docs/operations.md, "Upgrades and migrations")'
  );
}

/** Every migration this version knows, in order, applied or pending, then those a later version applied. */
export async function migrationStatus<T>(
  db: Kysely<T>,
  dialect: Dialect,
  schema?: string,
): Promise<MigrationState[]> {
  const known = (await migrator(db, dialect, schema).getMigrations()).map(({ name, executedAt }) => ({
    name,
    appliedAt: executedAt,
  }));
  // No migration applied: there may be no migration table to read yet.
  if (known.every((migration) => migration.appliedAt === undefined)) return known;
  return [...known, ...(await newerMigrations(db, dialect, schema))];
}

/** The migrations this database has that this version does not know: a later version applied them. */
async function newerMigrations<T>(
  db: Kysely<T>,
  dialect: Dialect,
  schema: string | undefined,
): Promise<MigrationState[]> {
  const known = new Set(migrationNames(dialect));
  const tables = db as unknown as Kysely<{ kysely_migration: { name: string; timestamp: string } }>;
  const rows = await (schema === undefined ? tables : tables.withSchema(schema))
    .selectFrom('kysely_migration')
    .select(['name', 'timestamp'])
    .orderBy('name')
    .execute();
  return rows
    .filter(({ name }) => !known.has(name))
    .map(({ name, timestamp }) => ({ name, appliedAt: new Date(timestamp), newer: true }));
}

function migrator<T>(db: Kysely<T>, dialect: Dialect, schema: string | undefined): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** What an operator reads when a command or `serve` finds migrations pending, with what to do. */
export function schemaBehindMessage(pending: readonly MigrationState[]): string {
  // A few are named; many (a schema never migrated) as a span, which `migrate --status` lists in full.
  const names =
    pending.length <= 3
      ? pending.map((migration) => migration.name).join(', ')
      : `${pending.length} migrations, ${pending[0]?.name} to ${pending.at(-1)?.name}; ` +
        '"poker-launch migrate --status" lists them';
  return `the database schema is behind this version (pending: ${names}); run "poker-launch migrate" first`;
}
