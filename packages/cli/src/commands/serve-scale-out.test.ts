import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { MIGRATIONS } from '../test-support/migration-names.js';
import { adminQuery } from '../test-support/postgres-admin.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { usePostgresDatabase } from '../test-support/temp-database.js';

const postgresUrl = process.env.TEST_DATABASE_URL ?? '';

describe.runIf(postgresUrl)('three poker-launch instances on one PostgreSQL database', () => {
  const database = usePostgresDatabase(postgresUrl, { migrated: false });

  it('start together on an empty database, act as one service, and lose no acknowledged session when one is killed', async () => {
    // Started at the same moment on an empty database: one migrates, the others wait on its lock.
    const started = await Promise.allSettled([1, 2, 3].map(() => runServe(database().url)));
    const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
      const [a, b, c] = instances as [ServeProcess, ServeProcess, ServeProcess];
      for (const instance of instances) expect(instance.stderr()).toBe('');
      const migrations = await adminQuery(database().url, 'SELECT name FROM kysely_migration ORDER BY name');
      expect(migrations.rows.map((row) => row.name)).toEqual(MIGRATIONS);
      // A first start creates the demo client once, whichever instance wins.
      const printed = instances.filter((instance) => instance.stdout().includes('client id: demo'));
      expect(printed).toHaveLength(1);
      const { clientId, secret } = printedCredentials(printed[0]?.stdout() ?? '');

      // Created on A, read on B, ended on C, seen ended on A and B.
      const created = await createSession(a.address, clientId, secret, 'u-1');
      expect(created.status).toBe(200);
      const bearer = { authorization: `Bearer ${created.body.data.attributes.auth}` };
      const tokenApi = (instance: ServeProcess, method = 'GET') =>
        fetch(`${instance.address}/api/web/v2/app/session`, { method, headers: bearer });
      expect((await tokenApi(b)).status).toBe(200);
      expect((await tokenApi(c, 'DELETE')).status).toBe(204);
      for (const instance of [a, b]) {
        const response = await tokenApi(instance);
        expect(response.status).toBe(401);
        expect(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe(
          'token_revoked',
        );
      }
      // v3: opened on C, read on B with the same signature rules.
      const document = { data: { type: 'OpenGame', attributes: { player: { id: 'u-9' } } } };
      const opened = await fetch(`${c.address}/apiweb/v3/open-game?client=${clientId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/vnd.api+json',
          sign: await sign({ data: document.data }, secret),
        },
        body: JSON.stringify(document),
      });
      expect(opened.status).toBe(201);
      const location = opened.headers.get('location') ?? '';
      const read = await fetch(`${b.address}${location}?client=${clientId}`, {
        headers: { sign: await sign({ id: location.split('/').pop() ?? '' }, secret) },
      });
      expect(read.status).toBe(200);

      // Load on all three; B killed with SIGKILL in the middle of it.
      // The launches after the 60th wait until B is dead, so that A and C are seen serving without it
      // however long the kill takes on a loaded machine.
      const acknowledged: { id: string; by: ServeProcess; at: number }[] = [];
      let killedAt = Number.POSITIVE_INFINITY;
      let markKilled = () => {};
      const killed = new Promise<void>((resolve) => (markKilled = resolve));
      let next = 0;
      const worker = async () => {
        while (next < 180) {
          const index = next++;
          if (index > 60) await killed;
          const instance = instances[index % 3] as ServeProcess;
          try {
            const response = await createSession(instance.address, clientId, secret, `load-${index}`);
            if (response.status === 200)
              acknowledged.push({ id: response.body.data.id, by: instance, at: Date.now() });
            else expect(response.status).toBe(503);
          } catch {
            // B's connections fail once it is dead: not acknowledged, so not expected in the database.
            expect(instance).toBe(b);
          }
          if (index === 60) {
            await b.stop('SIGKILL');
            killedAt = Date.now();
            markKilled();
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));

      const afterKill = acknowledged.filter((ack) => ack.at > killedAt);
      expect(afterKill.filter((ack) => ack.by === a).length).toBeGreaterThan(10);
      expect(afterKill.filter((ack) => ack.by === c).length).toBeGreaterThan(10);
      const ids = acknowledged.map((ack) => ack.id);
      const stored = await adminQuery(database().url, 'SELECT id FROM sessions WHERE id = ANY($1)', [ids]);
      expect(stored.rows.map((row) => row.id).sort()).toEqual([...ids].sort());
      expect((await fetch(`${a.address}/readyz`)).status).toBe(200);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    }
  });
});
