import { findClient } from '@poker-launch/server/admin';
import { describe, expect, it } from 'vitest';
import { runAtTerminal } from '../test-support/run-at-terminal.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase, useTempSqlite } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch client add and show on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('adds a client with a generated secret, prints it once, and stores exactly that secret', async () => {
    const added = await cli('client', 'add', 'casino-1', '--frame-origin', 'https://Casino.example/');
    expect(added.code).toBe(0);
    // The secret alone on stdout, so that SECRET=$(poker-launch client add …) captures it; the rest on stderr.
    expect(added.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const secret = added.stdout.trim();
    // Not "shown this once": the service keeps the secret to verify signatures, and says where it is.
    expect(added.stderr).toContain(
      'client casino-1 added\n' +
        'store the secret above now; poker-launch client show casino-1 --show-secret prints it again\n',
    );

    const shown = await cli('client', 'show', 'casino-1');
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain(secret);
    expect(shown.stdout).toMatch(/secret\s+set/);
    expect(shown.stdout).toMatch(/frame origins\s+https:\/\/casino\.example\n/);
    expect((await cli('client', 'show', 'casino-1', '--show-secret')).stdout).toContain(secret);

    const stored = await database().open();
    try {
      expect(await findClient(stored.db, 'casino-1')).toMatchObject({ secretKey: secret, active: true });
    } finally {
      await stored.close();
    }
  });

  it('reads --secret - from standard input, off the command line, for add and update; none there exits 2', async () => {
    const piped = (stdin: string | undefined, ...args: string[]) =>
      runPokerLaunch(args, { DATABASE_URL: database().url }, stdin === undefined ? {} : { stdin });
    const added = await piped('piped-secret-0123456\n', 'client', 'add', 'casino-p', '--secret', '-');
    expect(added).toMatchObject({ code: 0, stdout: 'client casino-p added\n' });
    const updated = await piped('rotated-secret-6543210\n', 'client', 'update', 'casino-p', '--secret', '-');
    expect(updated.code, updated.stderr).toBe(0);
    const nothing = await piped(undefined, 'client', 'add', 'casino-q', '--secret', '-');
    expect(nothing).toMatchObject({
      code: 2,
      stderr: 'poker-launch client add: --secret -: no secret on standard input\n',
    });
    const stored = await database().open();
    try {
      expect((await findClient(stored.db, 'casino-p'))?.secretKey).toBe('rotated-secret-6543210');
      expect(await findClient(stored.db, 'casino-q')).toBeUndefined();
    } finally {
      await stored.close();
    }
  });

  it('shows a client as JSON without its secret unless --show-secret', async () => {
    await cli(
      'client',
      'add',
      'casino-2',
      '--secret',
      'sixteen-chars-ok',
      '--currency-mandatory',
      '--player-ids',
      'internal',
      '--url-casino',
      'https://casino.example/game',
    );
    const shown = JSON.parse((await cli('client', 'show', 'casino-2', '--json')).stdout);
    expect(shown).toEqual({
      id: 'casino-2',
      active: true,
      hasSecret: true,
      currencyMandatory: true,
      playerIds: 'internal',
      launchUrls: { poker: null, casinoLobby: null, casino: 'https://casino.example/game', sport: null },
      frameOrigins: [],
      previousSecretUntil: null,
      replayProtection: 'off',
      replayWindowSeconds: 300,
      replayWidening: null,
      signature: 'legacy',
      allowedAddresses: [],
      createdAt: expect.any(String),
    });
    const withSecret = JSON.parse(
      (await cli('client', 'show', 'casino-2', '--json', '--show-secret')).stdout,
    );
    expect(withSecret.secret).toBe('sixteen-chars-ok');

    // A URL stored before launch URLs were refused with control characters (or written by hand): the
    // table shows its escape, the terminal does not obey it; --json escapes it as JSON does.
    const opened = await database().open();
    try {
      await opened.db
        .updateTable('clients')
        .set({ url_poker: 'https://casino.example/\u001b]0;pwned\u0007' })
        .where('id', '=', 'casino-2')
        .execute();
    } finally {
      await opened.close();
    }
    const text = await cli('client', 'show', 'casino-2');
    expect(text.stdout).toMatch(/^poker URL +https:\/\/casino\.example\/\\x1B\]0;pwned\\x07$/m);
    expect(text.stdout).not.toContain('\u001b');
  });

  it('refuses a duplicate id with exit code 1 and a message naming it', async () => {
    expect((await cli('client', 'add', 'casino-1', '--no-secret')).code).toBe(0);
    const again = await cli('client', 'add', 'casino-1', '--no-secret');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'poker-launch client add: client "casino-1" exists already; change it with "client update casino-1"\n',
    );
  });
  it('warns on stderr whenever a client is left without a secret, by add or by update', async () => {
    const warning = (id: string) =>
      `warning: client ${id} has no secret: its requests need no signature, so anyone who can reach the API launches any of its players; set one with: poker-launch client update ${id} --rotate-secret\n`;
    const added = await cli('client', 'add', 'open', '--no-secret');
    expect(added).toMatchObject({ code: 0, stdout: 'client open added\n', stderr: warning('open') });
    expect((await cli('client', 'add', 'signed', '--secret', 'the-first-secret-00')).stderr).toBe('');
    const removed = await cli('client', 'update', 'signed', '--no-secret');
    expect(removed).toMatchObject({ code: 0, stdout: 'client signed updated\n', stderr: warning('signed') });
    expect((await cli('client', 'update', 'signed', '--currency-mandatory')).stderr).toBe('');
  });

  it("disables a client and revokes its players' live sessions, not the expired ones", async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const playerId = (await cli('player', 'add', 'u1', '--client', 'casino-1')).stdout.trim();
    const stored = await database().open();
    try {
      const session = (id: string, expiresAt: string) => ({
        id,
        token_hash: `hash-${id}`,
        client_id: 'casino-1',
        player_id: playerId,
        external_session_id: `ext-${id}`,
        api_version: 'v2',
        game_code: 'poker',
        auth_type: 'external',
        lang: 'en',
        long_life: 0,
        created_at: '2020-01-01T00:00:00.000Z',
        expires_at: expiresAt,
      });
      await stored.db
        .insertInto('sessions')
        .values([session('live', '2999-01-01T00:00:00.000Z'), session('expired', '2020-01-01T00:10:00.000Z')])
        .execute();

      const disabled = await cli('client', 'disable', 'casino-1');
      expect(disabled).toMatchObject({
        code: 0,
        stdout: 'client casino-1 disabled; 1 live session revoked\n',
      });
      const rows = await stored.db
        .selectFrom('sessions')
        .select(['id', 'revoked_at'])
        .orderBy('id')
        .execute();
      expect(rows.map((row) => [row.id, row.revoked_at === null ? 'not revoked' : 'revoked'])).toEqual([
        ['expired', 'not revoked'],
        ['live', 'revoked'],
      ]);
      expect(JSON.parse((await cli('client', 'show', 'casino-1', '--json')).stdout).active).toBe(false);
      // Again: says so, as "user revoke" and "player unblock" do, not as if it had just been disabled.
      expect(await cli('client', 'disable', 'casino-1')).toMatchObject({
        code: 0,
        stdout: 'client casino-1 was disabled already; 0 live sessions revoked\n',
      });
    } finally {
      await stored.close();
    }
  });
});

