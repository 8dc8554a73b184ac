import { describe, expect, it } from 'vitest';
import { outage } from '../test-support/database-outage.js';
import { TEST_POSTGRES_URL } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';

// In an outage every request answers 503 with its own line and count; the warning with the error is
// said once every 10 s, with how many answered 503 since (docs/operations.md, Database outages): at
// thousands of requests a second, a warning each logged thousands of stacks a second.
// On PostgreSQL, which refuses at once; a SQLite lock makes each request wait out its 5 s busy timeout.
describe.runIf(TEST_POSTGRES_URL)('requests during a PostgreSQL outage', () => {
  const h = useHarness('postgres');

  it('warn once every 10 s with the count of 503s since, each request keeping its own line', async () => {
    await h().addClient();
    const warnings = () =>
      h()
        .logs()
        .split('\n')
        .filter((line) => line.includes('"msg":"database unavailable"') && line.includes('"level":40'))
        .map((line) => JSON.parse(line) as { unavailableSinceLastWarning?: number; err?: unknown });
    const answered503 = () =>
      h()
        .logs()
        .split('\n')
        .filter((line) => line.includes('"msg":"request completed"') && line.includes('"statusCode":503'))
        .length;
    const away = await outage(h(), 'postgres');
    try {
      for (const userId of ['u-1', 'u-2', 'u-3', 'u-4']) {
        expect((await h().createSession(userId)).statusCode).toBe(503);
      }
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]?.err).toBeDefined();
      expect(warnings()[0]?.unavailableSinceLastWarning).toBeUndefined();
      h().clock.advance(9);
      expect((await h().createSession('u-5')).statusCode).toBe(503);
      expect(warnings()).toHaveLength(1);
      h().clock.advance(1);
      expect((await h().createSession('u-6')).statusCode).toBe(503);
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]?.unavailableSinceLastWarning).toBe(4);
      expect(answered503()).toBe(6);
    } finally {
      await away.back();
    }
  });
});
