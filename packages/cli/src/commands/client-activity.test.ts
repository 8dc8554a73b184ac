import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch client activity on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it("lists a client's launch attempts newest first, launched and refused, with codes and staging's hints", async () => {
    serve = await runServe(database().url);
    const { clientId, secret } = printedCredentials(serve.stdout());
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    // An attempt's record id starts with its answer's millisecond; a millisecond or more between the
    // requests lists them newest first, not in the random order of two answered in one.
    const aMillisecondLater = () => new Promise((resolve) => setTimeout(resolve, 2));
    expect((await createSession(serve.address, clientId, secret, 'u-1')).status).toBe(200);
    await aMillisecondLater();
    expect((await createSession(serve.address, clientId, secret, 'u-2', { gameCode: 'bingo' })).status).toBe(
      422,
    );
    await aMillisecondLater();
    const unsigned = await fetch(`${serve.address}/api/web/v2/app/users/u-3/session?clientId=${clientId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'userId=u-3',
    });
    expect(unsigned.status).toBe(400);
    const requestIds = { unsigned: unsigned.headers.get('x-request-id') };

    // The instance writes what gathered once a second: wait for all three, with a generous deadline.
    let attempts: {
      playerId: string;
      status: number;
      requestId: string;
      errors: unknown[];
      hints: string[];
    }[] = [];
    for (const deadline = Date.now() + 20_000; attempts.length < 3 && Date.now() < deadline; ) {
      const listed = await cli('client', 'activity', clientId, '--json');
      expect(listed.code, listed.stderr).toBe(0);
      attempts = JSON.parse(listed.stdout);
    }
    expect(attempts.map(({ playerId, status }) => [playerId, status])).toEqual([
      ['u-3', 400],
      ['u-2', 422],
      ['u-1', 200],
    ]);
    expect(attempts[0]).toMatchObject({
      requestId: requestIds.unsigned,
      errors: [{ code: 'invalid_signature', pointer: null, detail: 'Not valid request signature' }],
      hints: [expect.stringMatching(/^No sign header was sent/)],
    });

    const table = await cli('client', 'activity', clientId);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^AT +API +PLAYER +OUTCOME +REQUEST ID +ERRORS +HINTS$/);
    expect(lines[1]).toMatch(
      /^\S+Z +v2 +u-3 +refused 400 +\S+ +invalid_signature: Not valid request signature +No sign header was sent/,
    );
    expect(lines[2]).toMatch(
      / u-2 +refused 422 .* game_code_not_valid at \/data\/attributes\/gameCode: Game code not valid +-$/,
    );
    expect(lines[3]).toMatch(/ u-1 +launched 200 +\S+ +- +-$/);
    expect(lines).toHaveLength(4);

    const refused = await cli('client', 'activity', clientId, '--refused', '--limit', '1', '--json');
    expect(JSON.parse(refused.stdout).map((attempt: { playerId: string }) => attempt.playerId)).toEqual([
      'u-3',
    ]);
    // The attempt an integrator quotes by its request id, in either case; none for another id.
    const quoted = await cli(
      'client',
      'activity',
      clientId,
      '--request',
      String(requestIds.unsigned).toUpperCase(),
      '--json',
    );
    expect(quoted.code, quoted.stderr).toBe(0);
    expect(JSON.parse(quoted.stdout).map((attempt: { playerId: string }) => attempt.playerId)).toEqual([
      'u-3',
    ]);
    // An operator holding only the request id (an integrator's error answer names no client): every client's,
    // with the client of each.
    const anyClient = await cli('client', 'activity', '--request', String(requestIds.unsigned), '--json');
    expect(anyClient.code, anyClient.stderr).toBe(0);
    expect(JSON.parse(anyClient.stdout)).toMatchObject([{ clientId, playerId: 'u-3' }]);
    const anyClientTable = await cli('client', 'activity', '--request', String(requestIds.unsigned));
    expect(anyClientTable.stdout.split('\n')[0]).toMatch(/^CLIENT +AT +API +PLAYER /);
    expect(anyClientTable.stdout.split('\n')[1]).toMatch(
      new RegExp(`^${clientId} +\\S+Z +v2 +u-3 +refused 400 `),
    );
    expect(
      await cli('client', 'activity', '--request', '00000000-0000-4000-8000-000000000000'),
    ).toMatchObject({ code: 0, stdout: expect.stringContaining("among each client's latest 100,000") });
    const unknown = await cli(
      'client',
      'activity',
      clientId,
      '--request',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("among the client's latest 100,000"),
    });
    expect(await cli('client', 'activity', clientId, '--request', 'abc')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--request must be a request id (a UUID), got "abc"'),
    });
    expect(
      (await cli('client', 'activity', clientId, '--refused', '--request', String(requestIds.unsigned))).code,
    ).toBe(2);
    expect(await cli('client', 'activity', 'nobody')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no client "nobody"; see "client list"'),
    });
    expect(await cli('client', 'activity')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('give a client id, or --request <id>'),
    });
    expect((await cli('client', 'activity', clientId, '--limit', '1001')).code).toBe(2);
  });
});
