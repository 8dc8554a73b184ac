import type { Dialect } from '../bench-options.js';
import type { BenchStore } from './bench-store.js';
import { createPostgresStore } from './postgres-store.js';
import { createSqliteStore } from './sqlite-store.js';

export function createStore(dialect: Dialect, postgresUrl: string | undefined): Promise<BenchStore> {
  if (dialect === 'sqlite') return createSqliteStore();
  if (!postgresUrl) throw new Error('PostgreSQL needs a server URL');
  return createPostgresStore(postgresUrl);
}
