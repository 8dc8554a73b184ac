import { sign } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('session control across two running instances on %s', (kind) => {
  const database = useTempDatabase(kind);
  let instances: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });

  it('a session ended or a player blocked on one instance: the token is refused on the other at once', async () => {
    const a = await runServe(database().url);
    const b = await runServe(database().url);
    instances = [a, b];
    const { clientId, secret } = printedCredentials(a.stdout());
    const tokenCode = async (instance: ServeProcess, auth: string) => {
      const response = await fetch(`${instance.address}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${auth}` },
      });
      return response.status === 200
        ? 'active'
        : ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;
    };

    const one = await createSession(a.address, clientId, secret, 'u-1');
    expect(await tokenCode(b, one.body.data.attributes.auth)).toBe('active');
    const id = one.body.data.id;
    const ended = await fetch(`${a.address}/apiweb/v3/game-sessions/${id}?client=${clientId}`, {
      method: 'DELETE',
      headers: { sign: await sign({ id }, secret) },
    });
    expect(ended.status).toBe(204);
    // Token lookups read the database, never a cache: the very next read on the other instance refuses it.
    expect(await tokenCode(b, one.body.data.attributes.auth)).toBe('token_revoked');

    const longLife = await fetch(`${b.address}/apiweb/v3/open-game?client=${clientId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/vnd.api+json',
        sign: await sign({ data: { type: 'OpenGame', attributes: { player: { id: 'u-2' } } } }, secret),
      },
      body: JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: 'u-2' } } } }),
    });
    expect(longLife.status).toBe(201);
    const auth = ((await longLife.json()) as { data: { attributes: { auth: string } } }).data.attributes.auth;
    const document = { data: { type: 'PlayerBlock', attributes: { reason: 'fraud' } } };
    const blocked = await fetch(`${b.address}/apiweb/v3/players/u-2/block?client=${clientId}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/vnd.api+json',
        sign: await sign({ playerId: 'u-2', ...document }, secret),
      },
      body: JSON.stringify(document),
    });
    expect(blocked.status).toBe(200);
    expect(await tokenCode(a, auth)).toBe('token_revoked');
  });
});
