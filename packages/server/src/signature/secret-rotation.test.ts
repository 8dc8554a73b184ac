import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { changeClient } from '../admin/client-admin.js';
import { findClient } from '../clients/client.repository.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { getGameSession, openGame, openGameDocument } from '../test-support/v3-requests.js';

const OLD = 'old-secret-0123456789';
const NEW = 'new-secret-9876543210';

describe.each(DIALECTS)('secret rotation with an overlap on %s', (dialect) => {
  const h = useHarness(dialect);
  const rotate = async (secretKey: string | null, keepForSeconds?: number) => {
    const now = h().clock.now();
    const until =
      keepForSeconds === undefined
        ? undefined
        : new Date(now.getTime() + keepForSeconds * 1000).toISOString();
    const changed = await changeClient(
      h().db,
      'demo',
      { secretKey, ...(until === undefined ? {} : { keepPreviousSecretUntil: until }) },
      now,
    );
    if (!changed.ok) throw new Error(changed.reason);
    await h().refresh(); // what every instance does within a second of the change
    return changed.value.client;
  };
  /** v2 and v3 statuses of a request signed with `secret`. */
  const statusesWith = async (secret: string, userId: string) => {
    const v2 = await h().createSession(userId, {}, { sign: await sign({ userId }, secret) });
    const document = openGameDocument({ id: userId });
    const v3 = await openGame(h(), document, { sign: await sign(document, secret) });
    return [v2.statusCode, v3.statusCode];
  };

  it('keeps the replaced secret signing until the overlap ends, to the second, then only the new one', async () => {
    await h().addClient({ id: 'demo', secretKey: OLD });
    const rotated = await rotate(NEW, 3600);
    expect(rotated.previousSecret).toEqual({ key: OLD, until: '2026-11-21T13:00:00.000Z' });

    expect(await statusesWith(OLD, 'u-1')).toEqual([200, 201]);
    expect(await statusesWith(NEW, 'u-2')).toEqual([200, 201]);
    h().clock.advance(3599);
    expect(await statusesWith(OLD, 'u-3')).toEqual([200, 201]);
    h().clock.advance(1);
    expect(await statusesWith(OLD, 'u-4')).toEqual([400, 400]);
    expect(await statusesWith(NEW, 'u-5')).toEqual([200, 201]);
  });

  it('accepts either secret on the GameSession read-back during the overlap', async () => {
    await h().addClient({ id: 'demo', secretKey: OLD });
    const created = await openGame(h(), openGameDocument({ id: 'u-1' }));
    await rotate(NEW, 60);
    const iri = created.json().data.id as string;
    const id = iri.split('/').pop() ?? '';
    for (const secret of [OLD, NEW]) {
      const read = await getGameSession(h(), iri, { sign: await sign({ id }, secret) });
      expect(read.statusCode, secret).toBe(200);
    }
  });

  it('drops the previous secret at once when a rotation keeps none, and when the secret is removed', async () => {
    await h().addClient({ id: 'demo', secretKey: OLD });
    await rotate(NEW, 3600);
    await rotate('third-secret-000000000');
    expect((await findClient(h().db, 'demo'))?.previousSecret).toBeUndefined();
    expect(await statusesWith(NEW, 'u-1')).toEqual([400, 400]);

    await rotate('fourth-secret-00000000', 3600);
    await rotate(null);
    expect((await findClient(h().db, 'demo'))?.previousSecret).toBeUndefined();
  });

  it('keeps only the secret just replaced: a second rotation within the overlap retires the first secret', async () => {
    await h().addClient({ id: 'demo', secretKey: OLD });
    await rotate(NEW, 3600);
    await rotate('third-secret-000000000', 3600);
    expect(await statusesWith(OLD, 'u-1')).toEqual([400, 400]);
    expect(await statusesWith(NEW, 'u-2')).toEqual([200, 201]);
  });

  it('refuses to keep a previous secret without a new one', async () => {
    await h().addClient({ id: 'demo', secretKey: OLD });
    const changed = await changeClient(
      h().db,
      'demo',
      { keepPreviousSecretUntil: '2026-11-22T00:00:00.000Z' },
      h().clock.now(),
    );
    expect(changed).toEqual({
      ok: false,
      reason: 'keeping the previous secret needs a new one to replace it',
    });
  });
});
