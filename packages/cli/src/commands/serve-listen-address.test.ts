import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch serve on a HOST it cannot listen on, on %s', (dialect) => {
  const database = useTempDatabase(dialect);

  it.each([
    'bogus.invalid',
    '192.0.2.1', // TEST-NET-1: an address no interface of this machine has
  ])('names the listen address %s, not the database, which it reached', async (host) => {
    const port = await freePort();
    const result = await runPokerLaunch(['serve'], {
      DATABASE_URL: database().url,
      HOST: host,
      PORT: String(port),
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^poker-launch serve: cannot start: cannot listen on ${host.replaceAll('.', '\\.')}:${port} \\(HOST, PORT\\): `,
      ),
    );
    expect(lines[0]).not.toContain('database');
  });
});

describe('poker-launch serve on a SQLite file that does not exist yet', () => {
  it('leaves no new file behind when its start fails (a port in use)', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'serve-new-file-')), 'new.db');
    const taken = createServer();
    const port = await new Promise<number>((done) =>
      taken.listen(0, '127.0.0.1', () => done((taken.address() as { port: number }).port)),
    );
    try {
      const result = await runPokerLaunch(['serve'], {
        DATABASE_URL: `sqlite:${path}`,
        HOST: '127.0.0.1',
        PORT: String(port),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(existsSync(path)).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('refuses to start with MIGRATE_ON_START=false, which would leave an empty file with no schema', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'serve-new-file-')), 'new.db');
    const result = await runPokerLaunch(['serve'], {
      DATABASE_URL: `sqlite:${path}`,
      MIGRATE_ON_START: 'false',
      PORT: String(await freePort()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'does not exist, and with MIGRATE_ON_START=false this start makes no schema; run "poker-launch migrate" first',
    );
    expect(existsSync(path)).toBe(false);
  });
});