describe('poker-launch client', () => {
  const database = useTempSqlite();
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const showJson = async (id: string) => JSON.parse((await cli('client', 'show', id, '--json')).stdout);

  // Alone, it used to answer "nothing to change", as if the flag were not there (docs/cli.md, "Clients").
  it('says --keep-previous-for needs --secret, also when it is the only flag', async () => {
    await cli('client', 'add', 'casino-1');
    expect(await cli('client', 'update', 'casino-1', '--keep-previous-for', '3h')).toMatchObject({
      code: 2,
      stderr: 'poker-launch client update: --keep-previous-for needs --secret <new> or --rotate-secret\n',
    });
  });

  it('refuses a bad id, a short secret, a non-http URL and an origin with a path, all in one line', async () => {
    const result = await cli(
      'client',
      'add',
      'bad/id',
      '--secret',
      'too-short',
      '--url-sport',
      'javascript:alert(1)',
      '--frame-origin',
      'https://casino.example/path',
    );
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    for (const part of [
      'client id "bad/id"',
      'secret must be 16',
      'sport URL',
      'https://casino.example/path',
    ]) {
      expect(lines[0]).toContain(part);
    }
    // A launch URL with an escape sequence was stored as given, and client show printed it to the
    // terminal; one too long was "not an absolute http or https URL", quoted whole.
    const long = `https://casino.example/${'a'.repeat(3000)}`;
    const urls = await cli(
      'client',
      'add',
      'good',
      '--url-poker',
      'https://casino.example/\u001b[31m',
      '--url-casino',
      long,
    );
    expect(urls).toMatchObject({
      code: 1,
      stderr:
        'poker-launch client add: the poker URL has no control characters (tab, line break, escape…); ' +
        'the casino URL is at most 2048 characters\n',
    });
    expect(JSON.parse((await cli('client', 'list', '--json')).stdout)).toEqual([]);
  });

  it('answers wrong arguments with one line on stderr and exit code 2', async () => {
    for (const args of [
      ['client', 'add'],
      ['client', 'add', 'a', 'b'],
      ['client', 'add', 'a', '--player-ids', 'sometimes'],
      ['client', 'add', 'a', '--bogus'],
      ['client', 'update', 'a'],
      ['client', 'update', 'a', '--keep-previous-for', '24h'],
      ['client', 'update', 'a', '--secret', 'a-new-secret-0123', '--keep-previous-for', '24'],
    ]) {
      const result = await cli(...args);
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({
        args,
        code: 2,
        lines: 1,
      });
    }
  });

  it('updates only the flags given: rotates and removes the secret, clears URLs and origins, re-enables', async () => {
    await cli(
      'client',
      'add',
      'c1',
      '--url-poker',
      'https://c.example/poker',
      '--frame-origin',
      'https://c.example',
    );
    expect((await cli('client', 'update', 'c1', '--secret', 'a-new-secret-0123')).code).toBe(0);
    expect((await cli('client', 'show', 'c1', '--show-secret')).stdout).toContain('a-new-secret-0123');
    expect(await showJson('c1')).toMatchObject({
      launchUrls: { poker: 'https://c.example/poker' },
      frameOrigins: ['https://c.example'],
    });

    await cli(
      'client',
      'update',
      'c1',
      '--no-secret',
      '--no-url-poker',
      '--no-frame-origins',
      '--currency-mandatory',
    );
    expect(await showJson('c1')).toMatchObject({
      hasSecret: false,
      launchUrls: { poker: null },
      frameOrigins: [],
      currencyMandatory: true,
    });

    await cli(
      'client',
      'update',
      'c1',
      '--no-currency-mandatory',
      '--frame-origin',
      'https://a.example',
      '--frame-origin',
      'http://b.example:8080',
    );
    expect(await showJson('c1')).toMatchObject({
      currencyMandatory: false,
      frameOrigins: ['https://a.example', 'http://b.example:8080'],
    });

    expect((await cli('client', 'disable', 'c1')).code).toBe(0);
    expect(await showJson('c1')).toMatchObject({ active: false });
    expect((await cli('client', 'update', 'c1', '--enable')).code).toBe(0);
    expect(await showJson('c1')).toMatchObject({ active: true });
  });

  it('refuses --no-enable: only client disable disables, since it also ends the live sessions', async () => {
    await cli('client', 'add', 'c1', '--no-secret');
    // node's parser reads any --no-<flag> of a boolean as <flag>: false; this one disabled the client
    // through an update, its players' sessions left running.
    expect(await cli('client', 'update', 'c1', '--no-enable')).toMatchObject({
      code: 2,
      stderr:
        'poker-launch client update: unknown flag --no-enable; "poker-launch client update --help" lists its flags\n',
    });
    expect(await cli('client', 'list', '--no-json')).toMatchObject({ code: 2 });
    expect(await showJson('c1')).toMatchObject({ active: true });
  });

  it('refuses a frame origin no browser could have, and more origins than a CSP header should carry', async () => {
    const label64 = `https://${'a'.repeat(64)}.example`;
    const refused = await cli('client', 'add', 'c1', '--frame-origin', label64);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `its host an IP address or a DNS name (labels of 1 to 63 characters), got "${label64}"`,
    );
    const long = `https://${Array.from({ length: 6 }, () => 'b'.repeat(60)).join('.')}`;
    expect((await cli('client', 'add', 'c1', '--frame-origin', long)).stderr).toContain(
      `a frame origin is at most 300 characters, got ${long.length}`,
    );
    const many = Array.from({ length: 33 }, (_, i) => ['--frame-origin', `https://s${i}.example`]).flat();
    expect((await cli('client', 'add', 'c1', ...many)).stderr).toContain('at most 32 frame origins, got 33');
    expect(JSON.parse((await cli('client', 'list', '--json')).stdout)).toEqual([]);
    // The longest names DNS allows, and 32 origins, are taken.
    const label63 = `https://${'a'.repeat(63)}.example`;
    expect((await cli('client', 'add', 'c1', '--frame-origin', label63, ...many.slice(4))).code).toBe(0);
    expect((await showJson('c1')).frameOrigins).toHaveLength(32);
  });

  it('rotates a secret keeping the previous one for --keep-previous-for, and client show says until when', async () => {
    await cli('client', 'add', 'c1', '--secret', 'the-first-secret-00');
    const before = Date.now();
    const rotated = await cli(
      'client',
      'update',
      'c1',
      '--secret',
      'the-second-secret-0',
      '--keep-previous-for',
      '90m',
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const until = /stays valid until (\S+)\n$/.exec(rotated.stdout)?.[1] ?? '';
    expect(rotated.stdout).toBe(`client c1 updated; its previous secret stays valid until ${until}\n`);
    expect(Date.parse(until) - before).toBeGreaterThanOrEqual(90 * 60_000);
    expect(Date.parse(until) - Date.now()).toBeLessThanOrEqual(90 * 60_000);

    expect((await cli('client', 'show', 'c1')).stdout).toMatch(
      new RegExp(`previous secret\\s+still valid until ${until.replace(/\./g, '\\.')}\n`),
    );
    expect(await showJson('c1')).toMatchObject({ previousSecretUntil: until });
    const stored = await database().open();
    try {
      expect((await findClient(stored.db, 'c1'))?.previousSecret).toEqual({
        key: 'the-first-secret-00',
        until,
      });
    } finally {
      await stored.close();
    }

    expect((await cli('client', 'update', 'c1', '--secret', 'the-third-secret-00')).stdout).toBe(
      'client c1 updated\n',
    );
    expect((await cli('client', 'show', 'c1')).stdout).toMatch(/previous secret\s+none\n/);
    await cli('client', 'add', 'open', '--no-secret');
    const nothingKept = await cli(
      'client',
      'update',
      'open',
      '--secret',
      'the-first-secret-00',
      '--keep-previous-for',
      '1h',
    );
    expect(nothingKept.stdout).toBe('client open updated; it had no secret to keep\n');
  });

  it('--rotate-secret makes a new random secret, prints it once, and keeps the previous one for --keep-previous-for', async () => {
    // The secret never has to be on the command line, where the process list shows it.
    await cli('client', 'add', 'c2', '--secret', 'the-first-secret-00');
    const rotated = await cli('client', 'update', 'c2', '--rotate-secret', '--keep-previous-for', '1h');
    expect(rotated.code, rotated.stderr).toBe(0);
    // As client add: the secret alone on stdout, what was done and where to find it again on stderr.
    expect(rotated.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const secret = rotated.stdout.trim();
    expect(rotated.stderr).toMatch(
      /^client c2 updated; its previous secret stays valid until \S+\nstore the secret above now; poker-launch client show c2 --show-secret prints it again\n$/m,
    );
    const stored = await database().open();
    try {
      expect(await findClient(stored.db, 'c2')).toMatchObject({
        secretKey: secret,
        previousSecret: { key: 'the-first-secret-00' },
      });
    } finally {
      await stored.close();
    }
    expect(
      await cli('client', 'update', 'c2', '--rotate-secret', '--secret', 'another-secret-0000'),
    ).toMatchObject({
      code: 2,
      stderr:
        'poker-launch client update: --rotate-secret makes a new secret: give it without --secret or --no-secret\n',
    });
    expect(await cli('client', 'update', 'c2', '--rotate-secret')).toMatchObject({
      stdout: expect.stringMatching(/^[0-9a-f]{64}\n$/),
      stderr: expect.stringContaining('client c2 updated\nstore the secret above now;'),
    });
  });

  it('fails with exit code 1 on a client that does not exist', async () => {
    for (const args of [
      ['client', 'show', 'nobody'],
      ['client', 'update', 'nobody', '--enable'],
      ['client', 'disable', 'nobody'],
    ]) {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no client "nobody"');
    }
  });

  it('lists the clients in a table and as JSON, never with a secret', async () => {
    expect((await cli('client', 'list')).stdout).toContain('no clients');
    const secret = (await cli('client', 'add', 'alpha')).stdout.trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await cli('client', 'add', 'beta', '--no-secret', '--player-ids', 'internal');
    await cli('client', 'disable', 'beta');

    const table = await cli('client', 'list');
    expect(table.stdout).not.toContain(secret);
    const rows = table.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['ID', 'ACTIVE', 'SECRET', 'CURRENCY MANDATORY', 'PLAYER IDS'],
      ['alpha', 'yes', 'set', 'no', 'external'],
      ['beta', 'no', 'none', 'no', 'internal'],
    ]);
    const json = await cli('client', 'list', '--json');
    expect(json.stdout).not.toContain(secret);
    expect(
      JSON.parse(json.stdout).map((client: { id: string; hasSecret: boolean }) => [
        client.id,
        client.hasSecret,
      ]),
    ).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
  });
});

describe('poker-launch client add --secret - at a terminal', () => {
  const database = useTempDatabase('sqlite');

  it('asks for the secret twice without echoing it, and refuses two that differ', async () => {
    const SECRET = 'typed-secret-0123456789';
    const run = (answers: string[]) =>
      runAtTerminal(
        'client add casino-t --secret -',
        { DATABASE_URL: database().url },
        /Secret: |Repeat the secret: /g,
        answers,
      );
    const differ = await run([SECRET, 'something else entirely']);
    expect(differ).toContain('the two secrets differ; nothing was changed');
    const added = await run([SECRET, SECRET]);
    expect(added).toContain('client casino-t added');
    expect(added).not.toContain(SECRET);
    const stored = await database().open();
    try {
      expect((await findClient(stored.db, 'casino-t'))?.secretKey).toBe(SECRET);
    } finally {
      await stored.close();
    }
  });
});
