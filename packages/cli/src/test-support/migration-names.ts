import { sql } from 'kysely';
import type { TempDatabase } from './temp-database.js';

/**
 * Every migration this version applies, in order, as the service records them: written out here, not
 * read from the server's list, so that the tests that expect them check that list.
 */
export const MIGRATIONS = [
  '001_initial_schema',
  '002_live_config_and_session_writer',
  '003_session_purge_indexes',
  '004_previous_secret',
  '005_cheaper_write_batch',
  '009_session_control_and_webhooks',
  '010_console',
  '012_launch_write_records',
  '013_api_user_clients',
  '015_api_user_and_erasure',
  '016_block_waits_for_launches',
  '017_replay_protection',
  '018_smaller_launch_write',
  '019_one_session_insert_per_batch',
  '020_endpoint_delivery_leases',
  '021_one_outbox_insert_per_batch',
  '022_compact_outbox_entries',
  '023_replay_signed_not_before',
  '024_launch_activity_minutes',
  '025_failed_deliveries_index',
  '026_concurrent_first_launch_nick',
  '027_blocked_while_first_launch',
  '028_logout_while_live',
  '029_redelivered_at',
  '030_webhook_endpoints_client_index',
  '031_sessions_player_index',
  '032_webhook_endpoint_health',
  '033_instance_version_address',
  '034_audit_log_target_index',
] as const;

/** Records a migration this version does not know, as a later version that migrated the store would. */
export async function recordLaterVersionMigration(database: TempDatabase): Promise<void> {
  const store = await database.open();
  try {
    await sql`insert into kysely_migration (name, timestamp) values ('999_later_version', '2030-01-01T00:00:00.000Z')`.execute(
      store.db,
    );
  } finally {
    await store.close();
  }
}
