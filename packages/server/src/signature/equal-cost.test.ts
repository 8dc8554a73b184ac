import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { type Harness, useHarness } from '../test-support/harness.js';
import { DIALECTS, type Dialect } from '../test-support/test-database.js';
import { generateApiKey } from '../users/api-key.js';
import { PERMISSION_CREATE_OPEN_GAME } from '../users/api-user.js';
import { revokeApiUser } from '../users/api-user.repository.js';
import { createApiUser } from '../users/create-api-user.js';

/**
 * Refusals an outsider could learn from must cost the same time (docs/design.md §11). The method, for a
 * shared, loaded machine where one request's time says nothing:
 *
 * - every kind of refusal is sent ROUNDS times, interleaved round-robin (the order rotating each round),
 *   so a noisy neighbour, a GC pause or a warming JIT falls on every kind alike; WARMUP rounds first;
 * - each sample is process.hrtime.bigint() around one app.inject, the whole request through Fastify;
 * - the kinds' medians are compared with the reference kind's: each must lie within TOLERANCE of it
 *   (relative) or ABSOLUTE_US microseconds, whichever is larger;
 * - a batch out of tolerance is measured again, up to ATTEMPTS batches: noise passes one of them, while
 *   a systematic cost (a database round trip on every miss, as before: +0.4 to +0.9 ms) fails them all.
 *
 * Requests come from the loopback address, which is not counted for the failure lockout, so none of
 * the thousands of refusals is answered 429 instead.
 */
const WARMUP = 50;
const ROUNDS = 400;
const ATTEMPTS = 3;
const TOLERANCE = 0.2;
const ABSOLUTE_US = 40;

type Request = () => Promise<{ statusCode: number }>;

/** The median time of each kind of request, in microseconds, over interleaved rounds. */
async function interleavedMedians(
  kinds: Record<string, Request>,
  rounds: number,
): Promise<Record<string, number>> {
  const names = Object.keys(kinds);
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as string;
      const request = kinds[name] as Request;
      const start = process.hrtime.bigint();
      await request();
      samples.get(name)?.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples.get(name) ?? [])]));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The kinds' medians against `reference`'s; the batches measured, for the failure message. */
async function expectEqualCost(kinds: Record<string, Request>, reference: string): Promise<void> {
  await interleavedMedians(kinds, WARMUP);
  const batches: Record<string, number>[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const medians = await interleavedMedians(kinds, ROUNDS);
    batches.push(medians);
    const base = medians[reference] as number;
    const allowed = Math.max(base * TOLERANCE, ABSOLUTE_US);
    if (Object.values(medians).every((value) => Math.abs(value - base) <= allowed)) {
      console.info(`equal cost, medians in µs: ${JSON.stringify(rounded(medians))}`);
      return;
    }
  }
  expect.fail(
    `medians (µs) differ beyond the tolerance in every batch: ${JSON.stringify(batches.map(rounded))}`,
  );
}

function rounded(medians: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(medians).map(([name, value]) => [name, Math.round(value)]));
}

const WRONG_SIGN = 'f'.repeat(64);

