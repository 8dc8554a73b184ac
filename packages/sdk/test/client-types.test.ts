import {
  type CreateSessionParams,
  type CreateSessionResult,
  createLaunchClient,
  type FetchLike,
  type GameSession,
  type GameSessionState,
  type GameSessionStateDocument,
  LaunchApiError,
  type LaunchApiErrorInit,
  type LaunchErrorCode,
  type OpenGameResult,
  type PlayerBlock,
} from '@poker-launch/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';

// These cases are checked by the compiler (`npx tsc -p tsconfig.test.json`, part of `npm test`): every
// `@ts-expect-error` line must fail to compile, or the type check fails. The calls sit in functions that
// never run; what vitest runs is the expectTypeOf assertions, which are no-ops at run time.
const client = createLaunchClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'demo', secretKey: 's' });

describe('createSession parameter types', () => {
  it('accept each of the six targets', () => {
    expectTypeOf<{ lang: 'en' }>().toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'poker'; tableId: number }>().toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'casinoLobby' }>().toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'casino'; gameId: string; currency: string }>().toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'sport' }>().toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'sport'; gameId: string }>().toExtend<CreateSessionParams>();
  });

  it('refuse invalid calls at compile time', () => {
    expectTypeOf<{ gameCode: 'casino'; gameId: string }>().not.toExtend<CreateSessionParams>();
    expectTypeOf<{ gameCode: 'bingo' }>().not.toExtend<CreateSessionParams>();
    const invalidCalls = () => {
      // @ts-expect-error casino needs gameId and currency
      void client.createSession('u-1', { gameCode: 'casino' });
      // @ts-expect-error casino needs currency too
      void client.createSession('u-1', { gameCode: 'casino', gameId: 'roulette' });
      void client.createSession('u-1', {
        gameCode: 'casino',
        gameId: 'roulette',
        currency: 'EUR',
        // @ts-expect-error tableId only with poker
        tableId: 7,
      });
      // @ts-expect-error tableId only with poker
      void client.createSession('u-1', { gameCode: 'sport', tableId: 7 });
      // @ts-expect-error tableId only with poker
      void client.createSession('u-1', { gameCode: 'casinoLobby', tableId: 7 });
      // @ts-expect-error gameId does not apply to poker (the default target)
      void client.createSession('u-1', { gameId: 'roulette' });
      // @ts-expect-error unknown gameCode
      void client.createSession('u-1', { gameCode: 'bingo' });
      // @ts-expect-error authType is internal or external
      void client.createSession('u-1', { authType: 'session' });
      // @ts-expect-error tableId is a number
      void client.createSession('u-1', { tableId: '7' });
      // @ts-expect-error v3 needs the player
      void client.openGame({ session: { tableId: 7 } });
      // @ts-expect-error avatar is an integer id
      void client.openGame({ player: { id: 'u-1', avatar: '3' } });
    };
    expectTypeOf(invalidCalls).toBeFunction();
  });
});

describe('the fetch option', () => {
  it('takes the runtime fetch as it is', () => {
    expectTypeOf(globalThis.fetch).toExtend<FetchLike>();
  });
});

