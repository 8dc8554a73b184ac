import { userInfo } from 'node:os';
import { findOperator, listAuditRecords } from '@poker-launch/server/admin';
import { describe, expect, it } from 'vitest';
import { runAtTerminal } from '../test-support/run-at-terminal.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const PASSWORD = 'a long enough password';

describe.each(DIALECTS)('poker-launch operator commands on %s', (kind) => {
  const database = useTempDatabase(kind);
  const cli = (args: string[], input?: string) =>
    runPokerLaunch(args, { DATABASE_URL: database().url }, input === undefined ? {} : { stdin: input });
  const stored = async <T>(
    read: (db: Awaited<ReturnType<ReturnType<typeof database>['open']>>['db']) => Promise<T>,
  ) => {
    const opened = await database().open();
    try {
      return await read(opened.db);
    } finally {
      await opened.close();
    }
  };

  it('adds an operator with the password from standard input, stores only its Argon2id hash, and lists it', async () => {
    const added = await cli(['operator', 'add', 'alice', '--role', 'admin'], `${PASSWORD}\n`);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('operator alice added (admin); sign in at /console\n');
    const hash = await stored((db) =>
      db
        .selectFrom('operators')
        .select('password_hash')
        .where('username', '=', 'alice')
        .executeTakeFirstOrThrow(),
    );
    expect(hash.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash.password_hash).not.toContain(PASSWORD);

    const listed = await cli(['operator', 'list']);
    expect(listed.stdout).toMatch(
      /^USERNAME +ROLE +ACTIVE +CREATED +LAST SIGN-IN\nalice +admin +yes +\d{4}-/,
    );
    expect(listed.stdout).not.toContain('argon2');
  });

  it('refuses a short password, no password, a bad role and a taken name, changing nothing', async () => {
    const short = await cli(['operator', 'add', 'bob', '--role', 'support'], 'eleven char\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('a password needs 12 characters or more; nothing was changed');
    const none = await cli(['operator', 'add', 'bob', '--role', 'support']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no password');
    const role = await cli(['operator', 'add', 'bob', '--role', 'owner'], `${PASSWORD}\n`);
    expect(role.code).toBe(2);
    // Worded as the other flags with choices: the value given, and a missing flag called missing.
    expect(role.stderr).toBe('poker-launch operator add: --role must be admin or support, got "owner"\n');
    const noRole = await cli(['operator', 'add', 'bob'], `${PASSWORD}\n`);
    expect(noRole).toMatchObject({
      code: 2,
      stderr: 'poker-launch operator add: --role admin|support is required\n',
    });
    expect(await stored((db) => findOperator(db, 'bob'))).toBeUndefined();
    await cli(['operator', 'add', 'bob', '--role', 'support'], `${PASSWORD}\n`);
    // Before the password is asked for: at a terminal it was typed twice, and hashed, for nothing.
    const taken = await cli(['operator', 'add', 'bob', '--role', 'admin']);
    expect(taken).toMatchObject({
      code: 1,
      stderr: 'poker-launch operator add: an operator named "bob" exists already\n',
    });
    const [badName, unknown] = await Promise.all([
      cli(['operator', 'add', 'Bob', '--role', 'admin']),
      cli(['operator', 'password', 'nobody']),
    ]);
    expect(badName).toMatchObject({
      code: 1,
      stderr:
        'poker-launch operator add: a username is 1 to 64 lower-case letters, digits, ".", "_", "@" or "-", starting with a letter or digit\n',
    });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'poker-launch operator password: no operator named "nobody"; see "operator list"\n',
    });
  });

  it('disables an operator and changes a password, ending their console sessions; the audit log names the OS user', async () => {
    await cli(['operator', 'add', 'carol', '--role', 'support'], `${PASSWORD}\n`);
    await stored((db) =>
      db
        .insertInto('operator_sessions')
        .values({
          token_hash: 'h'.repeat(64),
          username: 'carol',
          created_at: '2026-01-01T00:00:00.000Z',
          last_seen_at: '2026-01-01T00:00:00.000Z',
          expires_at: '2099-01-01T00:00:00.000Z',
          address: null,
        })
        .execute(),
    );
    const changed = await cli(['operator', 'password', 'carol'], 'another long password\n');
    expect(changed.stdout).toBe('password of operator carol changed; 1 console session ended\n');
    const disabled = await cli(['operator', 'disable', 'carol']);
    expect(disabled.stdout).toBe('operator carol disabled; 0 console sessions ended\n');
    expect((await stored((db) => findOperator(db, 'carol')))?.active).toBe(false);
    expect((await cli(['operator', 'disable', 'nobody'])).stderr).toContain('no operator named "nobody"');

    const records = await stored((db) => listAuditRecords(db, { limit: 10 }));
    expect(records.map((record) => record.action)).toEqual([
      'operator.disable',
      'operator.password',
      'operator.add',
    ]);
    expect(records[0]?.actor).toMatchObject({ via: 'cli', name: userInfo().username });
    expect(records[0]?.actor.address).toBeTruthy();
    expect(records[1]?.details).toEqual({ username: 'carol', passwordHash: '(set)' });
    // Again: says so, as "user revoke" and "player unblock" do, not as if it had just been disabled.
    expect((await cli(['operator', 'disable', 'carol'])).stdout).toBe(
      'operator carol was disabled already; 0 console sessions ended\n',
    );
  });

  it('enables a disabled operator again; a new password alone says the account is still disabled', async () => {
    await cli(['operator', 'add', 'erin', '--role', 'support'], `${PASSWORD}\n`);
    await cli(['operator', 'disable', 'erin']);
    const password = await cli(['operator', 'password', 'erin'], 'a newer long password\n');
    expect(password).toMatchObject({
      code: 0,
      stdout: 'password of operator erin changed; 0 console sessions ended\n',
      stderr: 'operator erin is disabled: "operator enable erin" lets it sign in\n',
    });
    expect((await stored((db) => findOperator(db, 'erin')))?.active).toBe(false);

    const enabled = await cli(['operator', 'enable', 'erin']);
    expect(enabled).toMatchObject({ code: 0, stdout: 'operator erin enabled\n' });
    expect((await stored((db) => findOperator(db, 'erin')))?.active).toBe(true);
    expect((await cli(['operator', 'enable', 'erin'])).stdout).toBe('operator erin was enabled already\n');
    expect(await cli(['operator', 'enable', 'nobody'])).toMatchObject({
      code: 1,
      stderr: 'poker-launch operator enable: no operator named "nobody"; see "operator list"\n',
    });
    const again = await cli(['operator', 'password', 'erin'], 'the newest long password\n');
    expect(again.stderr).not.toContain('disabled');
    const records = await stored((db) => listAuditRecords(db, { limit: 10 }));
    // Enabling an enabled account changed nothing, and is not recorded.
    expect(records.map((record) => record.action).slice(0, 4)).toEqual([
      'operator.password',
      'operator.enable',
      'operator.password',
      'operator.disable',
    ]);
  });

  it('records every change of the other commands too, with the OS user, and never a secret', async () => {
    await cli(['client', 'add', 'casino-1', '--secret', 's'.repeat(20)]);
    await cli(['client', 'update', 'casino-1', '--url-poker', 'https://poker.example/']);
    await cli(['currency', 'enable', 'eur']);
    await cli(['setting', 'set', 'NickMaxLength', '30']);
    const records = await stored((db) => listAuditRecords(db, { limit: 10 }));
    expect(records.map((record) => [record.action, record.target])).toEqual([
      ['setting.change', 'NickMaxLength'],
      ['currency.enable', 'EUR'],
      ['client.update', 'casino-1'],
      ['client.add', 'casino-1'],
    ]);
    expect(JSON.stringify(records)).not.toContain('s'.repeat(20));
    expect(records[3]?.details).toMatchObject({ id: 'casino-1', changes: { secretKey: '(set)' } });
  });
});

describe('poker-launch operator add at a terminal', () => {
  const database = useTempDatabase('sqlite');

  it('asks for the password twice without echoing it, and refuses two that differ', async () => {
    const run = (answers: string[]) =>
      runAtTerminal(
        'operator add dave --role admin',
        { DATABASE_URL: database().url },
        /Password: |Repeat the password: /g,
        answers,
      );
    const differ = await run([PASSWORD, 'something else entirely']);
    expect(differ).toContain('the two passwords differ; nothing was changed');
    const added = await run([PASSWORD, PASSWORD]);
    expect(added).toContain('operator dave added (admin)');
    expect(added).not.toContain(PASSWORD);
  });
});
