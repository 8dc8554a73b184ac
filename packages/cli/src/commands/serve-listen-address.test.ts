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