describe('result and error types', () => {
  it('give the flattened fields as strings', () => {
    expectTypeOf(client.createSession).returns.resolves.toEqualTypeOf<CreateSessionResult>();
    expectTypeOf<CreateSessionResult['redirectUrl']>().toEqualTypeOf<string>();
    expectTypeOf<CreateSessionResult['warnings']>().toEqualTypeOf<string[]>();
    expectTypeOf<OpenGameResult['url']>().toEqualTypeOf<string>();
    expectTypeOf<OpenGameResult['playerId']>().toEqualTypeOf<string>();
  });

  it('type a GameSession read back: its state a closed union, tableId a number exactly at a table', () => {
    expectTypeOf(client.getGameSession).returns.resolves.toEqualTypeOf<GameSession>();
    expectTypeOf<GameSession['state']>().toEqualTypeOf<'active' | 'expired' | 'revoked'>();
    expectTypeOf<GameSessionStateDocument['data']['attributes']['state']>().toEqualTypeOf<GameSessionState>();
    expectTypeOf<GameSession['expiresAt']>().toEqualTypeOf<string>();
    expectTypeOf<GameSession['revokedAt']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<GameSession['apiUser']>().toEqualTypeOf<string | null | undefined>();
    const tableOf = (read: GameSession) => {
      // @ts-expect-error a lobby session has no table
      const table: number = read.tableId;
      return read.target === 'table' ? read.tableId : table;
    };
    expectTypeOf(tableOf).returns.toEqualTypeOf<number>();
    // @ts-expect-error not a state the service answers
    const paused = (read: GameSession) => read.state === 'paused';
    expectTypeOf(paused).returns.toBeBoolean();
  });

  it('type a player block read back without what only blocking answers', () => {
    expectTypeOf(client.getPlayerBlock).returns.resolves.toEqualTypeOf<PlayerBlock>();
    expectTypeOf<PlayerBlock['blocked']>().toEqualTypeOf<boolean>();
    expectTypeOf<PlayerBlock['until']>().toEqualTypeOf<string | null>();
    expectTypeOf<PlayerBlock>().not.toHaveProperty('revokedSessions');
  });

  it('type the error code as the known codes or any other text, since a newer service may send a new one', () => {
    expectTypeOf<LaunchErrorCode>().toExtend<LaunchApiError['code']>();
    expectTypeOf<'username_exists'>().toExtend<LaunchErrorCode>();
    expectTypeOf<'username_too_long'>().toExtend<LaunchErrorCode>();
    // A code this SDK does not know arrives as it was sent: the type says so.
    expectTypeOf<'a_code_of_a_newer_service'>().toExtend<LaunchApiError['code']>();
    expectTypeOf<LaunchApiError['code']>().not.toEqualTypeOf<LaunchErrorCode>();
    expectTypeOf<LaunchApiError['errors'][number]['code']>().toEqualTypeOf<LaunchApiError['code']>();
    // So a switch over the known codes is not exhaustive: what it leaves is not `never`.
    const exhaustive = (error: LaunchApiError) => {
      switch (error.code) {
        case 'username_exists':
        case 'username_too_long':
          return 'business';
        default: {
          const rest: Exclude<LaunchErrorCode, 'username_exists' | 'username_too_long'> | (string & {}) =
            error.code;
          // @ts-expect-error an unknown code reaches the default: it is not never
          const none: never = error.code;
          return [rest, none].join();
        }
      }
    };
    expectTypeOf(exhaustive).returns.toBeString();
    // Known codes are still given as themselves.
    expectTypeOf<Extract<LaunchApiError['code'], 'username_exists'>>().toEqualTypeOf<'username_exists'>();
  });

  it('pass on a code the SDK does not know, as it came', async () => {
    const fetchNewCode: FetchLike = async () =>
      new Response(
        JSON.stringify({
          errors: [{ status: '409', code: 'a_code_of_a_newer_service', title: 'Conflict', detail: 'New.' }],
        }),
        { status: 409, headers: { 'content-type': 'application/vnd.api+json' } },
      );
    const newer = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      secretKey: 's',
      fetch: fetchNewCode,
    });
    const error = await newer.createSession('u-1', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LaunchApiError);
    expect((error as LaunchApiError).code).toBe('a_code_of_a_newer_service');
  });
});

describe('LaunchApiErrorInit', () => {
  it("is the constructor's argument, so that an integrator's test double of a refusal is typed", () => {
    expectTypeOf<ConstructorParameters<typeof LaunchApiError>[0]>().toEqualTypeOf<LaunchApiErrorInit>();
    const taken: LaunchApiErrorInit = {
      status: 500,
      attempts: 1,
      errors: [
        {
          status: 500,
          code: 'username_exists',
          title: 'Internal Server Error',
          detail: 'A Player with this username already exists in the system.',
        },
      ],
    };
    const error = new LaunchApiError(taken);
    expect([error.status, error.code, error.isBusinessError]).toEqual([500, 'username_exists', true]);
  });
});
