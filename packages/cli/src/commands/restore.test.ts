import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { canRunAsNobody, NOBODY } from '../test-support/other-account.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

// docs/operations.md, "Backups and restore".
describe('poker-launch restore', () => {
  const database = useTempSqlite();
  const servers: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  });
  const pathOf = (url: string) => url.slice('sqlite:'.length);
  const folder = () => pathOf(database().url).replace(/\/[^/]+$/, '');
  const sessionIds = (file: string) => {
    const store = new SQLite(file, { readonly: true });
    try {
      return store.prepare('select id from sessions').pluck().all();
    } finally {
      store.close();
    }
  };
  const digest = async (file: string) =>
    createHash('sha256')
      .update(await readFile(file))
      .digest('hex');

  it('puts a backup in place of the database a killed service left with its write-ahead log, and keeps that one whole', async () => {
    const serve = await runServe(database().url);
    servers.push(serve);
    const credentials = printedCredentials(serve.stdout());
    const launch = async (userId: string) => {
      const created = await createSession(serve.address, credentials.clientId, credentials.secret, userId);
      expect(created.status).toBe(200);
      return created.body.data;
    };
    const before = [await launch('before-1'), await launch('before-2')];
    const backup = join(folder(), 'backup.db');
    expect((await runPokerLaunch(['backup', backup], { DATABASE_URL: database().url })).code).toBe(0);
    const after = [await launch('after-1'), await launch('after-2')];
    await serve.stop('SIGKILL');
    servers.length = 0;
    // What a killed service leaves: the launches after the backup are in the write-ahead log, which an
    // operator copying the backup over the file alone would have left beside it, to be read into it.
    expect(existsSync(`${pathOf(database().url)}-wal`)).toBe(true);

    const restored = await runPokerLaunch(['restore', backup], { DATABASE_URL: database().url });
    expect(restored.code, restored.stderr).toBe(0);
    const [done, kept, ...more] = restored.stdout.split('\n');
    expect(done).toMatch(
      new RegExp(`^restored ${pathOf(database().url)} from ${backup}: \\d+ pages, integrity_check ok$`),
    );
    const previous = /^the database that was there is kept as (\S+)$/.exec(kept ?? '')?.[1] ?? 'not said';
    expect(previous).toMatch(/poker-launch\.db\.before-restore-\d{8}T\d{6}Z$/);
    expect(more).toEqual(['']);
    // Nothing else is left: no staged copy, no log of either database beside it (the old one's -shm, an
    // index SQLite rebuilds on opening, may go along with it).
    const left = (await readdir(folder())).filter((name) => !name.endsWith('-shm'));
    expect(left.sort()).toEqual(['backup.db', 'poker-launch.db', previous.slice(folder().length + 1)].sort());

    expect(sessionIds(pathOf(database().url)).sort()).toEqual(before.map((session) => session.id).sort());
    // Recorded in the restored database's audit log, as every change an operator makes is.
    const audit = new SQLite(pathOf(database().url), { readonly: true });
    const record = audit.prepare("select * from audit_log where action = 'store.restore'").all();
    audit.close();
    expect(record).toEqual([
      expect.objectContaining({
        actor_via: 'cli',
        target: null,
        details: JSON.stringify({ backup, previous }),
      }),
    ]);
    // The way back holds everything, the launches its log had included.
    expect(sessionIds(previous)).toEqual(
      expect.arrayContaining([...before, ...after].map((session) => session.id)),
    );

    const again = await runServe(database().url);
    servers.push(again);
    const tokenAnswer = async (auth: string) =>
      (
        await fetch(`${again.address}/api/web/v2/app/session`, {
          headers: { authorization: `Bearer ${auth}` },
        })
      ).status;
    expect(await tokenAnswer(before[0]?.attributes.auth ?? '')).toBe(200);
    expect(await tokenAnswer(after[0]?.attributes.auth ?? '')).toBe(401);
  });

  it('refuses while a service has the database open, and changes nothing', async () => {
    const backup = join(folder(), 'backup.db');
    expect((await runPokerLaunch(['backup', backup], { DATABASE_URL: database().url })).code).toBe(0);
    const serve = await runServe(database().url);
    servers.push(serve);
    const files = (await readdir(folder())).sort();

    const restored = await runPokerLaunch(['restore', backup], { DATABASE_URL: database().url });
    expect(restored).toMatchObject({ code: 1, stdout: '' });
    expect(restored.stderr).toBe(
      `poker-launch restore: restore failed: ${pathOf(database().url)} is in use (a running poker-launch serve, or another program, has it open); stop the service first; nothing was changed\n`,
    );
    expect((await readdir(folder())).sort()).toEqual(files);
    const { clientId, secret } = printedCredentials(serve.stdout());
    expect((await createSession(serve.address, clientId, secret, 'still-here')).status).toBe(200);
  });

  it('refuses a backup it could not run before anything moves: missing, not a database, not poker-launch, damaged, or of a later version', async () => {
    const made = join(folder(), 'made.db');
    expect((await runPokerLaunch(['backup', made], { DATABASE_URL: database().url })).code).toBe(0);
    const later = join(folder(), 'later.db');
    await writeFile(later, await readFile(made));
    const laterStore = new SQLite(later);
    laterStore
      .prepare("insert into kysely_migration (name, timestamp) values ('999_later_version', ?)")
      .run('2030-01-01T00:00:00.000Z');
    laterStore.close();
    const text = join(folder(), 'notes.txt');
    await writeFile(text, 'not a database');
    const other = join(folder(), 'other-app.db');
    const otherStore = new SQLite(other);
    otherStore.exec('create table t (a)');
    otherStore.close();
    const damaged = join(folder(), 'damaged.db');
    const damagedStore = new SQLite(damaged);
    damagedStore.unsafeMode(true);
    damagedStore.exec(`create table kysely_migration (name, timestamp); create table t (a);
      insert into t values (null); pragma writable_schema = on;
      update sqlite_schema set sql = 'create table t (a not null)' where name = 't'`);
    damagedStore.close();

    const before = await digest(pathOf(database().url));
    const files = (await readdir(folder())).sort();
    const refusals = {
      [join(folder(), 'missing.db')]: `there is no file ${join(folder(), 'missing.db')}`,
      [text]: `${text} cannot be restored: file is not a database`,
      [other]: `${other} is not a poker-launch database: it has no migration table`,
      [damaged]: `${damaged} cannot be restored: the copy failed integrity_check (NULL value in t.a) and was not kept`,
      [later]: `${later} was made by a later version (it has migrations this one does not know: 999_later_version); restore it with that version`,
      [pathOf(database().url)]: `${pathOf(database().url)} is the database itself; name a backup`,
    };
    for (const [backup, message] of Object.entries(refusals)) {
      const restored = await runPokerLaunch(['restore', backup], { DATABASE_URL: database().url });
      expect(restored).toMatchObject({ code: 1, stdout: '' });
      expect(restored.stderr).toContain(`poker-launch restore: restore failed: ${message}`);
      expect(restored.stderr).toMatch(/; nothing was changed\n$/);
    }
    expect((await readdir(folder())).sort()).toEqual(files);
    expect(await digest(pathOf(database().url))).toBe(before);
  });

  it('restores onto a new machine, and a backup of an earlier version is migrated as it starts', async () => {
    const backup = join(folder(), 'backup.db');
    expect((await runPokerLaunch(['backup', backup], { DATABASE_URL: database().url })).code).toBe(0);
    // An earlier version's store: the last ten migrations not yet applied (026 to 028 and 031 change
    // nothing on SQLite).
    const store = new SQLite(backup);
    store.exec(`drop index webhook_deliveries_failed_idx;
      drop index webhook_endpoints_client_id_idx;
      alter table webhook_deliveries drop column redelivered_at;
      drop table webhook_endpoint_health;
      drop index audit_log_target_idx;
      alter table instances drop column version;
      alter table instances drop column listening_on;
      delete from kysely_migration where name in ('025_failed_deliveries_index', '026_concurrent_first_launch_nick',
        '027_blocked_while_first_launch', '028_logout_while_live', '029_redelivered_at',
        '030_webhook_endpoints_client_index', '031_sessions_player_index', '032_webhook_endpoint_health',
        '033_instance_version_address', '034_audit_log_target_index')`);
    store.close();
    await mkdir(join(folder(), 'new'));
    const url = `sqlite:${join(folder(), 'new', 'poker-launch.db')}`;

    const restored = await runPokerLaunch(['restore', backup], { DATABASE_URL: url });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout.split('\n').slice(1)).toEqual([
      'the backup is 10 migrations behind this version: serve applies them at start (or run poker-launch migrate)',
      '',
    ]);
    const migrated = await runPokerLaunch(['migrate'], { DATABASE_URL: url });
    expect(migrated.stdout).toBe(
      'applied 025_failed_deliveries_index\napplied 026_concurrent_first_launch_nick\napplied 027_blocked_while_first_launch\n' +
        'applied 028_logout_while_live\napplied 029_redelivered_at\napplied 030_webhook_endpoints_client_index\n' +
        'applied 031_sessions_player_index\napplied 032_webhook_endpoint_health\napplied 033_instance_version_address\n' +
        'applied 034_audit_log_target_index\n',
    );
  });

  // Giving a file to another user takes root: run as root (as CI does), the test plays both parts.
  const asRoot = process.getuid?.() === 0;

  it.skipIf(!asRoot)("gives the restored file the database's owner and mode", async () => {
    const databaseFile = pathOf(database().url);
    const backup = join(folder(), 'backup.db');
    expect((await runPokerLaunch(['backup', backup], { DATABASE_URL: database().url })).code).toBe(0);
    // The service's account owns its database; root restores a backup that is root's.
    await chown(databaseFile, NOBODY.uid, NOBODY.gid);
    await chmod(databaseFile, 0o640);
    const restored = await runPokerLaunch(['restore', backup], { DATABASE_URL: database().url });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toBe('');
    expect(await stat(databaseFile)).toMatchObject({ ...NOBODY, mode: 0o100640 });
  });

  // As another account: in a folder of /tmp, which it can reach (the test's own temporary folder may sit
  // in one only root may enter, as CI's does), and only where that account can read the installed bin.
  it.skipIf(!canRunAsNobody())(
    "says which chown to run when it cannot give the file the database's owner",
    async () => {
      const backup = join(folder(), 'backup.db');
      expect((await runPokerLaunch(['backup', backup], { DATABASE_URL: database().url })).code).toBe(0);
      const shared = await mkdtemp('/tmp/poker-launch-restore-');
      try {
        const sharedDatabase = join(shared, 'poker-launch.db');
        const sharedBackup = join(shared, 'backup.db');
        await copyFile(pathOf(database().url), sharedDatabase);
        await copyFile(backup, sharedBackup);
        await chown(shared, NOBODY.uid, NOBODY.gid);
        await chown(sharedBackup, NOBODY.uid, NOBODY.gid);
        // Root's database, which the operator's account may write but cannot give a file of root's.
        await chmod(sharedDatabase, 0o666);
        const restored = await runPokerLaunch(
          ['restore', sharedBackup],
          { DATABASE_URL: `sqlite:${sharedDatabase}` },
          { as: NOBODY },
        );
        expect(restored.code, restored.stderr).toBe(0);
        expect(restored.stderr).toBe(
          `warning: the restored file is yours, not the database's owner's (uid 0, gid 0), which only root can give it; a service running as that owner may not open it: chown 0:0 ${sharedDatabase}\n`,
        );
        expect(await stat(sharedDatabase)).toMatchObject({ ...NOBODY, mode: 0o100666 });
      } finally {
        await rm(shared, { recursive: true, force: true });
      }
    },
  );

  it('points a PostgreSQL database to pg_restore', async () => {
    const restored = await runPokerLaunch(['restore', 'poker-launch.dump'], {
      DATABASE_URL: 'postgres://poker@127.0.0.1:1/poker',
    });
    expect(restored).toMatchObject({ code: 1, stdout: '' });
    expect(restored.stderr).toContain('for PostgreSQL use pg_restore');
  });
});
