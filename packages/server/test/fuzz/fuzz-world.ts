import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { adminAs } from '../../src/admin/audited.js';
import { addWebhookEndpoint } from '../../src/admin/operations.js';
import { registerPlayer } from '../../src/admin/player-admin.js';
import { buildApp } from '../../src/app.js';
import type { Client } from '../../src/clients/client.js';
import { insertClient } from '../../src/clients/client.repository.js';
import { loadConfig } from '../../src/config.js';
import { CONSOLE_PATH, csrfToken, SESSION_COOKIE } from '../../src/console/console-session.js';
import { activateCurrencies } from '../../src/currencies/currency.repository.js';
import type { Database } from '../../src/db/database.js';
import type { Db } from '../../src/db/schema.js';
import { LiveConfig } from '../../src/live-config/live-config.js';
import { OpenApiContract } from '../../src/openapi/test-support/openapi-contract.js';
import { addTestOperator, TEST_PASSWORD } from '../../src/test-support/console-client.js';
import { testClient } from '../../src/test-support/test-client.js';
import { TestClock } from '../../src/test-support/test-clock.js';
import { createTestDatabase, type Dialect } from '../../src/test-support/test-database.js';
import { generateApiKey, hashApiKey } from '../../src/users/api-key.js';
import { PERMISSION_CREATE_OPEN_GAME, ROLE_ADMIN } from '../../src/users/api-user.js';
import { insertApiUser } from '../../src/users/api-user.repository.js';
import { createApiUser } from '../../src/users/create-api-user.js';
import type { FuzzRequest } from './fuzz-requests.js';

/** Secrets of the world's clients: no answer and no log line may ever show one. */
export const SECRETS: Readonly<Record<string, string>> = {
  demo: 'fuzz-demo-secret-0123',
  internal: 'fuzz-internal-secret-99',
  strict: 'fuzz-strict-secret-77',
  gone: 'fuzz-gone-secret-0000',
  hmac: 'fuzz-hmac-secret-4242',
};

/** The players session control is aimed at: a few per client, by the id the integrator knows them by. */
const PLAYERS: readonly [string, string][] = [
  ['demo', 'p-1'],
  ['demo', 'p-2'],
  ['demo', 'Zoë'],
  ['open', 'p-1'],
  ['strict', 'p-3'],
  ['internal', 'p-4'],
  ['gone', 'p-5'],
  ['hmac', 'p-6'],
];

/** The console's operators, one of each role, signed in when first needed (again if a session ends). */
export type ConsoleRole = 'admin' | 'support';
const OPERATORS: Record<ConsoleRole, string> = { admin: 'fuzz-operator', support: 'fuzz-support' };

/** One service on a fresh database, with clients of every kind, API keys and what its answers handed out. */
export interface FuzzWorld {
  app: FastifyInstance;
  clock: TestClock;
  contract: OpenApiContract;
  /** Client id → secret (none for `open`, a client without one). */
  secretOf(clientId: string): string | undefined;
  apiKeys: { admin: string; powerless: string; strictOnly: string };
  /** Auth tokens and GameSession ids the service answered with, for later cases to use. */
  tokens: string[];
  gameSessionIds: string[];
  /** The store, to check that a refused request changed nothing. */
  db: Db;
  /** Players session control may name: their client, and the id the integrator knows them by. */
  players: { clientId: string; integratorId: string; id: string }[];
  /** The last request hmac signed, for a later case to send again (a replay). */
  lastHmac: FuzzRequest | undefined;
  /** Nonces of hmac signs: each case takes the next. */
  nonces: number;
  /** The operator's console session: its cookie and CSRF token (undefined once it ended). */
  console: Partial<Record<ConsoleRole, { cookie: string; csrf: string }>>;
  signInToConsole(role: ConsoleRole): Promise<{ cookie: string; csrf: string }>;
  logs(): string;
  close(): Promise<void>;
}

