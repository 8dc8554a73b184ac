import { spawnSync } from 'node:child_process';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase } from '@poker-launch/server/admin';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, launchingDuring, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

describe('poker-launch backup', () => {
  const database = useTempSqlite();
  const servers: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  });
  const folderOf = (url: string) => url.slice('sqlite:'.length).replace(/\/[^/]+$/, '');

  it('copies the database while the service writes; the copy passes integrity_check and serves the sessions it had', async () => {
    const serve = await runServe(database().url);
    servers.push(serve);
    const { clientId, secret } = printedCredentials(serve.stdout());
    const before: { id: string; auth: string }[] = [];
    for (let index = 0; index < 20; index++) {
      const created = await createSession(serve.address, clientId, secret, `before-${index}`);
      expect(created.status).toBe(200);
      before.push({ id: created.body.data.id, auth: created.body.data.attributes.auth });
    }

    // Launches keep coming while the backup runs.
    const file = join(folderOf(database().url), 'backup.db');
    const { result: backup, launched } = await launchingDuring(serve.address, { clientId, secret }, () =>
      runPokerLaunch(['backup', file], { DATABASE_URL: database().url }),
    );
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^wrote .*backup\.db: \d+ pages, integrity_check ok\n$/);
    expect(launched).toBeGreaterThan(0);
    // It holds client secrets: readable by its owner only.
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The copy is the only file it leaves (no -wal/-shm of its temporary name, nor of the copy).
    const left = await readdir(folderOf(database().url));
    expect(left.filter((name) => !name.startsWith('poker-launch.db')).sort()).toEqual(['backup.db']);

    const copy = await openDatabase({ dialect: 'sqlite', path: file });
    try {
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(copy.db);
      expect(rows).toEqual([{ integrity_check: 'ok' }]);
      const ids = (await copy.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
      expect(ids).toEqual(expect.arrayContaining(before.map((session) => session.id)));
    } finally {
      await copy.close();
    }

    // Restored: a service started on the copy reads the sessions that were there.
    const restored = await runServe(`sqlite:${file}`);
    servers.push(restored);
    for (const { auth, id } of [before[0], before[19]].filter((session) => session !== undefined)) {
      const response = await fetch(`${restored.address}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${auth}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: { id: string } }).data.id).toBe(id);
    }
  });

  it('removes the partial copy a backup killed midway left under the same name, and says so', async () => {
    // kill -9, the OOM killer or a cron job's timeout stop a backup before it can clean up: each such run
    // left a copy as big as the database beside the backups, which nothing removed (docs/operations.md,
    // "Backups and restore": the copy is the only file it leaves).
    const folder = folderOf(database().url);
    const file = join(folder, 'nightly.db');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const left = [`nightly.db.partial-${gone}-0a1b2c3d`, `nightly.db.partial-${gone}-0a1b2c3d-journal`];
    // A backup still running (this process stands for it) keeps its own; another file's are not touched.
    const running = [`nightly.db.partial-${process.pid}-4e5f6a7b`, `weekly.db.partial-${gone}-0a1b2c3d`];
    for (const name of [...left, ...running]) await writeFile(join(folder, name), 'partial');

    const backup = await runPokerLaunch(['backup', file], { DATABASE_URL: database().url });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^wrote .*nightly\.db: \d+ pages, integrity_check ok\n$/);
    expect(backup.stderr).toContain(
      `removed ${join(folder, left[0] ?? '')}, the partial copy of a backup that was interrupted\n`,
    );
    const files = await readdir(folder);
    expect(files.filter((name) => !name.startsWith('poker-launch.db')).sort()).toEqual(
      ['nightly.db', ...running].sort(),
    );
  });

  it('keeps no copy that fails integrity_check: a file under the chosen name is always a sound backup', async () => {
    // A damaged database (here a row breaking its table's NOT NULL, as a bad sector or a bad copy would):
    // the copy failed the check, the command said so with exit 1, and left the copy under the chosen name,
    // where a restore script picking the newest backup would take it (docs/operations.md, "Backups").
    const folder = folderOf(database().url);
    const damaged = join(folder, 'damaged.db');
    const store = new SQLite(damaged);
    store.unsafeMode(true);
    store.exec(`create table t (a); insert into t values (null); pragma writable_schema = on;
      update sqlite_schema set sql = 'create table t (a not null)' where name = 't'`);
    store.close();

    const file = join(folder, 'copy-of-damaged.db');
    const backup = await runPokerLaunch(['backup', file], { DATABASE_URL: `sqlite:${damaged}` });
    expect(backup).toMatchObject({ code: 1, stdout: '' });
    expect(backup.stderr).toBe(
      'poker-launch backup: backup failed: the copy failed integrity_check (NULL value in t.a) and was not kept; check the database itself: sqlite3 <file> "pragma integrity_check"\n',
    );
    expect((await readdir(folder)).filter((name) => name.startsWith('copy-of-damaged'))).toEqual([]);

    // Nor the folders it made for it: a failed backup into a new folder leaves the disk as it found it.
    const intoNew = await runPokerLaunch(['backup', join(folder, 'new', 'folder', 'copy.db')], {
      DATABASE_URL: `sqlite:${damaged}`,
    });
    expect(intoNew.code).toBe(1);
    expect(await readdir(folder)).not.toContain('new');
  });

  // docs/cli.md, "Running the CLI": every command that opens the database says which one; a copy of the
  // wrong database (run from another directory, another DATABASE_URL) is the backup that fails a restore.
  it('says on stderr which database it copies', async () => {
    const file = join(folderOf(database().url), 'named.db');
    const result = await runPokerLaunch(['backup', file], { DATABASE_URL: database().url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.databaseNotes).toEqual([`poker-launch: database ${database().url} (from DATABASE_URL)`]);
  });

  // A nightly job writing to a dated folder, or the help's own example (./backups/…), refused to run until
  // someone made the folder (docs/operations.md, "Backups and restore").
  it("creates a missing folder as mkdir -p does, its owner's only, and says so", async () => {
    const folder = folderOf(database().url);
    const file = join(folder, 'backups', '2026-11-29', 'nightly.db');
    const backup = await runPokerLaunch(['backup', file], { DATABASE_URL: database().url });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^wrote .*nightly\.db: \d+ pages, integrity_check ok\n$/);
    expect(backup.stderr).toContain(
      `created the directory ${join(folder, 'backups')} (its owner's only, as the copy)\n`,
    );
    for (const made of [join(folder, 'backups'), join(folder, 'backups', '2026-11-29')])
      expect((await stat(made)).mode & 0o777).toBe(0o700);
    expect(await readdir(join(folder, 'backups', '2026-11-29'))).toEqual(['nightly.db']);

    // Into a folder that exists, nothing is said of folders.
    const again = await runPokerLaunch(['backup', join(folder, 'backups', 'second.db')], {
      DATABASE_URL: database().url,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('created');

    // A path through a file: one line naming the folder, nothing written.
    await writeFile(join(folder, 'a-file'), '');
    const through = await runPokerLaunch(['backup', join(folder, 'a-file', 'sub', 'copy.db')], {
      DATABASE_URL: database().url,
    });
    expect(through).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `poker-launch backup: backup failed: cannot create the directory ${join(folder, 'a-file', 'sub')}: ENOTDIR: not a directory\n`,
    });
  });

  it('refuses to overwrite a file, and refuses PostgreSQL pointing to pg_dump', async () => {
    const file = join(folderOf(database().url), 'poker-launch.db');
    const existing = await runPokerLaunch(['backup', file], { DATABASE_URL: database().url });
    expect(existing).toMatchObject({ code: 1, stdout: '' });
    expect(existing.stderr).toMatch(
      /^poker-launch backup: backup failed: .*poker-launch\.db exists; choose a new file name\n$/,
    );

    // An empty name (an unset variable in a script) copied the whole database under ".partial-…" in the
    // working directory, then failed to rename it to "".
    const unnamed = await runPokerLaunch(['backup', ''], { DATABASE_URL: database().url });
    expect(unnamed).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'poker-launch backup: the file name is empty; give the file to write the copy to\n',
    });

    // "-" is standard output to most tools (sign --json - reads standard input): it wrote a file named "-"
    // holding every client secret in the working directory and said "wrote -".
    const folder = folderOf(database().url);
    const dash = await runPokerLaunch(['backup', '-'], { DATABASE_URL: database().url }, { cwd: folder });
    expect(dash).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'poker-launch backup: backup writes a file, not standard output ("-"): give its name, e.g. ./poker-launch-backup.db\n',
    });
    expect(await readdir(folder)).not.toContain('-');

    const postgres = await runPokerLaunch(['backup', '/tmp/never-written.db'], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(postgres).toMatchObject({ code: 1, stdout: '' });
    expect(postgres.stderr).toContain('for PostgreSQL use pg_dump');
  });
});