describe.each(DIALECTS)('refusals that must not tell what exists, on %s', (dialect) => {
  const h = useHarness(dialect);

  const launchAs = (harness: Harness, clientId: string, signature: string) => () =>
    harness.app.inject({
      method: 'POST',
      url: `/api/web/v2/app/users/u-1/session?clientId=${clientId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', sign: signature },
      payload: 'lang=en&nick=Player1',
    });

  it('an unknown client id, a disabled client and a wrong secret cost the same time', async () => {
    const client = await h().addClient({ id: 'demo' });
    await h().addClient({ id: 'off', active: false });
    // The sign the right secret gives for the disabled client: only being disabled refuses it.
    const offSign = await sign({ userId: 'u-1', lang: 'en', nick: 'Player1' }, client.secretKey ?? '');
    const kinds = {
      wrongSecret: launchAs(h(), 'demo', WRONG_SIGN),
      unknownClient: launchAs(h(), 'nobody', WRONG_SIGN),
      disabledClient: launchAs(h(), 'off', offSign),
    };
    for (const request of Object.values(kinds)) {
      const response = await request();
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors[0].code).toBe('invalid_signature');
    }
    await expectEqualCost(kinds, 'wrongSecret');
  });

  it('an unknown, a revoked and a valid key bound to another client cost the same time', async () => {
    await h().addClient({ id: 'demo' });
    await h().addClient({ id: 'other' });
    const keyFor = async (name: string, clients: string[]) => {
      const made = await createApiUser(
        h().db,
        { name, role: null, permissions: [PERMISSION_CREATE_OPEN_GAME], clients },
        h().clock.now(),
      );
      if (!made.ok) throw new Error(made.reason);
      return made.key;
    };
    const revoked = await keyFor('revoked', ['demo']);
    await revokeApiUser(h().db, 'revoked', h().clock.now());
    const elsewhere = await keyFor('elsewhere', ['other']);
    await h().refresh();
    const openGameWith = (key: string) => () =>
      h().app.inject({
        method: 'POST',
        url: '/apiweb/v3/open-game?client=demo',
        headers: { 'content-type': 'application/vnd.api+json', authorization: `Bearer ${key}` },
        payload: JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: 'u-1' } } } }),
      });
    const kinds = {
      revokedKey: openGameWith(revoked),
      unknownKey: openGameWith(generateApiKey()),
      otherClientsKey: openGameWith(elsewhere),
    };
    const statuses = [];
    for (const request of Object.values(kinds)) statuses.push((await request()).statusCode);
    expect(statuses).toEqual([401, 401, 403]);
    await expectEqualCost(kinds, 'revokedKey');
  });
});

/**
 * The signature schemes' refusals on one dialect: the clients are held in memory, so the store is not
 * read on this path (it was once, on every miss: a round trip costs most on PostgreSQL, which is why it
 * is the one measured when present); this comparison's large documents took 35 s a dialect.
 */
const SCHEMES_DIALECT = DIALECTS.at(-1) as Dialect;

describe(`a sign's scheme must not tell what exists, on ${SCHEMES_DIALECT}`, () => {
  const h = useHarness(SCHEMES_DIALECT);

  it('a sign of either scheme costs the same for an unknown client as for one on the API signature or mid-rotation', async () => {
    // A large document, so the signature's own work outweighs the rest of the request.
    const extra = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`k${i}`, `v${i}-${'x'.repeat(20)}`]),
    );
    const payload = JSON.stringify({
      data: { type: 'OpenGame', attributes: { session: { id: 's-1' }, player: { id: 'u-1' }, extra } },
    });
    await h().addClient({ id: 'demo' });
    await h().addClient({
      id: 'rotating',
      previousSecret: {
        key: 'the-previous-secret-0',
        until: new Date(h().clock.now().getTime() + 3600_000).toISOString(),
      },
    });
    const hmacShaped = () =>
      `t=${Math.floor(h().clock.now().getTime() / 1000)},n=abcdefabcdefabcdef12,hmac=${'a'.repeat(64)}`;
    const openGameAs = (clientId: string, signature: () => string) => () =>
      h().app.inject({
        method: 'POST',
        url: `/apiweb/v3/open-game?client=${clientId}`,
        headers: { 'content-type': 'application/vnd.api+json', sign: signature() },
        payload,
      });
    const kinds = {
      hmacUnknownClient: openGameAs('nobody', hmacShaped),
      hmacLegacyClient: openGameAs('demo', hmacShaped),
      hmacRotatingClient: openGameAs('rotating', hmacShaped),
      hexUnknownClient: openGameAs('nobody', () => WRONG_SIGN),
      hexLegacyClient: openGameAs('demo', () => WRONG_SIGN),
      hexRotatingClient: openGameAs('rotating', () => WRONG_SIGN),
    };
    for (const request of Object.values(kinds)) {
      const response = await request();
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors[0].code).toBe('invalid_signature');
    }
    await expectEqualCost(
      {
        hmacUnknownClient: kinds.hmacUnknownClient,
        hmacLegacyClient: kinds.hmacLegacyClient,
        hmacRotatingClient: kinds.hmacRotatingClient,
      },
      'hmacUnknownClient',
    );
    await expectEqualCost(
      {
        hexUnknownClient: kinds.hexUnknownClient,
        hexLegacyClient: kinds.hexLegacyClient,
        hexRotatingClient: kinds.hexRotatingClient,
      },
      'hexUnknownClient',
    );
  });
});
