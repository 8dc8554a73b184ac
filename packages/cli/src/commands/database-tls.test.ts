import { describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { useTempDatabase } from '../test-support/temp-database.js';

/**
 * DATABASE_URL asks for TLS (sslmode=require) of a PostgreSQL that offers none: a configuration to fix,
 * said naming the database (its password masked) and the sslmode, not "unexpected error … a bug".
 */
describe.skipIf(TEST_POSTGRES_URL === undefined)(
  'a PostgreSQL DATABASE_URL whose TLS the server does not offer',
  () => {
    const database = useTempDatabase('postgres');
    const tlsUrl = () => {
      const url = new URL(database().url);
      url.password = 'hunter2';
      url.searchParams.set('sslmode', 'require');
      return url;
    };

    it('is named as a TLS mismatch by the commands and by serve', async (context) => {
      const url = tlsUrl();
      const probe = await runPokerLaunch(['client', 'list'], { DATABASE_URL: url.href });
      // A test server with SSL on has no mismatch to show.
      if (!probe.stderr.includes('does not support SSL')) context.skip();
      const shown = new URL(url.href);
      shown.password = '***';
      const said =
        `cannot connect to the database ${shown.href}: The server does not support SSL connections; ` +
        'DATABASE_URL asks for TLS (sslmode=require) and that server offers none';
      expect(probe.code).toBe(1);
      expect(probe.stderr).toContain(`poker-launch client list: ${said}`);
      expect(probe.stderr).not.toContain('unexpected error');
      expect(probe.stderr).not.toContain('hunter2');

      const served = await runPokerLaunch(['serve'], {
        DATABASE_URL: url.href,
        PORT: String(await freePort()),
      });
      expect(served.code).toBe(1);
      expect(served.stderr).toContain(`poker-launch serve: cannot start: ${said}`);
      expect(served.stderr).not.toContain('hunter2');
    });
  },
);
