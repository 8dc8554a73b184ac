import { BlockList, isIP } from 'node:net';

/** Runtime configuration, parsed once from the environment. Nothing else reads `process.env`. */
export interface Config {
  readonly database: DatabaseConfig;
  readonly host: string;
  readonly port: number;
  /** Base of every launch URL, without a trailing slash. */
  readonly publicUrl: string;
  /** `staging` explains signature errors to integrators; `production` never does. */
  readonly deployment: Deployment;
  readonly logLevel: LogLevel;
  /** Requests per minute per client and server instance on the API routes; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Whom to believe in X-Forwarded-For: off, all (`true`), or proxy addresses/CIDRs. */
  readonly trustProxy: false | readonly string[];
  /** Quotas shared by every instance through this Redis; `undefined`: counted per instance. */
  readonly redis: RedisConfig | undefined;
  /** Bearer token that `/metrics` requires; undefined: `/metrics` is open (bind it to a private interface). */
  readonly metricsToken: string | undefined;
  /** `serve` applies pending migrations at start; false: it refuses to start on a schema that is behind. */
  readonly migrateOnStart: boolean;
  /** Milliseconds a client has to send a whole request (headers and body), else 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection stays open between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Milliseconds a graceful shutdown may take before the connections still open are cut. */
  readonly shutdownTimeoutMs: number;
  /**
   * Milliseconds between SIGTERM and the drain, during which `/readyz` answers 503 and everything else is
   * served as before, so balancers take the instance out first; 0: the drain begins at the signal.
   */
  readonly shutdownDelayMs: number;
  /** Webhooks may go to loopback, private and link-local addresses (and, outside production, to http:). */
  readonly webhookAllowPrivateAddresses: boolean;
  /** Seconds between a webhook delivery's attempts: one retry per entry, then it is marked failed. */
  readonly webhookRetrySchedule: readonly number[];
  /**
   * Milliseconds a webhook delivery may take, connection to the end of the answer. A claimed batch is
   * held for four rounds of it and 5 s: how long a crashed instance's deliveries wait for another.
   */
  readonly webhookTimeoutMs: number;
  /** The operator console at /console (docs/console.md); off: no console route exists. */
  readonly console: boolean;
  /** Launch attempts recorded for the console's integration activity pages; off: none are. */
  readonly activityRecords: boolean;
}

export interface RedisConfig {
  readonly url: string;
  /** Prefix of every key the service writes, so several deployments (or tests) can share one Redis. */
  readonly keyPrefix: string;
  /** Longest a quota check waits for Redis before this instance counts alone (docs/design.md §10). */
  readonly timeoutMs: number;
}

export type DatabaseConfig =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly url: string };

export type Deployment = 'staging' | 'production';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_DATABASE_URL = 'sqlite:./data/poker-launch.db';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * @example loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://localhost/poker' })
 * @throws ConfigError naming the variable and what it accepts.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const host = nonEmpty(env.HOST) ?? '127.0.0.1';
  const port = parsePort(nonEmpty(env.PORT) ?? '8080');
  const publicHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return Object.freeze({
    database: parseDatabaseUrl(nonEmpty(env.DATABASE_URL) ?? DEFAULT_DATABASE_URL),
    host,
    port,
    publicUrl: parsePublicUrl(nonEmpty(env.PUBLIC_URL) ?? `http://${publicHost}:${port}`),
    deployment: oneOf('POKER_LAUNCH_ENV', nonEmpty(env.POKER_LAUNCH_ENV) ?? 'staging', [
      'staging',
      'production',
    ] as const),
    logLevel: oneOf('LOG_LEVEL', nonEmpty(env.LOG_LEVEL) ?? 'info', LOG_LEVELS),
    rateLimitPerMinute: parseRateLimit(nonEmpty(env.RATE_LIMIT_PER_MINUTE) ?? '1200'),
    trustProxy: parseTrustProxy(nonEmpty(env.TRUST_PROXY) ?? 'false'),
    redis: parseRedis(
      nonEmpty(env.REDIS_URL),
      nonEmpty(env.REDIS_KEY_PREFIX) ?? 'poker-launch:',
      nonEmpty(env.REDIS_TIMEOUT_MS) ?? String(DEFAULT_REDIS_TIMEOUT_MS),
    ),
    metricsToken: parseMetricsToken(nonEmpty(env.METRICS_TOKEN)),
    migrateOnStart: parseBoolean('MIGRATE_ON_START', nonEmpty(env.MIGRATE_ON_START) ?? 'true'),
    requestTimeoutMs: parseSeconds('REQUEST_TIMEOUT', nonEmpty(env.REQUEST_TIMEOUT) ?? '10', 1, 300),
    keepAliveTimeoutMs: parseSeconds('KEEP_ALIVE_TIMEOUT', nonEmpty(env.KEEP_ALIVE_TIMEOUT) ?? '72', 1, 600),
    shutdownTimeoutMs: parseSeconds('SHUTDOWN_TIMEOUT', nonEmpty(env.SHUTDOWN_TIMEOUT) ?? '20', 1, 300),
    shutdownDelayMs: parseSeconds('SHUTDOWN_DELAY', nonEmpty(env.SHUTDOWN_DELAY) ?? '0', 0, 300),
    webhookAllowPrivateAddresses: parseBoolean(
      'WEBHOOK_ALLOW_PRIVATE_ADDRESSES',
      nonEmpty(env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES) ?? 'false',
    ),
    webhookRetrySchedule: parseRetrySchedule(nonEmpty(env.WEBHOOK_RETRY_SCHEDULE)),
    webhookTimeoutMs: parseSeconds('WEBHOOK_TIMEOUT', nonEmpty(env.WEBHOOK_TIMEOUT) ?? '10', 1, 60),
    console: parseOnOff('CONSOLE', nonEmpty(env.CONSOLE) ?? 'on'),
    activityRecords: parseOnOff('ACTIVITY_RECORDS', nonEmpty(env.ACTIVITY_RECORDS) ?? 'on'),
  });
}

