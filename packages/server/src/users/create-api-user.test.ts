import { sha256Hex } from '@poker-launch/sdk/internal';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { ROLE_ADMIN } from './api-user.js';
import { findApiUserByKeyHash, listApiUsers, revokeApiUser } from './api-user.repository.js';
import { createApiUser } from './create-api-user.js';

describe.each(DIALECTS)('API users on %s', (dialect) => {
  const h = useHarness(dialect);
  const now = () => h().clock.now();

  it('creates a 256-bit key, returns it once and stores only its SHA-256', async () => {
    const result = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      now(),
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.key).toMatch(/^plk_[A-Za-z0-9_-]{43}$/);
    const rows = await h().db.selectFrom('api_users').selectAll().execute();
    expect(rows).toEqual([
      {
        name: 'ops',
        key_hash: await sha256Hex(result.key),
        role: 'ROLE_ADMIN',
        permissions: '[]',
        created_at: '2026-11-21T12:00:00.000Z',
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(result.key.slice(4));
    expect(await findApiUserByKeyHash(h().db, await sha256Hex(result.key))).toEqual(result.user);
    const other = await createApiUser(
      h().db,
      { name: 'ops2', role: ROLE_ADMIN, permissions: [], clients: [] },
      now(),
    );
    expect(other.ok && other.key).not.toBe(result.key);
  });

  it('refuses a taken name, a bad name and a user without any right', async () => {
    await h().addClient({ id: 'casino-1' });
    const first = {
      name: 'ops',
      role: null,
      permissions: ['CREATE:OpenGame' as const],
      clients: ['casino-1'],
    };
    expect((await createApiUser(h().db, first, now())).ok).toBe(true);
    expect(
      await createApiUser(h().db, { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] }, now()),
    ).toEqual({
      ok: false,
      reason: 'a user named "ops" exists already',
    });
    const bad = await createApiUser(
      h().db,
      { name: 'has space', role: ROLE_ADMIN, permissions: [], clients: [] },
      now(),
    );
    expect(bad.ok).toBe(false);
    const none = await createApiUser(
      h().db,
      { name: 'nobody', role: null, permissions: [], clients: [] },
      now(),
    );
    expect(none).toEqual({ ok: false, reason: 'a user needs a role or at least one permission' });
    expect((await listApiUsers(h().db)).map((user) => user.name)).toEqual(['ops']);
  });

  it('binds a CREATE:OpenGame key to the clients it names, and refuses one naming none or an unknown one', async () => {
    await h().addClient({ id: 'casino-1' });
    await h().addClient({ id: 'casino-2' });
    const bot = (clients: string[]) => ({
      name: 'bot',
      role: null,
      permissions: ['CREATE:OpenGame' as const],
      clients,
    });
    expect(await createApiUser(h().db, bot([]), now())).toEqual({
      ok: false,
      reason: 'a key with CREATE:OpenGame acts for the clients it names: give --client <id> (repeatable)',
    });
    expect(await createApiUser(h().db, bot(['casino-1', 'nowhere']), now())).toEqual({
      ok: false,
      reason: 'no client "nowhere"; see "client list"',
    });
    const created = await createApiUser(h().db, bot(['casino-2', 'casino-1', 'casino-2']), now());
    expect(created.ok && created.user.clients).toEqual(['casino-1', 'casino-2']);
    const admin = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      now(),
    );
    expect(admin.ok && admin.user.clients).toEqual([]);
    expect((await listApiUsers(h().db)).map((user) => [user.name, user.clients])).toEqual([
      ['bot', ['casino-1', 'casino-2']],
      ['ops', []],
    ]);
    expect(await h().db.selectFrom('api_user_clients').selectAll().orderBy('client_id').execute()).toEqual([
      { user_name: 'bot', client_id: 'casino-1' },
      { user_name: 'bot', client_id: 'casino-2' },
    ]);
  });

  it('keeps the first revocation time when revoked twice', async () => {
    await createApiUser(h().db, { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] }, now());
    await revokeApiUser(h().db, 'ops', now());
    h().clock.advance(60);
    await revokeApiUser(h().db, 'ops', now());
    expect((await listApiUsers(h().db))[0]?.revokedAt).toBe('2026-11-21T12:00:00.000Z');
  });
});
