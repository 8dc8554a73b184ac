import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseError, isDatabaseUnavailable } from './database-errors.js';

/** The error a real driver raises for `work`; fails the test if there is none. */
async function errorOf(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the driver to fail');
}

describe('isDatabaseUnavailable and isDatabaseError on SQLite errors', () => {
  it('call a database locked by another writer unavailable, and a bad statement only a database error', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-errors-'));
    const holder = new SQLite(join(folder, 'db.sqlite'));
    const waiter = new SQLite(join(folder, 'db.sqlite'));
    try {
      holder.exec('create table t (x integer)');
      waiter.pragma('busy_timeout = 0');
      holder.exec('begin immediate');
      const locked = await errorOf(() => waiter.exec('insert into t values (1)'));
      expect(locked).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(isDatabaseUnavailable(locked)).toBe(true);
      expect(isDatabaseError(locked)).toBe(true);

      const syntax = await errorOf(() => waiter.exec('selec 1'));
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      expect(isDatabaseError(syntax)).toBe(true);
    } finally {
      holder.close();
      waiter.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('call an error that is not the database neither', () => {
    for (const error of [new Error('boom'), new TypeError('x is undefined'), 'text', null, undefined]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(isDatabaseError(error)).toBe(false);
    }
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.runIf(postgresUrl)('isDatabaseUnavailable on PostgreSQL errors', () => {
  const url = postgresUrl ?? '';
  const withClient = async <T>(connectionString: string, work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  };

  it('calls a statement timeout, a terminated connection and a refused one unavailable', async () => {
    const timeout = await withClient(url, async (client) => {
      await client.query('set statement_timeout = 50');
      return errorOf(() => client.query('select pg_sleep(2)'));
    });
    expect(timeout).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(timeout)).toBe(true);

    const terminated = await withClient(url, (client) =>
      errorOf(() => client.query('select pg_terminate_backend(pg_backend_pid())')),
    );
    expect(terminated).toMatchObject({ code: '57P01' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);

    const noServer = new URL(url);
    noServer.port = '1';
    const refused = await errorOf(() => withClient(noServer.href, async () => undefined));
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it('calls a database that refuses connections unavailable, and a query error only a database error', async () => {
    const name = `poker_launch_errors_${process.pid}_${Date.now()}`;
    await withClient(url, (admin) => admin.query(`CREATE DATABASE ${name} WITH ALLOW_CONNECTIONS false`));
    try {
      const closed = new URL(url);
      closed.pathname = `/${name}`;
      const refused = await errorOf(() => withClient(closed.href, async () => undefined));
      expect(refused).toMatchObject({ severity: 'FATAL' });
      expect(isDatabaseUnavailable(refused)).toBe(true);
    } finally {
      await withClient(url, (admin) => admin.query(`DROP DATABASE ${name}`));
    }

    const syntax = await withClient(url, (client) => errorOf(() => client.query('selec 1')));
    expect(syntax).toMatchObject({ code: '42601' });
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(isDatabaseError(syntax)).toBe(true);
  });
});
