import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteConnection, WRITER_CACHE_SIZE_KIB } from './sqlite-connection.js';

describe('openSqliteConnection', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('gives a connection the page cache it asks for (the writer a small one), else 64 MiB', () => {
    const folder = mkdtempSync(join(tmpdir(), 'poker-launch-connection-'));
    folders.push(folder);
    const path = join(folder, 'poker-launch.db');
    const [reader, writer] = [openSqliteConnection(path), openSqliteConnection(path, WRITER_CACHE_SIZE_KIB)];
    try {
      // Negative: KiB.
      expect(reader.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      expect(writer.pragma('cache_size', { simple: true })).toBe(-WRITER_CACHE_SIZE_KIB);
      expect(WRITER_CACHE_SIZE_KIB).toBeLessThan(64 * 1024);
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('opens every connection durable (WAL, synchronous FULL), with foreign keys and a busy timeout', () => {
    const folder = mkdtempSync(join(tmpdir(), 'poker-launch-connection-'));
    folders.push(folder);
    const sqlite = openSqliteConnection(join(folder, 'nested', 'poker-launch.db'));
    try {
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      // 2 = FULL: the WAL is synced at every commit, so a confirmed session survives a power loss.
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      sqlite.close();
    }
  });

  it("makes a new database file, its -wal and -shm and its folder the owner's alone; an existing file keeps its mode", () => {
    const folder = mkdtempSync(join(tmpdir(), 'poker-launch-connection-'));
    folders.push(folder);
    const modeOf = (path: string) => statSync(path).mode & 0o777;
    // The umask most machines have, which gave 0644 files any user could read.
    const umask = process.umask(0o022);
    try {
      const path = join(folder, 'store', 'poker-launch.db');
      const sqlite = openSqliteConnection(path);
      try {
        sqlite.exec('create table t (x); insert into t values (1)');
        const files = readdirSync(join(folder, 'store')).sort();
        expect(files).toEqual(['poker-launch.db', 'poker-launch.db-shm', 'poker-launch.db-wal']);
        for (const file of files) expect(modeOf(join(folder, 'store', file)), file).toBe(0o600);
        expect(modeOf(join(folder, 'store'))).toBe(0o700);
      } finally {
        sqlite.close();
      }

      const shared = join(folder, 'shared.db');
      writeFileSync(shared, '');
      chmodSync(shared, 0o640);
      openSqliteConnection(shared).close();
      expect(modeOf(shared)).toBe(0o640);
    } finally {
      process.umask(umask);
    }
  });
});
