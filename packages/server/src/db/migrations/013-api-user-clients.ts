import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';

/**
 * The clients an API key may act for (docs/design.md §11): one row per user and client. Part of the live
 * configuration, like `api_users`: a trigger bumps `config_version` on every change, so a binding made
 * or removed applies on every instance within a second.
 */
export function apiUserClients(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_user_clients')
        .addColumn('user_name', 'text', (c) => c.notNull().references('api_users.name'))
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addPrimaryKeyConstraint('api_user_clients_pk', ['user_name', 'client_id'])
        .execute();
      if (dialect === 'sqlite') {
        for (const event of ['insert', 'update', 'delete']) {
          await sql
            .raw(
              `create trigger api_user_clients_${event}_bumps_config_version after ${event} ` +
                'on api_user_clients begin update config_version set version = version + 1; end',
            )
            .execute(db);
        }
        return;
      }
      await sql
        .raw(
          'create trigger api_user_clients_bumps_config_version after insert or update or delete or truncate ' +
            'on api_user_clients for each statement execute function poker_launch_bump_config_version()',
        )
        .execute(db);
    },
  };
}
