import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteConnection } from './sqlite-connection.js';

describe('openSqliteConnection', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
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
});
