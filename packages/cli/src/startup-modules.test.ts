import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPokerLaunch } from './test-support/run-poker-launch.js';

const RECORDER = fileURLToPath(new URL('./test-support/record-loaded-modules.cjs', import.meta.url));

/**
 * A command that only reads or changes the store starts without the HTTP server's modules: Fastify and
 * pino were a third of `client list`'s start (docs/performance.md, "The test suite's time"), loaded for
 * one regular expression the admin entry re-exported from the logger.
 */
describe('what a store command loads', () => {
  let folder = '';
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-modules-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('client list opens the store without Fastify or pino', async () => {
    const record = join(folder, 'modules.txt');
    const env = { DATABASE_URL: `sqlite:${join(folder, 'poker-launch.db')}` };
    expect((await runPokerLaunch(['migrate'], env)).code).toBe(0);
    const listed = await runPokerLaunch(['client', 'list'], {
      ...env,
      NODE_OPTIONS: `--require ${RECORDER}`,
      RECORD_LOADED_MODULES: record,
    });
    expect(listed.code, listed.stderr).toBe(0);
    const loaded = (await readFile(record, 'utf8')).split('\n');
    // The recorder saw the store's driver: it records what it should.
    expect(loaded.some((file) => file.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(loaded.filter((file) => /\/node_modules\/(fastify|pino|@fastify)\//.test(file))).toEqual([]);
  });
});
