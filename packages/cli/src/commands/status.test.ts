import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const SERVER_PACKAGE = new URL('../../../server/package.json', import.meta.url);

interface StatusJson {
  since: string;
  now: string;
  hours: { busiest: { clientId: string; launched: number; refused: number; refusals: unknown[] }[] };
  instances: {
    host: string;
    pid: number;
    listeningOn: string | null;
    version: string | null;
    state: string;
  }[];
}

describe.each(DIALECTS)('poker-launch status on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it("shows the running instances and the last hour's launches per client, as the overview", async () => {
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    serve = await runServe(database().url);
    const pid = Number(/"pid":(\d+)/.exec(serve.stdout())?.[1]);
    const { clientId, secret } = printedCredentials(serve.stdout());
    expect((await createSession(serve.address, clientId, secret, 'u-1')).status).toBe(200);
    expect((await createSession(serve.address, clientId, secret, 'u-2')).status).toBe(200);
    expect((await createSession(serve.address, clientId, secret, 'u-3', { gameCode: 'bingo' })).status).toBe(
      422,
    );

    // The instance writes the attempts once a second: wait for all three, with a generous deadline.
    let status: StatusJson | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      const listed = await cli('status', '--json');
      expect(listed.code, listed.stderr).toBe(0);
      status = JSON.parse(listed.stdout) as StatusJson;
      const [hour] = status.hours.busiest;
      if (hour && hour.launched + hour.refused === 3) break;
    }
    expect(status?.hours.busiest).toEqual([
      { clientId, launched: 2, refused: 1, refusals: [{ code: 'game_code_not_valid', count: 1 }] },
    ]);
    // Where it listens and what it runs: which of several instances is which, and an upgrade's progress.
    const listeningOn = new URL(serve.address).host;
    const version = (JSON.parse(await readFile(SERVER_PACKAGE, 'utf8')) as { version: string }).version;
    expect(status?.instances).toEqual([
      expect.objectContaining({ host: hostname(), pid, listeningOn, version, state: 'up' }),
    ]);

    const printed = (await cli('status')).stdout.split('\n');
    expect(printed[0]).toBe('instances:');
    expect(printed[1]).toMatch(/^ID +HOST +PID +LISTENING ON +VERSION +STARTED +LAST REPORT +STATE$/);
    expect(printed[2]).toMatch(
      new RegExp(
        `^[0-9a-f]{8}  ${hostname()} +${pid} +${listeningOn} +${version.replaceAll('.', '\\.')} +\\S+Z +\\S+Z +up$`,
      ),
    );
    expect(printed[4]).toMatch(/^launches from \S+Z to \S+Z, per client, the busiest first:$/);
    expect(printed[5]).toMatch(/^CLIENT +LAUNCHED +REFUSED +REFUSALS BY ERROR CODE$/);
    expect(printed[6]).toMatch(new RegExp(`^${clientId} +2 +1 +game_code_not_valid 1$`));

    // A graceful stop takes the instance off the list.
    expect(await serve.stop('SIGTERM')).toMatchObject({ code: 0 });
    serve = undefined;
    expect((await cli('status')).stdout).toMatch(/^instances: none running\n/);
  });
});
