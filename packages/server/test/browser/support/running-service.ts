import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SignableParams, sign } from '@poker-launch/sdk';
import type { Client } from '../../../src/clients/client.js';
import { insertClient } from '../../../src/clients/client.repository.js';
import { type Config, loadConfig } from '../../../src/config.js';
import { activateCurrencies } from '../../../src/currencies/currency.repository.js';
import { type RunningServer, startServer } from '../../../src/server.js';
import { saveSetting } from '../../../src/settings/setting.repository.js';
import type { SettingName } from '../../../src/settings/settings.js';
import { freePort } from '../../../src/test-support/free-port.js';
import { encodePhpForm } from '../../../src/test-support/harness.js';
import { adminQuery } from '../../../src/test-support/migrated-template.js';
import type { Dialect } from '../../../src/test-support/test-database.js';

export interface RunningService {
  /** The origin it listens on, which is also its PUBLIC_URL. */
  origin: string;
  /** Its DATABASE_URL, for another instance on the same database (`sharing`). */
  databaseUrl: string;
  server: RunningServer;
  addClient(overrides?: Partial<Client>): Promise<Client>;
  setSetting(name: SettingName, value: string): Promise<void>;
  activateCurrencies(...codes: string[]): Promise<void>;
  /** v2 create session over real HTTP, signed with the client's secret; answers the redirect URL. */
  createV2Session(client: Client, userId: string, params?: Record<string, unknown>): Promise<LaunchedUrl>;
  /** v3 open game over real HTTP, signed with the client's secret; answers the launch URL. */
  launchV3Session(client: Client, userId: string, nick: string): Promise<LaunchedUrl>;
  close(): Promise<void>;
}

export interface LaunchedUrl {
  url: string;
  auth: string;
}

export interface RunningServiceOptions {
  /** A temporary SQLite file (default), or a fresh database on the TEST_DATABASE_URL server. */
  readonly dialect?: Dialect;
  /** More of the configuration (CONSOLE, POKER_LAUNCH_ENV, …). */
  readonly env?: Readonly<Record<string, string>>;
  /** Another instance of this one's database (dialect ignored); the database stays when it closes. */
  readonly sharing?: RunningService;
}

/**
 * The real service (server.ts) on a loopback port with a temporary database. PUBLIC_URL must be the
 * origin it listens on, so the port is chosen first; if another process takes it meanwhile, retry.
 */
export async function startRunningService(options: RunningServiceOptions = {}): Promise<RunningService> {
  const directory = await mkdtemp(join(tmpdir(), 'poker-launch-browser-'));
  const store = options.sharing
    ? { url: options.sharing.databaseUrl, drop: async () => {} }
    : options.dialect === 'postgres'
      ? await createPostgresDatabase()
      : { url: `sqlite:${join(directory, 'poker-launch.db')}`, drop: async () => {} };
  const { server, config } = await listenOnFreePort(store.url, options.env ?? {});
  const { db } = server.database;
  const origin = server.address;
  if (origin !== config.publicUrl) throw new Error(`listening on ${origin}, PUBLIC_URL ${config.publicUrl}`);
  let clients = 0;
  return {
    origin,
    databaseUrl: store.url,
    server,
    async addClient(overrides = {}) {
      const client: Client = {
        id: `client-${++clients}`,
        secretKey: 'browser_secret',
        active: true,
        currencyMandatory: false,
        playerIdMode: 'external',
        launchUrls: {},
        frameOrigins: [],
        createdAt: new Date().toISOString(),
        ...overrides,
      };
      await insertClient(db, client);
      // In-process, so the test need not wait for the instance's poll to see the change.
      await server.live.refresh();
      return client;
    },
    setSetting: (name, value) => saveSetting(db, name, value).then(() => server.live.refresh()),
    activateCurrencies: (...codes) => activateCurrencies(db, codes).then(() => server.live.refresh()),
    async createV2Session(client, userId, params = {}) {
      const signature = await sign({ ...(params as SignableParams), userId }, client.secretKey ?? '');
      const response = await fetch(
        `${origin}/api/web/v2/app/users/${encodeURIComponent(userId)}/session?clientId=${client.id}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', sign: signature },
          body: encodePhpForm(params),
        },
      );
      const document = (await response.json()) as { data: { attributes: Record<string, string> } };
      if (response.status !== 200)
        throw new Error(`create session: ${response.status} ${JSON.stringify(document)}`);
      return {
        url: document.data.attributes['redirect-url'] ?? '',
        auth: document.data.attributes.auth ?? '',
      };
    },
    async launchV3Session(client, userId, nick) {
      const document = { data: { type: 'OpenGame', attributes: { player: { id: userId, nick } } } };
      const response = await fetch(`${origin}/apiweb/v3/open-game?client=${client.id}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/vnd.api+json',
          sign: await sign(document, client.secretKey ?? ''),
        },
        body: JSON.stringify(document),
      });
      const answer = (await response.json()) as { data: { attributes: Record<string, string> } };
      if (response.status !== 201) throw new Error(`open game: ${response.status} ${JSON.stringify(answer)}`);
      return { url: answer.data.attributes.url ?? '', auth: answer.data.attributes.auth ?? '' };
    },
    async close() {
      await server.close();
      await store.drop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A whole database (the service migrates it at start), dropped at the end. */
async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL names no PostgreSQL server');
  const name = `poker_launch_browser_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = (statement: string) => adminQuery(serverUrl, statement);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function listenOnFreePort(
  databaseUrl: string,
  env: Readonly<Record<string, string>>,
): Promise<{ server: RunningServer; config: Config }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // PUBLIC_URL is left to its default, http://HOST:PORT: the very origin the browser talks to.
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ...env,
    });
    try {
      return { server: await startServer(config), config };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}
