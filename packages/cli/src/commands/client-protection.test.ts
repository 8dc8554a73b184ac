import { findClient, listAuditRecords } from '@poker-launch/server/admin';
import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)(
  'poker-launch client: replay protection, signature, allowed addresses on %s',
  (dialect) => {
    const database = useTempDatabase(dialect);
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    const showJson = async (id: string) => JSON.parse((await cli('client', 'show', id, '--json')).stdout);
    const stored = async <T>(read: (db: Parameters<typeof findClient>[0]) => Promise<T>) => {
      const opened = await database().open();
      try {
        return await read(opened.db);
      } finally {
        await opened.close();
      }
    };

    it('sets them on add, prints them, and changes each alone on update, recorded as client.protection', async () => {
      const added = await cli(
        'client',
        'add',
        'c1',
        '--no-secret',
        '--replay-protection',
        'require',
        '--replay-window',
        '2m',
        '--signature',
        'both',
        '--allow-address',
        '203.0.113.0/24',
        '--allow-address',
        '2001:DB8::/32',
      );
      expect(added.code, added.stderr).toBe(0);
      expect(await showJson('c1')).toMatchObject({
        replayProtection: 'require',
        replayWindowSeconds: 120,
        signature: 'both',
        allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
      });
      const text = (await cli('client', 'show', 'c1')).stdout;
      expect(text).toMatch(/replay protection\s+require\n/);
      expect(text).toMatch(/replay window\s+120s\n/);
      expect(text).toMatch(/signature\s+both\n/);
      expect(text).toMatch(/allowed addresses\s+203\.0\.113\.0\/24 2001:db8::\/32\n/);

      // The list given replaces the old one; the other settings stay.
      expect((await cli('client', 'update', 'c1', '--allow-address', '198.51.100.7')).code).toBe(0);
      expect(await showJson('c1')).toMatchObject({
        replayProtection: 'require',
        replayWindowSeconds: 120,
        allowedAddresses: ['198.51.100.7/32'],
      });
      expect(
        (await cli('client', 'update', 'c1', '--no-allowed-addresses', '--signature', 'hmac')).code,
      ).toBe(0);
      expect(await showJson('c1')).toMatchObject({ signature: 'hmac', allowedAddresses: [] });
      expect((await cli('client', 'show', 'c1')).stdout).toMatch(/allowed addresses\s+any\n/);
      expect(
        (await cli('client', 'update', 'c1', '--replay-protection', 'off', '--replay-window', '3600')).code,
      ).toBe(0);
      expect(await stored((db) => findClient(db, 'c1'))).toMatchObject({
        protection: {
          replayProtection: 'off',
          replayWindowSeconds: 3600,
          signature: 'hmac',
          allowedAddresses: [],
        },
      });

      const records = await stored((db) => listAuditRecords(db, { limit: 10 }));
      expect(records.map((record) => record.action)).toEqual([
        'client.protection',
        'client.protection',
        'client.protection',
        'client.add',
      ]);
      expect(records[1]?.details).toEqual({ id: 'c1', changes: { allowedAddresses: [], signature: 'hmac' } });
    });

    it('says, while it holds, which signed times a widened window still refuses, and forgets it once narrowed back', async () => {
      await cli('client', 'add', 'wide', '--no-secret', '--replay-window', '60s');
      expect(await showJson('wide')).toMatchObject({ replayWidening: null });
      const before = Math.floor(Date.now() / 1000);
      const widened = await cli('client', 'update', 'wide', '--replay-window', '10m');
      const after = Math.floor(Date.now() / 1000);
      expect(widened.code, widened.stderr).toBe(0);
      const { replayWidening } = await showJson('wide');
      // The bound is the oldest time the old window took at the change, and it holds for the new window.
      const notBefore = Date.parse(replayWidening.signedNotBefore) / 1000;
      expect(notBefore).toBeGreaterThanOrEqual(before - 60);
      expect(notBefore).toBeLessThanOrEqual(after - 60);
      expect(Date.parse(replayWidening.until) / 1000).toBe(notBefore + 600);
      expect(widened.stdout).toContain(
        `requests signed before ${replayWidening.signedNotBefore} stay refused until ${replayWidening.until}`,
      );
      const shown = (await cli('client', 'show', 'wide')).stdout;
      expect(shown).toMatch(/replay window\s+600s \(widened: /);
      expect(shown).toContain(
        `600s (widened: requests signed before ${replayWidening.signedNotBefore} are refused until ${replayWidening.until})\n`,
      );
      // Narrowed back to the old window: it refuses those times itself, and nothing is left to say.
      const narrowed = await cli('client', 'update', 'wide', '--replay-window', '60s');
      expect(narrowed.stdout).toBe('client wide updated\n');
      expect(await showJson('wide')).toMatchObject({ replayWidening: null });
      expect((await cli('client', 'show', 'wide')).stdout).toMatch(/replay window\s+60s\n/);
    });

    it('gives a new client the defaults: no replay fields checked, the legacy signature, any address', async () => {
      await cli('client', 'add', 'plain', '--no-secret');
      expect(await showJson('plain')).toMatchObject({
        replayProtection: 'off',
        replayWindowSeconds: 300,
        signature: 'legacy',
        allowedAddresses: [],
      });
    });

    it('refuses wrong values: usage errors with exit code 2, a bad range with 1, and changes nothing', async () => {
      await cli('client', 'add', 'c2', '--no-secret', '--allow-address', '10.0.0.0/8');
      for (const args of [
        ['--replay-protection', 'sometimes'],
        ['--replay-window', '29s'],
        ['--replay-window', '2h'],
        ['--replay-window', 'soon'],
        ['--signature', 'md5'],
        ['--allow-address', '10.0.0.0/8', '--no-allowed-addresses'],
      ]) {
        const result = await cli('client', 'update', 'c2', ...args);
        expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({
          args,
          code: 2,
          lines: 1,
        });
      }
      const bad = await cli(
        'client',
        'update',
        'c2',
        '--allow-address',
        '10.1.2.3/8',
        '--allow-address',
        'intranet',
      );
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('"10.1.2.3/8" is not an address range: it has bits set beyond /8');
      expect(bad.stderr).toContain('"intranet" is not an address range');
      expect(await showJson('c2')).toMatchObject({ allowedAddresses: ['10.0.0.0/8'] });
    });
  },
);
