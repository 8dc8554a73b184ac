import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';

/**
 * The operator console (docs/console.md): operator accounts and their console sessions, the failed
 * sign-ins that slow guessing down, the audit log of administrative changes, the record of launch
 * attempts integrators are helped with, and the instances that say they are alive. None of these
 * tables is part of the live configuration: a change to them bumps no config_version.
 */
export function consoleTables(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('operators')
        .addColumn('username', 'text', (c) => c.primaryKey())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_sign_in_at', 'text')
        .execute();

      await db.schema
        .createTable('operator_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().references('operators.username'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('address', 'text')
        .execute();
      await db.schema
        .createIndex('operator_sessions_username_idx')
        .on('operator_sessions')
        .column('username')
        .execute();

      // Keyed `account:<username>` or `address:<ip>`; a row is forgotten an hour after its last failure.
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failure_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_via', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('actor_address', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();

      // Every launch writes a row, so a row is one B-tree entry: the key is (client, id), and ids start with
      // their time (sessions/token.ts), so the key alone serves a client's attempts in time order, and, one
      // client after the other, the overview's last hour and the purge. On SQLite, WITHOUT ROWID: no
      // second B-tree for a rowid beside the key.
      await db.schema
        .createTable('launch_activity')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('api_version', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('errors', 'text')
        .addColumn('hints', 'text')
        .addColumn('player_id', 'text')
        .addColumn('request_id', 'text')
        .addPrimaryKeyConstraint('launch_activity_pk', ['client_id', 'id'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();

      // The console finds a player by the integrator's id across clients; only a new player's launch
      // writes to it (a returning player's launch does not), so the launch path barely pays for it.
      await db.schema.createIndex('players_external_id_idx').on('players').column('external_id').execute();

      await db.schema
        .createTable('instances')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .addColumn('draining', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