export async function createFuzzWorld(dialect: Dialect): Promise<FuzzWorld> {
  const database: Database = await createTestDatabase(dialect);
  const clock = new TestClock();
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // trace: every line the service can write is searched for credentials at the end.
  const config = loadConfig({
    LOG_LEVEL: 'trace',
    PUBLIC_URL: 'https://poker.test',
    RATE_LIMIT_PER_MINUTE: '20',
  });
  const client = (id: string, overrides: Partial<Client>) =>
    testClient(clock.now(), { id, secretKey: null, ...overrides });
  for (const added of [
    client('demo', { secretKey: SECRETS.demo, frameOrigins: ['https://casino.example'] }),
    client('open', {}),
    client('internal', { secretKey: SECRETS.internal, playerIdMode: 'internal' }),
    client('strict', { secretKey: SECRETS.strict, currencyMandatory: true }),
    client('gone', { secretKey: SECRETS.gone ?? null, active: false }),
    // The hmac scheme alone, replay fields required: each sign is accepted once (docs/integration.md).
    client('hmac', {
      secretKey: SECRETS.hmac,
      protection: {
        replayProtection: 'require',
        replayWindowSeconds: 300,
        signature: 'hmac',
        allowedAddresses: [],
      },
    }),
  ]) {
    await insertClient(database.db, added);
  }
  await activateCurrencies(database.db, ['EUR']);
  const players: FuzzWorld['players'] = [];
  for (const [clientId, userId] of PLAYERS) {
    const added = await registerPlayer(database.db, { clientId, userId }, clock.now());
    if (!added.ok) throw new Error(added.reason);
    // In internal player-id mode the integrator names a player by the service's id.
    players.push({
      clientId,
      integratorId: clientId === 'internal' ? added.value.id : userId,
      id: added.value.id,
    });
  }
  // An endpoint of demo's: its players' blocks and ended sessions write deliveries (the store check
  // sees them), and the console's webhook forms have one to change. Never sent: an app that only
  // answers inject runs no deliverer.
  const endpoint = await addWebhookEndpoint(
    adminAs(database.db, { via: 'cli', name: 'fuzz', address: 'fuzz-host' }, clock.now),
    { rules: config, clientId: 'demo', url: 'https://hooks.casino.example/poker' },
  );
  if (!endpoint.ok) throw new Error(endpoint.reason);
  for (const role of ['admin', 'support'] as const) await addTestOperator(database.db, OPERATORS[role], role);
  const admin = await createApiUser(
    database.db,
    { name: 'fuzz-admin', role: ROLE_ADMIN, permissions: [], clients: [] },
    clock.now(),
  );
  if (!admin.ok) throw new Error(admin.reason);
  // A key whose user may do nothing: the CLI refuses to make one, an older grant could leave one.
  const powerless = generateApiKey();
  await insertApiUser(
    database.db,
    {
      name: 'fuzz-nobody',
      role: null,
      permissions: [],
      clients: [],
      createdAt: clock.now().toISOString(),
      revokedAt: null,
    },
    hashApiKey(powerless),
  );
  // A key of one client's: acting for another one is a 403 and changes nothing.
  const strictOnly = await createApiUser(
    database.db,
    { name: 'fuzz-strict', role: null, permissions: [PERMISSION_CREATE_OPEN_GAME], clients: ['strict'] },
    clock.now(),
  );
  if (!strictOnly.ok) throw new Error(strictOnly.reason);
  const apiKeys = { admin: admin.key, powerless, strictOnly: strictOnly.key };
  // Built once the world is in the database: the live configuration reads it at start.
  const sessions = database.openSessionStore();
  const live = await LiveConfig.load(database.db);
  const app = await buildApp({ config, db: database.db, sessions, live, clock: clock.now, logStream });
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const world: FuzzWorld = {
    app,
    clock,
    contract: new OpenApiContract(document),
    secretOf: (clientId) => SECRETS[clientId],
    apiKeys,
    tokens: [],
    gameSessionIds: [],
    db: database.db,
    players,
    console: {},
    lastHmac: undefined,
    nonces: 0,
    async signInToConsole(role) {
      const answer = await app.inject({
        method: 'POST',
        url: `${CONSOLE_PATH}/sign-in`,
        headers: { origin: 'https://poker.test', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username: OPERATORS[role], password: TEST_PASSWORD }).toString(),
        remoteAddress: '127.0.0.1',
      });
      const cookie = answer.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
      if (answer.statusCode !== 303 || !cookie) throw new Error(`console sign-in: ${answer.statusCode}`);
      const session = { cookie, csrf: csrfToken(cookie) };
      world.console[role] = session;
      return session;
    },
    logs: () => lines.join(''),
    async close() {
      await app.close();
      await sessions.close();
      await database.close();
    },
  };
  return world;
}
