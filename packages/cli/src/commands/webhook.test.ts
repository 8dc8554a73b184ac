import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch webhook on %s', (kind) => {
  const database = useTempDatabase(kind);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('adds an endpoint, printing its id and secret once; lists, updates, rotates and removes it', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const added = await cli(
      'webhook',
      'add',
      'casino-1',
      'https://hooks.example.com/poker',
      '--events',
      // A name given twice is one event type, counted once (it said "3 event types").
      'session.revoked,player.blocked,session.revoked',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(
      /^added endpoint ep_\w+ for 2 event types; the secret above is shown only this once\n$/,
    );
    const [id = '', secret = ''] = added.stdout.trim().split('\n');
    expect(id).toMatch(/^ep_[0-9a-f]{24}$/);
    // whsec_ and the base64 of 32 random bytes.
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const listed = JSON.parse((await cli('webhook', 'list', '--json')).stdout);
    expect(listed).toEqual([
      {
        id,
        clientId: 'casino-1',
        url: 'https://hooks.example.com/poker',
        events: ['player.blocked', 'session.revoked'],
        enabled: true,
        disabledReason: null,
        previousSecretUntil: null,
        createdAt: expect.any(String),
        failingSince: null,
        nextProbeAt: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    // The event types by name (all of them: `all`), the URL last.
    expect((await cli('webhook', 'list')).stdout).toContain(
      `${id}  casino-1  yes      player.blocked,session.revoked  https://hooks.example.com/poker`,
    );

    // Failing, as the deliverer writes it (endpoint-health.ts): shown so, until an update forgets it.
    const stored = await database().open();
    try {
      await stored.db
        .insertInto('webhook_endpoint_health')
        .values({
          endpoint_id: id,
          failed_attempts: 64,
          failing_since: '2026-11-28T01:00:00.000Z',
          next_probe_at: '2026-11-28T02:00:00.000Z',
          failed_probes: 3,
        })
        .execute();
    } finally {
      await stored.close();
    }
    expect(JSON.parse((await cli('webhook', 'list', '--json')).stdout)[0]).toMatchObject({
      failingSince: '2026-11-28T01:00:00.000Z',
      nextProbeAt: '2026-11-28T02:00:00.000Z',
    });
    expect((await cli('webhook', 'list')).stdout).toContain(
      `${id}  casino-1  yes (failing since 2026-11-28T01:00:00.000Z, next probe 2026-11-28T02:00:00.000Z)`,
    );
    expect((await cli('webhook', 'update', id, '--enable')).code).toBe(0);
    expect(JSON.parse((await cli('webhook', 'list', '--json')).stdout)[0]).toMatchObject({
      failingSince: null,
      nextProbeAt: null,
    });

    const rotated = await cli(
      'webhook',
      'update',
      id,
      '--rotate-secret',
      '--disable',
      '--events',
      'session.expired',
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const newSecret = rotated.stdout.trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    const [updated] = JSON.parse((await cli('webhook', 'list', '--client', 'casino-1', '--json')).stdout);
    expect(updated).toMatchObject({
      enabled: false,
      disabledReason: 'operator',
      events: ['session.expired'],
    });
    expect(Date.parse(updated.previousSecretUntil) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await cli('webhook', 'update', id, '--enable')).code).toBe(0);
    expect((await cli('webhook', 'deliveries', id)).stdout).toBe('no deliveries\n');
    expect((await cli('webhook', 'remove', id)).stdout).toBe(
      `removed endpoint ${id}; no pending delivery dropped\n`,
    );
    expect((await cli('webhook', 'list', '--json')).stdout.trim()).toBe('[]');
  });

  it('refuses a bad URL, an unknown event type or client, and unknown ids', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const http = await cli('webhook', 'add', 'casino-1', 'http://hooks.example.com/x');
    expect(http).toMatchObject({ code: 1 });
    expect(http.stderr).toContain('a webhook URL must be https:');
    const local = await cli('webhook', 'add', 'casino-1', 'https://10.0.0.7/x');
    expect(local).toMatchObject({ code: 1 });
    expect(local.stderr).toContain('10.0.0.7 is not a public address');
    // A value not among --events' choices is a usage mistake (docs/cli.md, "Exit codes"): exit 2, one
    // line naming it and the valid types, before anything else is checked or stored.
    for (const args of [
      ['add', 'casino-1', 'https://10.0.0.7/x', '--events', 'session.nope,player.nah,session.create'],
      ['update', 'ep_nope', '--events', 'session.nope,player.nah,session.create'],
    ]) {
      const events = await cli('webhook', ...args);
      expect(events).toMatchObject({ code: 2, stdout: '' });
      expect(events.stderr.trim().split('\n')).toHaveLength(1);
      expect(events.stderr).toContain(
        '(not: session.nope, player.nah, session.create (did you mean session.created?))',
      );
      expect(events.stderr).toContain('session.revoked');
    }
    expect((await cli('webhook', 'add', 'nobody', 'https://hooks.example.com/x')).stderr).toContain(
      'no client "nobody"',
    );
    // Not "no webhook endpoints": a client that does not exist is refused like everywhere else.
    for (const flags of [[], ['--json']]) {
      expect(await cli('webhook', 'list', '--client', 'nobody', ...flags)).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'poker-launch webhook list: no client "nobody"; see "client list"\n',
      });
    }
    expect(await cli('webhook', 'list', '--client', 'casino-1')).toMatchObject({
      code: 0,
      stdout: 'no webhook endpoints; add one with: poker-launch webhook add <clientId> <url>\n',
    });
    expect((await cli('webhook', 'update', 'ep_nope', '--enable')).stderr).toContain(
      'no webhook endpoint "ep_nope"',
    );
    expect((await cli('webhook', 'update', 'ep_nope', '--enable', '--disable')).code).toBe(2);
    const [id = ''] = (await cli('webhook', 'add', 'casino-1', 'https://hooks.example.com/x')).stdout.split(
      '\n',
    );
    // Without --events it takes every type, which the table says in a word.
    expect((await cli('webhook', 'list')).stdout).toContain(
      `${id}  casino-1  yes      all     https://hooks.example.com/x`,
    );
    expect(await cli('webhook', 'update', id)).toMatchObject({
      code: 2,
      stderr: 'poker-launch webhook update: nothing to change; see --help for the flags\n',
    });
    expect((await cli('webhook', 'update', id, '--no-rotate-secret')).code).toBe(2);
    expect((await cli('webhook', 'deliveries', 'ep_nope')).code).toBe(1);
    expect((await cli('webhook', 'redeliver', 'msg_nope')).stderr).toContain('no delivery "msg_nope"');
    expect((await cli('webhook', 'remove', 'ep_nope')).code).toBe(1);
  });

  it("redelivers an endpoint's failed deliveries at once, refuses mixed or bad flags, and says what a removal dropped", async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const [id = ''] = (
      await cli('webhook', 'add', 'casino-1', 'https://hooks.example.com/x?token=t')
    ).stdout.split('\n');
    const stored = await database().open();
    try {
      await stored.db
        .insertInto('webhook_deliveries')
        .values(
          ['2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z', '2026-11-28T01:00:00.000Z'].map(
            (at, index) => ({
              id: `msg_000${index}`,
              endpoint_id: id,
              client_id: 'casino-1',
              event_type: 'session.created',
              occurred_at: at,
              state: 'failed',
              attempts: 4,
              next_attempt_at: at,
              created_at: at,
            }),
          ),
        )
        .execute();
    } finally {
      await stored.close();
    }
    for (const args of [
      ['msg_0000', '--endpoint', id, '--failed'],
      ['--endpoint', id],
      ['--endpoint', id, '--failed', '--since', 'yesterday'],
      ['msg_0000', '--failed'],
    ]) {
      const refused = await cli('webhook', 'redeliver', ...args);
      expect(refused).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(
      (
        await cli(
          'webhook',
          'redeliver',
          '--endpoint',
          id,
          '--failed',
          '--since',
          '2026-11-28T01:00:00+01:00',
        )
      ).stdout,
    ).toBe(`2 failed deliveries of ${id} made since 2026-11-28T00:00:00.000Z will be sent again\n`);
    expect((await cli('webhook', 'redeliver', '--endpoint', id, '--failed')).stdout).toBe(
      `1 failed delivery of ${id} will be sent again\n`,
    );
    const audit = JSON.parse((await cli('audit', 'list', '--json')).stdout) as {
      action: string;
      details: Record<string, unknown>;
    }[];
    expect(
      audit.filter((record) => record.action === 'webhook.redeliver').map((record) => record.details),
    ).toEqual([
      { endpointId: id, failed: true, redelivered: 1, since: null },
      { endpointId: id, failed: true, redelivered: 2, since: '2026-11-28T00:00:00.000Z' },
    ]);
    expect((await cli('webhook', 'update', id, '--disable')).code).toBe(0);
    expect(await cli('webhook', 'redeliver', '--endpoint', id, '--failed')).toMatchObject({
      code: 1,
      stderr: `poker-launch webhook redeliver: endpoint "${id}" is disabled; "webhook update ${id} --enable" first\n`,
    });
    expect((await cli('webhook', 'update', id, '--enable')).code).toBe(0);
    expect((await cli('webhook', 'redeliver', '--endpoint', id, '--failed')).stdout).toBe(
      `3 failed deliveries of ${id} will be sent again\n`,
    );
    expect((await cli('webhook', 'remove', id)).stdout).toBe(
      `removed endpoint ${id}; 3 pending deliveries dropped\n`,
    );
    const [removal] = JSON.parse((await cli('audit', 'list', '--json')).stdout);
    expect(removal).toMatchObject({
      action: 'webhook.remove',
      details: { clientId: 'casino-1', url: 'https://hooks.example.com/x?…', pendingDropped: 3 },
    });
  });

  it('takes http: and private addresses with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true outside production only', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const env = { DATABASE_URL: database().url, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };
    expect((await runPokerLaunch(['webhook', 'add', 'casino-1', 'http://127.0.0.1:9/x'], env)).code).toBe(0);
    const production = await runPokerLaunch(['webhook', 'add', 'casino-1', 'http://127.0.0.1:9/x'], {
      ...env,
      POKER_LAUNCH_ENV: 'production',
    });
    expect(production.stderr).toContain('a webhook URL must be https: in production');
  });
});
