import { type Kysely, type Migration, sql } from '#kysely';

/**
 * What a client asks of its requests beyond the API's signature (docs/design.md §11): replay fields,
 * signature schemes, an address allow-list. The defaults are today's behaviour, so existing clients
 * keep working unchanged. The clients table already bumps the live configuration's version on any change.
 */
export const replayProtection: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    await db.schema
      .alterTable('clients')
      .addColumn('replay_protection', 'text', (c) =>
        c.notNull().defaultTo('off').check(sql`replay_protection in ('off', 'accept', 'require')`),
      )
      .execute();
    await db.schema
      .alterTable('clients')
      .addColumn('replay_window_seconds', 'integer', (c) =>
        c.notNull().defaultTo(300).check(sql`replay_window_seconds between 30 and 3600`),
      )
      .execute();
    await db.schema
      .alterTable('clients')
      .addColumn('signature_scheme', 'text', (c) =>
        c.notNull().defaultTo('legacy').check(sql`signature_scheme in ('legacy', 'hmac', 'both')`),
      )
      .execute();
    await db.schema
      .alterTable('clients')
      .addColumn('allowed_addresses', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
