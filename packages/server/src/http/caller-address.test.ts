import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';

/** docs/design.md §11: no header a caller writes chooses the address it is counted by. */
describe.each(DIALECTS)('the caller address on %s', (dialect) => {
  /** A v2 launch through the peer `remoteAddress`, with a wrong sign unless `signed`. */
  const launchVia = (
    h: ReturnType<typeof useHarness>,
    remoteAddress: string,
    forwardedFor: string | undefined,
    userId = 'u-1',
  ) =>
    h().createSession(
      userId,
      {},
      {
        remoteAddress,
        ...(forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }),
      },
    );
  const forgeVia = (h: ReturnType<typeof useHarness>, remoteAddress: string, forwardedFor?: string) =>
    h().createSession(
      'u-1',
      {},
      {
        remoteAddress,
        sign: 'f'.repeat(64),
        ...(forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }),
      },
    );

  describe('behind trusted proxies', () => {
    const h = useHarness(dialect, { RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '10.0.0.0/8' });

    it('counts the first address from the right that is no trusted proxy: varying what the caller wrote escapes nothing', async () => {
      const statuses = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await forgeVia(h, '10.0.0.5', `192.0.2.${i}, 203.0.113.99`)).statusCode);
      expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
      expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
      // Through two trusted hops the caller is still the one the outer proxy saw.
      expect((await forgeVia(h, '10.0.0.5', '192.0.2.1, 203.0.113.99, 10.9.9.9')).statusCode).toBe(429);
    });

    it("cannot lock out an integrator's address by writing it into X-Forwarded-For", async () => {
      for (let i = 0; i < 10; i++) await forgeVia(h, '10.0.0.5', '198.51.100.7, 203.0.113.99');
      const integrator = await launchVia(h, '10.0.0.5', '198.51.100.7');
      expect(integrator.statusCode, integrator.body).toBe(200);
    });

    it('counts one IPv4 caller as one however its proxy writes it, and two as two', async () => {
      // 203.0.113.5 plain, mapped into IPv6, and mapped in hex: one caller, one quota.
      const forms = ['203.0.113.5', '::ffff:203.0.113.5', '::ffff:cb00:7105'];
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await forgeVia(h, '10.0.0.5', forms[i % 3])).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      // Another IPv4 caller written in hex is not the same one (an IPv6 /64 would have held them both).
      expect((await forgeVia(h, '10.0.0.5', '::ffff:cb00:7106')).statusCode).toBe(400);
    });

    it('never counts a trusted proxy that reported no caller', async () => {
      for (let i = 0; i < 10; i++) expect((await forgeVia(h, '10.0.0.5')).statusCode).toBe(400);
    });
  });

  describe('without TRUST_PROXY', () => {
    const h = useHarness(dialect, { RATE_LIMIT_PER_MINUTE: '5' });

    it("ignores forwarding headers, counting the connection's address, and says so once", async () => {
      const statuses = [];
      for (let i = 0; i < 7; i++) {
        const headers: Record<string, string> =
          [
            { 'x-forwarded-for': `192.0.2.${i}` },
            { forwarded: `for=192.0.2.${i}` },
            { 'x-real-ip': `192.0.2.${i}` },
          ][i % 3] ?? {};
        const response = await h().createSession(
          'u-1',
          {},
          { remoteAddress: '203.0.113.5', sign: 'f'.repeat(64), headers },
        );
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
      // The address it names was never counted: it launches.
      expect((await launchVia(h, '192.0.2.1', undefined)).statusCode).toBe(200);
      const notices = h()
        .logs()
        .split('\n')
        .filter((line) => line.includes('forwarding headers'));
      expect(notices).toHaveLength(1);
      expect(JSON.parse(notices[0] ?? '{}')).toMatchObject({ level: 40 });
    });
  });
});
