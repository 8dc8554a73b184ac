import type { Kysely, Migration } from '#kysely';

export const initialSchema: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret_key', 'text')
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('currency_mandatory', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('player_id_mode', 'text', (c) => c.notNull().defaultTo('external'))
      .addColumn('url_poker', 'text')
      .addColumn('url_casino_lobby', 'text')
      .addColumn('url_casino', 'text')
      .addColumn('url_sport', 'text')
      .addColumn('frame_origins', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('players')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('nick', 'text')
      .addColumn('nick_key', 'text')
      .addColumn('name', 'text')
      .addColumn('email', 'text')
      .addColumn('referred_by', 'text')
      .addColumn('referral_code', 'text')
      .addColumn('bonus_code', 'text')
      .addColumn('avatar', 'integer')
      .addColumn('phone_number', 'text')
      .addColumn('tag', 'text')
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('verified', 'integer', (c) => c.notNull())
      .addColumn('trusted_level', 'integer')
      .addColumn('currency', 'text')
      .addColumn('preferred_currency', 'text')
      .addColumn('country', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('players_client_external_unique', ['client_id', 'external_id'])
      .execute();
    // Usernames are unique across the deployment; the index, not a read-then-write, decides races.
    await db.schema
      .createIndex('players_nick_key_unique')
      .on('players')
      .column('nick_key')
      .unique()
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
      .addColumn('player_id', 'text', (c) => c.notNull().references('players.id'))
      .addColumn('external_session_id', 'text', (c) => c.notNull())
      .addColumn('api_version', 'text', (c) => c.notNull())
      .addColumn('game_code', 'text', (c) => c.notNull())
      .addColumn('table_id', 'integer')
      .addColumn('game_id', 'text')
      .addColumn('auth_type', 'text', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('currency', 'text')
      .addColumn('launch_options', 'text')
      .addColumn('long_life', 'integer', (c) => c.notNull())
      .addColumn('user_ip', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('sessions_player_idx').on('sessions').column('player_id').execute();

    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('active_currencies')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .execute();

    await db.schema
      .createTable('api_users')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text')
      .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
  },
};
