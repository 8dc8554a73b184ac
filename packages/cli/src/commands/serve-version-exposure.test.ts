import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

const SERVER_PACKAGE = new URL('../../../server/package.json', import.meta.url);
const version = async () =>
  (JSON.parse(await readFile(SERVER_PACKAGE, 'utf8')) as { version: string }).version;

describe('which version runs', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it('poker-launch --version prints the version of the service', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runPokerLaunch([flag]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`poker-launch ${await version()}\n`);
    }
  });

  it('/metrics serves poker_launch_build_info with the version and the Node.js it runs on', async () => {
    serve = await runServe(database().url);
    const text = await (await fetch(`${serve.address}/metrics`)).text();
    expect(text).toContain('# TYPE poker_launch_build_info gauge');
    expect(text).toContain(
      `poker_launch_build_info{version="${await version()}",node_version="${process.version}"} 1\n`,
    );
  });
});

describe('a staging deployment listening beyond this machine', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it('says so loudly on stderr and in the log', async () => {
    serve = await runServe(database().url, { HOST: '0.0.0.0' });
    expect(serve.stderr()).toContain(
      '!!! WARNING: a staging deployment listens on 0.0.0.0, reachable from other machines.',
    );
    expect(serve.stdout()).toMatch(
      /"level":40,.*"host":"0\.0\.0\.0","msg":"staging deployment listening beyond this machine"/,
    );
  });

  it('says nothing on a loopback address, nor for production anywhere', async () => {
    serve = await runServe(database().url, { HOST: '127.0.0.1' });
    expect(serve.stderr()).not.toContain('WARNING');
    await serve.stop('SIGKILL');
    serve = await runServe(database().url, { HOST: '0.0.0.0', POKER_LAUNCH_ENV: 'production' });
    expect(serve.stderr()).not.toContain('WARNING');
    expect(serve.stdout()).not.toContain('listening beyond');
  });
});
