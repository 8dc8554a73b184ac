import { createLaunchClient, LaunchApiError } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useLiveServer } from './support/live-server.js';

describe.each(DIALECTS)('session control through the SDK on %s', (dialect) => {
  const server = useLiveServer(dialect);
  const clientFor = async () => {
    await server().addClient({ id: 'demo', secretKey: 'sdk_secret' });
    return createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', secretKey: 'sdk_secret' });
  };
  const tokenState = async (auth: string) => {
    const response = await fetch(`${server().baseUrl}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    if (response.status === 200) return 'active';
    return ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;
  };

  it('ends a v2 session by its id and a v3 one by its IRI', async () => {
    const client = await clientFor();
    const v2 = await client.createSession('u-1');
    const v3 = await client.openGame({ player: { id: 'u-2' } });
    await client.revokeSession(v2.id);
    await client.revokeSession(v3.id);
    expect([await tokenState(v2.auth), await tokenState(v3.auth)]).toEqual([
      'token_revoked',
      'token_revoked',
    ]);
    await expect(client.revokeSession('nope')).rejects.toThrow(TypeError);
  });

  it("ends a player's sessions, blocks it until a date with a reason, and lifts the block", async () => {
    const client = await clientFor();
    const sessions = [await client.createSession('u-1'), await client.createSession('u-1')];
    expect(await client.revokePlayerSessions('u-1')).toEqual({ revokedSessions: 2 });
    const live = await client.createSession('u-1');
    const until = new Date('2026-12-01T00:00:00Z');
    const block = await client.blockPlayer('u-1', { until, reason: 'self-exclusion' });
    expect(block).toMatchObject({
      playerId: 'u-1',
      blocked: true,
      until: '2026-12-01T00:00:00.000Z',
      reason: 'self-exclusion',
      revokedSessions: 1,
    });
    expect(block.warnings).toEqual([]);
    expect(await tokenState(live.auth)).toBe('token_revoked');
    await client.unblockPlayer('u-1');
    const stored = await server().db.selectFrom('players').select('blocked_at').executeTakeFirst();
    expect(stored).toEqual({ blocked_at: null });
    expect(sessions).toHaveLength(2);
  });

  it('throws LaunchApiError with the code, for an unknown player or a refused document', async () => {
    const client = await clientFor();
    const refused = await client.blockPlayer('nobody').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LaunchApiError);
    expect(refused).toMatchObject({ status: 404, code: 'player_not_found', attempts: 1 });
    await client.createSession('u-1');
    const past = await client
      .blockPlayer('u-1', { until: '2001-01-01T00:00:00Z' })
      .catch((error: unknown) => error);
    expect(past).toMatchObject({ status: 422, code: 'invalid_field', pointer: '/data/attributes/until' });
  });
});

describe('session control arguments', () => {
  it('refuses a playerId of . or .., which fetch would resolve out of the path to another route, before sending anything', async () => {
    const sent: string[] = [];
    const client = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async (url) => {
        sent.push(url);
        throw new Error('nothing should be sent');
      },
    });
    for (const playerId of ['.', '..']) {
      const message = `playerId "${playerId}" cannot travel in a URL path`;
      await expect(client.revokePlayerSessions(playerId)).rejects.toThrow(message);
      await expect(client.blockPlayer(playerId)).rejects.toThrow(message);
      await expect(client.unblockPlayer(playerId)).rejects.toThrow(message);
    }
    await expect(client.blockPlayer('')).rejects.toThrow('playerId must be a non-empty string');
    expect(sent).toEqual([]);
  });
});

describe('blockPlayer', () => {
  it("carries the answer's meta.warnings, what the service did not apply", async () => {
    const warnings = ['Unknown attributes were ignored: /data/attributes/untill'];
    const answer = {
      data: {
        type: 'PlayerBlock',
        id: 'u-1',
        attributes: { blocked: true, since: '2026-11-21T12:00:00.000Z', until: null, reason: null },
      },
      meta: { revokedSessions: 0, warnings },
    };
    const client = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async () => new Response(JSON.stringify(answer), { status: 200 }),
    });
    expect(await client.blockPlayer('u-1')).toMatchObject({ blocked: true, revokedSessions: 0, warnings });
  });
});
