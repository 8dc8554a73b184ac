import type pg from 'pg';
import type { Db } from '../schema.js';

/** The pool under each PostgreSQL database opened (openPostgres), for the fixed-text statements run on it directly. */
const pools = new WeakMap<Db, pg.Pool>();

export function keepPostgresPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** The PostgreSQL pool under `db` as opened; undefined on SQLite (or a Kysely made otherwise). */
export function postgresPoolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}