/** True when the path of a postgres:// URL, after the host and before any ?query, names a database. */
function namesPostgresDatabase(url: string): boolean {
  const path = url.replace(/^postgres(ql)?:\/\/[^/?#]*/, '').replace(/[?#].*$/s, '');
  return path.replace(/^\//, '') !== '';
}

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '')
      throw new ConfigError('DATABASE_URL: sqlite: needs a file path, e.g. sqlite:./data/poker-launch.db');
    return Object.freeze({ dialect: 'sqlite', path });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    // Without one, PostgreSQL connects to the database named like the role (often "postgres", the
    // maintenance database), and `serve` would migrate the service's tables into it.
    if (!namesPostgresDatabase(url)) {
      throw new ConfigError(
        "DATABASE_URL names no database: PostgreSQL would use the role's own (often postgres, the " +
          'maintenance database); end it with the name, e.g. postgres://user@host:5432/poker',
      );
    }
    return Object.freeze({ dialect: 'postgres', url });
  }
  throw new ConfigError('DATABASE_URL must be sqlite:<path> or postgres://user@host:port/database');
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 1 to 65535, got "${text}"`);
  }
  return port;
}

function parseRateLimit(text: string): number {
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit > 1_000_000) {
    throw new ConfigError(
      `RATE_LIMIT_PER_MINUTE must be a whole number from 0 (off) to 1000000, got "${text}"`,
    );
  }
  return limit;
}

/** Address ranges proxy-addr knows by name, for a proxy on the same host or network. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `false`, or the proxies whose `X-Forwarded-For` is believed (docs/design.md §11). `true` is refused:
 * it would believe whoever connects, and a hop count believes as many entries as it says, both of which a
 * caller who reaches the service can write.
 */
function parseTrustProxy(text: string): false | readonly string[] {
  if (text === 'false') return false;
  if (text === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true is refused: it would let anyone who connects choose the address it is counted by. ' +
        'Give the addresses/CIDRs of your proxies, e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=10.0.0.0/8',
    );
  }
  if (/^\d+$/.test(text)) {
    // Fastify dropped hop counts too: anyone can put more hops into X-Forwarded-For than there are proxies.
    throw new ConfigError(
      `TRUST_PROXY takes no hop count ("${text}"): a client can add hops of its own to X-Forwarded-For. ` +
        'Give the addresses/CIDRs of your proxies, e.g. TRUST_PROXY=10.0.0.0/8',
    );
  }
  const entries = text.split(',').map((part) => part.trim());
  const wrong = entries.filter((entry) => !NAMED_RANGES.includes(entry) && !isAddressOrCidr(entry));
  if (wrong.length > 0) {
    throw new ConfigError(
      `TRUST_PROXY must be false or a comma list of proxy addresses/CIDRs (or loopback, linklocal, ` +
        `uniquelocal); not an address or CIDR: ${wrong.map((entry) => `"${entry}"`).join(', ')}`,
    );
  }
  const wide = entries.filter((entry) => !NAMED_RANGES.includes(entry) && isTooWide(entry));
  if (wide.length === 0) return Object.freeze(entries);
  throw new ConfigError(
    `TRUST_PROXY ranges hold no more than a /8: ${wide.map((entry) => `"${entry}"`).join(', ')} would ` +
      'believe the X-Forwarded-For of nearly any caller, who could then choose the address it is counted by. ' +
      'Give the addresses/CIDRs of your proxies, e.g. TRUST_PROXY=10.0.0.0/8',
  );
}

/**
 * A range wider than any proxies need: one that holds addresses of two IPv4 /8s (as IPv4 or mapped into
 * IPv6: ::/64 holds every ::ffff:a.b.c.d), or an IPv6 range wider than a /8. `0.0.0.0/1,128.0.0.0/1` or
 * `::/0` believed every caller (docs/operations.md, "Which address").
 */
function isTooWide(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined) return false;
  const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  if (type === 'ipv6' && Number(prefix) < 8) return true;
  const range = new BlockList();
  range.addSubnet(address, Number(prefix), type);
  let octets = 0;
  for (let first = 0; first < 256 && octets < 2; first++) {
    const probe = `${first}.0.0.1`;
    if (type === 'ipv4' ? range.check(probe, 'ipv4') : range.check(`::ffff:${probe}`, 'ipv6')) octets++;
  }
  return octets > 1;
}

function isAddressOrCidr(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A Redis next to the service answers a quota check in well under a millisecond. */
export const DEFAULT_REDIS_TIMEOUT_MS = 20;

function parseRedis(url: string | undefined, keyPrefix: string, timeout: string): RedisConfig | undefined {
  if (url === undefined) return undefined;
  // Quoted without its password: a config error is printed, and may be collected with the logs.
  const shown = withoutPassword(url);
  const form = 'redis://[user:password@]host[:port][/db]';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`REDIS_URL must be ${form}, got "${shown}"`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${shown}"`);
  }
  // What ioredis would otherwise take quietly: no host (localhost), port 0, or a database that is no number.
  if (parsed.hostname === '') throw new ConfigError(`REDIS_URL names no host: ${form}, got "${shown}"`);
  if (parsed.port === '0') throw new ConfigError(`REDIS_URL's port must be 1 to 65535, got "${shown}"`);
  if (!/^(\/(\d{1,9})?)?$/.test(parsed.pathname)) {
    throw new ConfigError(`REDIS_URL's database must be a number (/0, /1, ...), got "${shown}"`);
  }
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(keyPrefix)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or : . _ -, got "${keyPrefix}"`);
  }
  const timeoutMs = Number(timeout);
  if (!/^\d+$/.test(timeout) || timeoutMs < 1 || timeoutMs > 5_000) {
    throw new ConfigError(
      `REDIS_TIMEOUT_MS must be a whole number of milliseconds from 1 to 5000, got "${timeout}"`,
    );
  }
  return Object.freeze({ url, keyPrefix, timeoutMs });
}

/** `url` with the password of its `user:password@` replaced by `***`, even where it does not parse. */
function withoutPassword(url: string): string {
  return url.replace(/^([^:/]*:\/\/[^/@:]*:)[^@]*@/, '$1***@');
}

/** Whole seconds from `min` to `max`, as milliseconds. */
function parseSeconds(name: string, text: string, min: number, max: number): number {
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || seconds < min || seconds > max) {
    throw new ConfigError(`${name} must be a whole number of seconds from ${min} to ${max}, got "${text}"`);
  }
  return seconds * 1000;
}

/**
 * About three days of retries, closer together at first (a restart, a deploy) and twelve hours apart at
 * the end: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, then 12 h five times (70.7 h in all).
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [
  5, 30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200, 43_200, 43_200, 43_200, 43_200,
] as const;

function parseRetrySchedule(text: string | undefined): readonly number[] {
  if (text === undefined) return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const delays = text.split(',').map((part) => part.trim());
  if (delays.length > 30 || delays.some((delay) => !/^\d{1,6}$/.test(delay) || Number(delay) < 1)) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be 1 to 30 comma-separated whole numbers of seconds (1 to 999999), got "${text}"`,
    );
  }
  return Object.freeze(delays.map(Number));
}

function parseOnOff(name: string, text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got "${text}"`);
}

function parseBoolean(name: string, text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ConfigError(`${name} must be true or false, got "${text}"`);
}

/** Long enough not to be guessed, printable so it survives a header; never echoed in the error. */
function parseMetricsToken(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(text)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  }
  return text;
}

function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${text}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError(
      `PUBLIC_URL must be an http(s) URL without query, fragment or credentials, got "${text}"`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
