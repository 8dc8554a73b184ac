import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to SQLite in ./data, 127.0.0.1:8080 and staging', () => {
    expect(loadConfig({})).toEqual({
      database: { dialect: 'sqlite', path: './data/poker-launch.db' },
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'http://127.0.0.1:8080',
      deployment: 'staging',
      logLevel: 'info',
      rateLimitPerMinute: 1200,
      trustProxy: false,
      redis: undefined,
      metricsToken: undefined,
      migrateOnStart: true,
      requestTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      shutdownTimeoutMs: 20_000,
      shutdownDelayMs: 0,
      webhookAllowPrivateAddresses: false,
      webhookRetrySchedule: DEFAULT_WEBHOOK_RETRY_SCHEDULE,
      webhookTimeoutMs: 10_000,
      console: true,
      activityRecords: true,
    });
  });

  it('reads the webhook settings, and refuses a schedule that is not a list of whole seconds or a timeout out of range', () => {
    expect(
      loadConfig({
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1, 2,60',
        WEBHOOK_TIMEOUT: '3',
      }),
    ).toMatchObject({
      webhookAllowPrivateAddresses: true,
      webhookRetrySchedule: [1, 2, 60],
      webhookTimeoutMs: 3000,
    });
    for (const timeout of ['0', '61', '2.5']) {
      expect(() => loadConfig({ WEBHOOK_TIMEOUT: timeout }), timeout).toThrow(
        `WEBHOOK_TIMEOUT must be a whole number of seconds from 1 to 60, got "${timeout}"`,
      );
    }
    for (const schedule of ['1,,2', '0', '1.5', 'soon', Array.from({ length: 31 }, () => '1').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: schedule }), schedule).toThrow(
        'WEBHOOK_RETRY_SCHEDULE must be 1 to 30 comma-separated whole numbers of seconds',
      );
    }
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'yes' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_ADDRESSES must be true or false',
    );
  });

  it('turns the console and the activity records off with CONSOLE=off and ACTIVITY_RECORDS=off, nothing else', () => {
    expect(loadConfig({ CONSOLE: 'off', ACTIVITY_RECORDS: 'off' })).toMatchObject({
      console: false,
      activityRecords: false,
    });
    expect(() => loadConfig({ CONSOLE: 'no' })).toThrow('CONSOLE must be on or off, got "no"');
    expect(() => loadConfig({ ACTIVITY_RECORDS: 'false' })).toThrow(
      'ACTIVITY_RECORDS must be on or off, got "false"',
    );
  });

  it('reads the operations settings: metrics token, migration at start and the timeouts in seconds', () => {
    expect(
      loadConfig({
        METRICS_TOKEN: 'scrape-token-0123456789',
        MIGRATE_ON_START: 'false',
        REQUEST_TIMEOUT: '5',
        KEEP_ALIVE_TIMEOUT: '65',
        SHUTDOWN_TIMEOUT: '30',
        SHUTDOWN_DELAY: '10',
      }),
    ).toMatchObject({
      metricsToken: 'scrape-token-0123456789',
      migrateOnStart: false,
      requestTimeoutMs: 5000,
      keepAliveTimeoutMs: 65_000,
      shutdownTimeoutMs: 30_000,
      shutdownDelayMs: 10_000,
    });
  });

  it('refuses a SHUTDOWN_DELAY that is not whole seconds from 0 to 300, in one line naming it', () => {
    expect(loadConfig({ SHUTDOWN_DELAY: '0' }).shutdownDelayMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DELAY: '300' }).shutdownDelayMs).toBe(300_000);
    for (const value of ['-1', '301', '1.5', '5s', 'ten', '0x10']) {
      expect(() => loadConfig({ SHUTDOWN_DELAY: value })).toThrow(
        new ConfigError(`SHUTDOWN_DELAY must be a whole number of seconds from 0 to 300, got "${value}"`),
      );
    }
  });

  it('reads PostgreSQL, a public URL without its trailing slash, and production', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app@db.internal:5432/poker',
      HOST: '0.0.0.0',
      PORT: '9000',
      PUBLIC_URL: 'https://play.casino.example/',
      POKER_LAUNCH_ENV: 'production',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      database: { dialect: 'postgres', url: 'postgres://app@db.internal:5432/poker' },
      publicUrl: 'https://play.casino.example',
      deployment: 'production',
    });
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:8080');
  });

  it('reads TRUST_PROXY as off or a list of proxy addresses, CIDRs and named ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1, 192.0.2.7, fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      '192.0.2.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses a TRUST_PROXY hop count, which anyone can spoof, saying what to give instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(
      'TRUST_PROXY takes no hop count ("2"): a client can add hops of its own to X-Forwarded-For. ' +
        'Give the addresses/CIDRs of your proxies, e.g. TRUST_PROXY=10.0.0.0/8',
    );
  });

  it('refuses a TRUST_PROXY range wider than a /8, IPv4 or mapped into IPv6, which believes nearly any caller', () => {
    for (const wide of [
      '0.0.0.0/1,128.0.0.0/1',
      '10.0.0.0/7',
      '::/0',
      '2000::/3',
      '::/64',
      '::ffff:0:0/96',
      '::ffff:10.0.0.0/103',
    ]) {
      const first = wide.split(',')[0];
      expect(() => loadConfig({ TRUST_PROXY: wide }), wide).toThrow(
        `TRUST_PROXY ranges hold no more than a /8: "${first}"`,
      );
    }
    // As wide as proxies need: a private /8, a cloud balancer's public range, an IPv6 /32, mapped /104.
    for (const fine of [
      '10.0.0.0/8',
      '35.191.0.0/16',
      '2606:4700::/32',
      '::ffff:10.0.0.0/104',
      'uniquelocal',
    ])
      expect(loadConfig({ TRUST_PROXY: fine }).trustProxy, fine).toEqual([fine]);
  });

  it('refuses TRUST_PROXY=true, which lets any caller choose its address, naming the list form', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      'TRUST_PROXY=true is refused: it would let anyone who connects choose the address it is counted by. ' +
        'Give the addresses/CIDRs of your proxies, e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=10.0.0.0/8',
    );
  });

  it('reads REDIS_URL, its key prefix and its timeout', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379/2',
      keyPrefix: 'poker-launch:',
      timeoutMs: 20,
    });
    expect(loadConfig({ REDIS_URL: 'redis://x', REDIS_TIMEOUT_MS: '150' }).redis?.timeoutMs).toBe(150);
    expect(
      loadConfig({ REDIS_URL: 'rediss://cache', REDIS_KEY_PREFIX: 'staging:pl:' }).redis?.keyPrefix,
    ).toBe('staging:pl:');
  });

  it('quotes a refused REDIS_URL without its password', () => {
    for (const url of [
      'redis://:s3cret@cache/quotas',
      'redis://app:s3cret@ca che',
      'http://app:s3/cr@et@cache',
    ]) {
      expect(() => loadConfig({ REDIS_URL: url })).toThrow(ConfigError);
      expect(() => loadConfig({ REDIS_URL: url })).toThrow(/:\*\*\*@/);
      expect(() => loadConfig({ REDIS_URL: url })).not.toThrow(/s3/);
    }
    expect(loadConfig({ REDIS_URL: 'redis://:s3cret@cache:6380/3' }).redis?.url).toBe(
      'redis://:s3cret@cache:6380/3',
    );
    expect(loadConfig({ REDIS_URL: 'redis://cache/' }).redis?.url).toBe('redis://cache/');
  });

  it.each([
    'postgres://app@db.internal/poker?sslmode=verify-full',
    'postgres:///poker?host=/var/run/postgresql',
    'postgresql://app:p%2Fw@db.internal:5432/poker#x',
  ])('takes a PostgreSQL URL that names its database: %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ dialect: 'postgres', url });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be sqlite:<path> or postgres:/],
    [{ DATABASE_URL: 'sqlite:' }, /DATABASE_URL: sqlite: needs a file path/],
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/' }, /DATABASE_URL names no database/],
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432' }, /DATABASE_URL names no database/],
    [{ DATABASE_URL: 'postgresql://u:p@db/?sslmode=require' }, /DATABASE_URL names no database/],
    [{ PORT: '0' }, /PORT must be a whole number from 1 to 65535, got "0"/],
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PUBLIC_URL: 'ftp://x.example' }, /PUBLIC_URL must be an http\(s\) URL/],
    [{ PUBLIC_URL: 'https://x.example/?a=1' }, /without query/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be an absolute http\(s\) URL/],
    [{ POKER_LAUNCH_ENV: 'prod' }, /POKER_LAUNCH_ENV must be one of staging, production, got "prod"/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /RATE_LIMIT_PER_MINUTE must be a whole number from 0/],
    [{ TRUST_PROXY: 'the balancer' }, /TRUST_PROXY must be false or a comma list of proxy/],
    [{ TRUST_PROXY: '10.0.0.0/33, 10.0.0.1' }, /not an address or CIDR: "10.0.0.0\/33"$/],
    [{ TRUST_PROXY: '300.1.1.1' }, /not an address or CIDR: "300.1.1.1"/],
    [{ REDIS_URL: 'http://cache:6379' }, /REDIS_URL must start with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL must be redis:\/\//],
    [{ REDIS_URL: 'cache:6379' }, /REDIS_URL must start with redis:\/\/ or rediss:\/\/, got "cache:6379"/],
    [{ REDIS_URL: 'redis://' }, /REDIS_URL names no host/],
    [{ REDIS_URL: 'redis://cache:0' }, /REDIS_URL's port must be 1 to 65535/],
    [
      { REDIS_URL: 'redis://cache/quotas' },
      /REDIS_URL's database must be a number \(\/0, \/1, ...\), got "redis:\/\/cache\/quotas"/,
    ],
    [{ REDIS_URL: 'redis://cache/1/2' }, /REDIS_URL's database must be a number/],
    [{ REDIS_URL: 'redis://x', REDIS_KEY_PREFIX: 'a b' }, /REDIS_KEY_PREFIX must be 1 to 64/],
    [{ REDIS_URL: 'redis://x', REDIS_TIMEOUT_MS: '0' }, /REDIS_TIMEOUT_MS must be a whole number of milli/],
    [{ REDIS_URL: 'redis://x', REDIS_TIMEOUT_MS: '2.5' }, /REDIS_TIMEOUT_MS must be a whole number of milli/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be 16 to 256 printable characters/],
    [{ METRICS_TOKEN: 'has a space in the middle' }, /METRICS_TOKEN must be 16 to 256/],
    [{ MIGRATE_ON_START: 'no' }, /MIGRATE_ON_START must be true or false, got "no"/],
    [{ REQUEST_TIMEOUT: '0' }, /REQUEST_TIMEOUT must be a whole number of seconds from 1 to 300, got "0"/],
    [{ KEEP_ALIVE_TIMEOUT: '1.5' }, /KEEP_ALIVE_TIMEOUT must be a whole number of seconds from 1 to 600/],
    [{ SHUTDOWN_TIMEOUT: '301' }, /SHUTDOWN_TIMEOUT must be a whole number of seconds from 1 to 300/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
