import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  countClients,
  createDemoClientIfEmpty,
  type DatabaseConfig,
  isDatabaseUnavailable,
  loadConfig,
} from '@poker-launch/server/admin';
import { type Command, CommandError } from '../command.js';
import { databaseProblem, unreachableAdvice } from '../database.js';
import { databaseNotes, describeDatabase } from '../database-notice.js';
import { tlsProblem } from '../database-tls.js';
import { firstStartNotice, localAddress, PRODUCTION_NO_CLIENTS_NOTICE } from '../first-start-notice.js';

/** Logged once serve has started and done its first-start work. */
export const READY_MESSAGE = 'poker-launch ready';

export const serveCommand: Command = {
  usage: '',
  help: [
    '',
    'Configured by the environment (docs/operations.md, "Configuration", says more):',
    '  DATABASE_URL           sqlite:<path> (default sqlite:./data/poker-launch.db) or postgres://…',
    '  HOST                   interface to listen on (default 127.0.0.1)',
    '  PORT                   port to listen on (default 8080)',
    "  PUBLIC_URL             base of every launch URL, as players' browsers reach it (default",
    '                         http://HOST:PORT, localhost for 0.0.0.0; production warns without it)',
    '  POKER_LAUNCH_ENV       staging (default) or production',
    '  RATE_LIMIT_PER_MINUTE  API requests a minute per client (default 1200; 0: off); per instance',
    '                         unless REDIS_URL is set',
    '  REDIS_URL              redis://… : quotas shared by every instance through Redis (default: none)',
    '  REDIS_KEY_PREFIX       prefix of the keys written to Redis (default poker-launch:)',
    '  REDIS_TIMEOUT_MS       longest a quota check waits for Redis before counting per instance (default 20)',
    '  TRUST_PROXY            the proxies whose X-Forwarded-For is believed: a comma list of their',
    '                         addresses/CIDRs (or loopback, linklocal, uniquelocal); default false: none',
    '  LOG_LEVEL              fatal, error, warn, info (default), debug, trace or silent',
    '  METRICS_TOKEN          bearer token GET /metrics requires (16–256 characters); default none',
    '  MIGRATE_ON_START       true (default): apply pending migrations at start; false: refuse to start',
    '                         on a schema that is behind (run "poker-launch migrate" once instead)',
    '  REQUEST_TIMEOUT        seconds a client has to send a whole request, else 408 (default 10)',
    '  KEEP_ALIVE_TIMEOUT     seconds an idle keep-alive connection stays open (default 72; keep it',
    '                         above the idle timeout of the load balancer in front)',
    '  SHUTDOWN_DELAY         seconds from SIGTERM to the drain, while /readyz answers 503 and all else',
    '                         is served as before, so balancers stop sending first (default 0)',
    '  SHUTDOWN_TIMEOUT       seconds the drain waits for in-flight requests before cutting the',
    '                         connections still open (default 20; counted after SHUTDOWN_DELAY)',
    '  WEBHOOK_ALLOW_PRIVATE_ADDRESSES  true: webhooks may go to loopback and private addresses, and',
    '                         outside production to http: (default false)',
    '  WEBHOOK_RETRY_SCHEDULE seconds between webhook attempts, comma-separated (default: about three',
    '                         days, 5,30,120,… up to 12 h apart)',
    "  WEBHOOK_TIMEOUT        seconds a webhook delivery may take (default 10); a crashed instance's",
    '                         deliveries go out again after four times this and 5 s',
    '  CONSOLE                on (default): the operator console at /console; off: none',
    '  ACTIVITY_RECORDS       on (default): launch attempts recorded for the console; off: none',
    '',
    'Staging (the default): on a database without clients it creates client "demo" with a random',
    'secret and prints the secret, once, on stdout, with a curl command that creates a session.',
    'Production: it never creates a client or prints a secret; on a database without clients it says',
    'on stderr to add one with "poker-launch client add <id>". SIGINT/SIGTERM close it gracefully',
    '(within SHUTDOWN_DELAY and SHUTDOWN_TIMEOUT; a second signal during the delay drains at once).',
    '',
    'example: DATABASE_URL=sqlite:./data/poker-launch.db PORT=8080 poker-launch serve',
  ],
  async run(_args, context) {
    const config = loadConfig(context.env);
    // Loaded here only: the HTTP stack would triple the start-up time of every other command.
    const { closeOnSignals, ListenError, stagingExposureWarning, startServer } = await import(
      '@poker-launch/server'
    );
    const notes = databaseNotes(config.database, { serving: true });
    const newFile = newSqliteFile(config.database);
    if (newFile !== undefined && !config.migrateOnStart) {
      // Nothing would make its schema: an empty file left behind reads as "schema behind" ever after.
      throw new CommandError(
        `cannot start: ${newFile} does not exist, and with MIGRATE_ON_START=false this start makes no schema; ` +
          'run "poker-launch migrate" first (it creates the database), or start without MIGRATE_ON_START=false',
      );
    }
    const server = await startServer(config).catch(async (error: unknown) => {
      // A start that failed (a port in use, say) leaves no new database behind it.
      if (newFile !== undefined) await removeSqliteFiles(newFile);
      // The database was reached and prepared before the listen: its address is not the database's fault.
      if (error instanceof ListenError) throw new CommandError(`cannot start: ${error.message}`);
      const tls = tlsProblem(error, config.database);
      if (tls !== undefined) throw new CommandError(`cannot start: ${tls}`);
      const message = databaseProblem(error);
      // "role "poker" does not exist" alone does not say which server said it.
      throw new CommandError(
        isDatabaseUnavailable(error)
          ? `cannot start: cannot reach the database ${describeDatabase(config.database)}: ${message}${unreachableAdvice(error, config.database, { serving: true })}`
          : `cannot start: ${message}`,
      );
    });
    closeOnSignals(server, { delayMs: config.shutdownDelayMs, deadlineMs: config.shutdownTimeoutMs });
    for (const note of notes) context.err(note);
    const exposure = stagingExposureWarning(config);
    if (exposure.length > 0) {
      for (const line of exposure) context.err(line);
      server.app.log.warn({ host: config.host }, 'staging deployment listening beyond this machine');
    }
    if (config.deployment === 'production' && (context.env.PUBLIC_URL ?? '').trim() === '') {
      // The default, http://HOST:PORT (localhost for 0.0.0.0), is this machine's own address: every
      // launch URL would send players' browsers to themselves (docs/operations.md, "Deploying").
      context.err(
        `PUBLIC_URL is not set: every launch URL starts with ${config.publicUrl}, this instance's own ` +
          "address, which players' browsers do not reach; set PUBLIC_URL to the address they use " +
          '(https://poker.example.com)',
      );
      server.app.log.warn(
        { publicUrl: config.publicUrl },
        'PUBLIC_URL is not set in a production deployment',
      );
    }
    // Only with MIGRATE_ON_START=false: else the start refused it (docs/operations.md, "Upgrades and migrations").
    // A warning: a database gone away meanwhile is readiness's to report, not a reason to stop.
    const status = await server.database.migrationStatus().catch(() => []);
    const newer = status.filter((migration) => migration.newer);
    if (newer.length > 0) {
      server.app.log.warn(
        { migrations: newer.map((migration) => migration.name) },
        "the database schema is newer than this version: it has migrations this version does not know, a later version's; this version leaves them as they are",
      );
    }
    const { db } = server.database;
    try {
      if (config.deployment === 'production') {
        // Production: no client with a secret nobody chose, and no secret in a stream logs are read from.
        if ((await countClients(db)) === 0) context.err(PRODUCTION_NO_CLIENTS_NOTICE);
      } else {
        // Printed, not logged: the operator must see the secret, and it must never reach the log stream.
        const demo = await createDemoClientIfEmpty(db, new Date());
        if (demo?.secretKey) {
          for (const line of await firstStartNotice(localAddress(server.address), demo.id, demo.secretKey)) {
            context.out(line);
          }
        }
      }
      // After the first-start work, which the service must see: from here on it runs as configured.
      await server.live.refresh();
    } catch (error) {
      // A store the service's user cannot write (a SQLite file created by root, say) fails here, after
      // listening: stop listening and say so in one line, not with the driver's stack trace.
      await server.close().catch(() => undefined);
      throw new CommandError(
        `cannot start: the first-start work on ${describeDatabase(config.database)} failed: ${databaseProblem(error)}`,
      );
    }
    server.app.log.info(READY_MESSAGE);
    // Log lines are buffered (a quarter of a second at most): the start-up lines go out now.
    server.flushLog();
    return 0;
  },
};

/** The SQLite file DATABASE_URL names, when it does not exist yet (this start creates it); else undefined. */
function newSqliteFile(database: DatabaseConfig): string | undefined {
  if (database.dialect !== 'sqlite' || database.path === ':memory:') return undefined;
  const path = resolve(database.path);
  return existsSync(path) ? undefined : path;
}

/** A SQLite database's file and the journal files beside it. */
async function removeSqliteFiles(path: string): Promise<void> {
  await Promise.all(
    ['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${path}${suffix}`, { force: true })),
  );
}
