import { sha256Hex } from '@poker-launch/sdk/internal';
import { buildApp, type Database, LiveConfig, loadConfig, openDatabase } from '@poker-launch/server';
import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** Each command is a process of its own: a test making many of them needs time on a busy machine. */
const CLI_TEST_TIMEOUT_MS = 180_000;

describe.each(DIALECTS)('poker-launch user commands on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const databaseUrl = () => database().url;
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: databaseUrl() });

  /** Opens the database as the server does and opens a v3 game with the key, like an operator's script. */
  async function openGameWith(key: string): Promise<number> {
    const config = loadConfig({ DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent' });
    const database: Database = await openDatabase(config.database);
    const sessions = database.openSessionStore();
    const live = await LiveConfig.load(database.db);
    const app = await buildApp({ config, db: database.db, sessions, live });
    try {
      const now = new Date().toISOString();
      await database.db
        .insertInto('clients')
        .values({
          id: 'demo',
          secret_key: 's3cr3t',
          created_at: now,
          updated_at: now,
          frame_origins: '[]',
          active: 1,
          currency_mandatory: 0,
          player_id_mode: 'external',
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      await live.refresh();
      const response = await app.inject({
        method: 'POST',
        url: '/apiweb/v3/open-game?client=demo',
        headers: { 'content-type': 'application/vnd.api+json', authorization: `Bearer ${key}` },
        payload: { data: { type: 'OpenGame', attributes: { player: { id: 'u-1' } } } },
      });
      return response.statusCode;
    } finally {
      await app.close();
      await sessions.close();
      await database.close();
    }
  }

  it(
    'adds a user, prints its key once on stdout, stores only its SHA-256, and the key opens v3',
    async () => {
      const added = await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN');
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/^plk_[A-Za-z0-9_-]{43}\n$/);
      const key = added.stdout.trim();
      expect(added.stderr).toBe('created API user ops (ROLE_ADMIN); the key above is shown only this once\n');

      const config = loadConfig({ DATABASE_URL: databaseUrl() });
      const database = await openDatabase(config.database);
      try {
        const rows = await database.db.selectFrom('api_users').selectAll().execute();
        expect(rows).toEqual([
          expect.objectContaining({ name: 'ops', role: 'ROLE_ADMIN', key_hash: await sha256Hex(key) }),
        ]);
      } finally {
        await database.close();
      }
      expect(await openGameWith(key)).toBe(201);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'lists users with their access and clients and never a key, as a table or as JSON',
    async () => {
      expect((await cli('client', 'add', 'demo', '--secret', 's3cr3t-s3cr3t-16')).code).toBe(0);
      expect((await cli('client', 'add', 'casino-2', '--no-secret')).code).toBe(0);
      const ops = (await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN')).stdout.trim();
      const added = await cli(
        'user',
        'add',
        'casino-bot',
        '--permission',
        'CREATE:OpenGame',
        '--client',
        'demo',
      );
      expect(added.stderr).toBe(
        'created API user casino-bot (CREATE:OpenGame for demo); the key above is shown only this once\n',
      );
      const bot = added.stdout.trim();
      expect(await openGameWith(bot)).toBe(201);

      const listed = await cli('user', 'list');
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+ACCESS\s+CLIENTS\s+CREATED\s+REVOKED$/);
      expect(lines[1]).toMatch(/^casino-bot\s+CREATE:OpenGame\s+demo\s+\d{4}-\d\d-\d\dT[\d:.]+Z\s+-$/);
      expect(lines[2]).toMatch(/^ops\s+ROLE_ADMIN\s+every client\s+/);
      expect(listed.stderr).toBe('');
      const json = JSON.parse((await cli('user', 'list', '--json')).stdout);
      expect(
        json.map((user: { name: string; permissions: string[]; clients: string[] }) => [
          user.name,
          user.permissions,
          user.clients,
        ]),
      ).toEqual([
        ['casino-bot', ['CREATE:OpenGame'], ['demo']],
        ['ops', [], []],
      ]);
      for (const output of [listed.stdout, JSON.stringify(json)]) {
        for (const key of [ops, bot]) {
          expect(output).not.toContain(key);
          expect(output).not.toContain(await sha256Hex(key));
        }
      }

      const updated = await cli('user', 'update', 'casino-bot', '--client', 'casino-2', '--client', 'demo');
      expect(updated).toMatchObject({
        code: 0,
        stdout: 'API user casino-bot acts for: casino-2, demo (before: demo)\n',
      });
      expect((await cli('user', 'list')).stdout).toMatch(
        /^casino-bot\s+CREATE:OpenGame\s+casino-2, demo\s+/m,
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'flags a permission key bound to no client (made before bindings) in the list until it is bound',
    async () => {
      expect((await cli('client', 'add', 'demo', '--secret', 's3cr3t-s3cr3t-16')).code).toBe(0);
      const key = (
        await cli('user', 'add', 'old-bot', '--permission', 'CREATE:OpenGame', '--client', 'demo')
      ).stdout.trim();
      // What a key made before bindings looks like: no row in api_user_clients.
      const config = loadConfig({ DATABASE_URL: databaseUrl() });
      const database = await openDatabase(config.database);
      try {
        await database.db.deleteFrom('api_user_clients').execute();
      } finally {
        await database.close();
      }
      const listed = await cli('user', 'list');
      expect(listed.stdout).toMatch(
        /^old-bot\s+CREATE:OpenGame\s+ANY \(unbound: bind with user update --client\)\s+/m,
      );
      expect(listed.stderr).toBe(
        'warning: old-bot may act for every client; bind each with: poker-launch user update <name> --client <id>\n',
      );
      expect(await openGameWith(key)).toBe(201);
      expect((await cli('user', 'update', 'old-bot', '--client', 'demo')).code).toBe(0);
      expect((await cli('user', 'list')).stderr).toBe('');
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'revokes a user, after which its key answers 401; revoking again is harmless',
    async () => {
      const key = (await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN')).stdout.trim();
      const revoked = await cli('user', 'revoke', 'ops');
      expect(revoked).toMatchObject({ code: 0, stdout: 'revoked API user ops\n' });
      expect(await openGameWith(key)).toBe(401);
      const again = await cli('user', 'revoke', 'ops');
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^API user ops was revoked already, at \d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
      expect((await cli('user', 'list')).stdout).toMatch(
        /^ops\s+ROLE_ADMIN\s+every client\s+\S+\s+\d{4}-\d\d-\d\dT[\d:.]+Z$/m,
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'says "every client" for a global ROLE_ADMIN key, narrows it, makes it global again with --all-clients, and audits both scopes',
    async () => {
      expect((await cli('client', 'add', 'demo', '--secret', 's3cr3t-s3cr3t-16')).code).toBe(0);
      await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN');
      await cli('user', 'add', 'bot', '--permission', 'CREATE:OpenGame', '--client', 'demo');
      expect(await cli('user', 'update', 'ops', '--client', 'demo')).toMatchObject({
        code: 0,
        stdout: 'API user ops acts for: demo (before: every client)\n',
      });
      expect((await cli('user', 'list')).stdout).toMatch(/^ops\s+ROLE_ADMIN\s+demo\s+/m);
      const both = await cli('user', 'update', 'ops', '--all-clients', '--client', 'demo');
      expect([both.code, both.stderr]).toEqual([
        2,
        'poker-launch user update: --all-clients and --client contradict each other: give one\n',
      ]);
      expect(await cli('user', 'update', 'ops', '--all-clients')).toMatchObject({
        code: 0,
        stdout: 'API user ops acts for: every client (before: demo)\n',
      });
      expect((await cli('user', 'list')).stdout).toMatch(/^ops\s+ROLE_ADMIN\s+every client\s+/m);
      // Already so: said, and not recorded as a change.
      expect(await cli('user', 'update', 'ops', '--all-clients')).toMatchObject({
        code: 0,
        stdout: 'API user ops acts for: every client (nothing changed)\n',
      });
      // A permission key acts only for the clients it names.
      const global = await cli('user', 'update', 'bot', '--all-clients');
      expect([global.code, global.stderr]).toEqual([
        1,
        'poker-launch user update: only a ROLE_ADMIN key acts for every client; bot names the clients it acts for\n',
      ]);
      const audit = JSON.parse((await cli('audit', 'list', '--json')).stdout);
      expect(
        audit
          .filter((record: { action: string }) => record.action === 'api-user.bind-clients')
          .map((record: { details: unknown }) => record.details),
      ).toEqual([
        { name: 'ops', clients: 'every client', clientsBefore: ['demo'] },
        { name: 'ops', clients: ['demo'], clientsBefore: 'every client' },
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses wrong calls with exit code 2 and one line on stderr',
    async () => {
      const usage = [
        await cli('user', 'add', 'ops'),
        await cli('user', 'add', 'ops', '--role', 'ROLE_GOD'),
        await cli('user', 'add', 'ops', '--permission', 'DELETE:Everything'),
        await cli('user', 'add', '--role', 'ROLE_ADMIN'),
        await cli('user', 'revoke'),
        await cli('user', 'update', 'ops'),
        await cli('user', 'add', 'bot', '--permission', 'CREATE:OpenGame'),
      ];
      for (const result of usage) {
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(usage[0]?.stderr).toBe(
        'poker-launch user add: give --role ROLE_ADMIN or --permission CREATE:OpenGame\n',
      );
      // The value refused, quoted, as other flags with choices do (--player-ids, --scheme).
      expect(usage[1]?.stderr).toBe(
        'poker-launch user add: --role must be one of ROLE_ADMIN, got "ROLE_GOD"\n',
      );
      expect(usage[2]?.stderr).toBe(
        'poker-launch user add: --permission must be one of CREATE:OpenGame, got "DELETE:Everything"\n',
      );
      // --client is missing from the command line, as for the player commands: no user was made.
      expect(usage.at(-1)?.stderr).toBe(
        'poker-launch user add: a key with CREATE:OpenGame acts for the clients it names: give --client <id> (repeatable)\n',
      );
      expect((await cli('user', 'list', '--json')).stdout).toBe('[]\n');
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a taken name, a bad name and an unknown user with exit code 1 and one line on stderr',
    async () => {
      await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN');
      const refused = [
        await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN'),
        await cli('user', 'add', 'two words', '--role', 'ROLE_ADMIN'),
        await cli('user', 'revoke', 'nobody'),
        await cli('user', 'add', 'bot', '--permission', 'CREATE:OpenGame', '--client', 'ghost'),
        await cli('user', 'update', 'ops', '--client', 'ghost'),
      ];
      expect(refused.map((result) => [result.code, result.stderr])).toEqual([
        [1, 'poker-launch user add: a user named "ops" exists already\n'],
        [
          1,
          'poker-launch user add: a user name is 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit\n',
        ],
        // Worded as every other command's unknown id, with where to look (docs/cli.md, "Exit codes").
        [1, 'poker-launch user revoke: no API user named "nobody"; see "user list"\n'],
        [1, 'poker-launch user add: no client "ghost"; see "client list"\n'],
        [1, 'poker-launch user update: no client "ghost"; see "client list"\n'],
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'explains itself with --help',
    async () => {
      const help = await cli('user', 'add', '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(
        'usage: poker-launch user add <name> (--role ROLE_ADMIN | --permission CREATE:OpenGame --client <id>...)',
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
