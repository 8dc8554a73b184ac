import { Writable } from 'node:stream';
import { type SignableParams, sign } from '@poker-launch/sdk';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp } from '../app.js';
import type { Client } from '../clients/client.js';
import { insertClient } from '../clients/client.repository.js';
import { type Config, loadConfig } from '../config.js';
import { activateCurrencies } from '../currencies/currency.repository.js';
import type { Database } from '../db/database.js';
import type { Db } from '../db/schema.js';
import type { SessionStore } from '../db/session-store.js';
import { LiveConfig } from '../live-config/live-config.js';
import { saveSetting } from '../settings/setting.repository.js';
import type { SettingName } from '../settings/settings.js';
import { testClient } from './test-client.js';
import { TestClock } from './test-clock.js';
import { createTestDatabase, type Dialect, dropFileDatabase } from './test-database.js';

export const PUBLIC_URL = 'https://poker.test';

export interface Harness {
  app: FastifyInstance;
  db: Db;
  sessions: SessionStore;
  clock: TestClock;
  config: Config;
  /** The configuration the app holds in memory. */
  live: LiveConfig;
  /** Every log line the app wrote. */
  logs(): string;
  /** How many log lines hold `text`: what a fault logs once, not at every try. */
  said(text: string): number;
  /**
   * Makes the app see a change written straight to the database (the helpers below call it). A real
   * instance polls for changes; the tests that prove that run real processes.
   */
  refresh(): Promise<void>;
  addClient(overrides?: Partial<Client>): Promise<Client>;
  setSetting(name: SettingName, value: string): Promise<void>;
  activateCurrencies(...codes: string[]): Promise<void>;
  /** POSTs v2 create session, signed with the client's secret unless `sign` is given. */
  createSession(
    userId: string,
    params?: Record<string, unknown>,
    options?: V2Options,
  ): Promise<LightMyRequestResponse>;
}

export interface V2Options {
  client?: Client;
  clientId?: string;
  sign?: string | null;
  format?: 'form' | 'json';
  headers?: Record<string, string>;
  /** Where the request comes from; default 127.0.0.1 (a loopback address, never counted per address). */
  remoteAddress?: string;
}

/** Registers a fresh app on a fresh database for each test; call inside a `describe`. */
export function useHarness(dialect: Dialect, env: Record<string, string> = {}): () => Harness {
  let harness: Harness | undefined;
  let database: Database | undefined;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    harness = await createHarness(database, env);
  });
  afterEach(() => closeHarness(harness, database));
  afterAll(dropFileDatabase);
  return () => {
    if (!harness) throw new Error('useHarness: no test is running');
    return harness;
  };
}

/**
 * One app on one database for all the tests of a `describe`: only for tests that each send requests the
 * service refuses, which change nothing the next test reads. A fresh app and store cost 0.15-0.4 CPU-s a
 * test on a slow CI host, which a table of such cases pays once instead of per row
 * (docs/performance.md, "The test suite's time").
 */
export function useSharedHarness(dialect: Dialect): () => Harness {
  let harness: Harness | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    harness = await createHarness(database, {});
  });
  afterAll(async () => {
    await closeHarness(harness, database);
    await dropFileDatabase();
  });
  return () => {
    if (!harness) throw new Error('useSharedHarness: no describe is running');
    return harness;
  };
}

async function closeHarness(harness: Harness | undefined, database: Database | undefined): Promise<void> {
  await harness?.app.close();
  await harness?.sessions.close();
  await database?.close();
}

async function createHarness(database: Database, env: Record<string, string>): Promise<Harness> {
  const { db } = database;
  const sessions = database.openSessionStore();
  const live = await LiveConfig.load(db);
  const config = loadConfig({ LOG_LEVEL: 'info', PUBLIC_URL, ...env });
  const clock = new TestClock();
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, db, sessions, live, clock: clock.now, logStream });
  let defaultClient: Promise<Client> | undefined;

  const harness: Harness = {
    app,
    db,
    sessions,
    clock,
    config,
    live,
    logs: () => lines.join(''),
    said: (text) =>
      lines
        .join('')
        .split('\n')
        .filter((line) => line.includes(text)).length,
    refresh: () => live.refresh(),
    async addClient(overrides = {}) {
      const client = testClient(clock.now(), overrides);
      const inserted = insertClient(db, client)
        .then(() => live.refresh())
        .then(() => client);
      defaultClient ??= inserted;
      return inserted;
    },
    setSetting: (name, value) => saveSetting(db, name, value).then(() => live.refresh()),
    activateCurrencies: (...codes) => activateCurrencies(db, codes).then(() => live.refresh()),
    async createSession(userId, params = {}, options = {}) {
      // Concurrent first calls share one default client.
      defaultClient ??= harness.addClient();
      const client = options.client ?? (await defaultClient);
      const clientId = options.clientId ?? client.id;
      const signature =
        options.sign === undefined
          ? await sign({ ...(params as SignableParams), userId }, client.secretKey ?? '')
          : options.sign;
      const format = options.format ?? 'form';
      return app.inject({
        method: 'POST',
        url: `/api/web/v2/app/users/${encodeURIComponent(userId)}/session?clientId=${encodeURIComponent(clientId)}`,
        headers: {
          'content-type': format === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
          accept: 'application/vnd.api+json',
          ...(signature === null ? {} : { sign: signature }),
          ...options.headers,
        },
        payload: format === 'form' ? encodePhpForm(params) : JSON.stringify(params),
        ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
      });
    },
  };
  return harness;
}

/** The inverse of the service's form parser: nested objects as `key[sub]=…`. */
export function encodePhpForm(params: Record<string, unknown>, prefix = ''): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const name = prefix === '' ? key : `${prefix}[${key}]`;
      if (value !== null && typeof value === 'object')
        return encodePhpForm(value as Record<string, unknown>, name);
      return `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
    })
    .join('&');
}
