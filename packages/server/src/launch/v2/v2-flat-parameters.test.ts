import { sign, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_PROTECTION } from '../../clients/request-protection.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

describe.each(DIALECTS)('v2 body parameters it does not know, on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers 400 to a JSON:API document, saying that v2 takes flat parameters', async () => {
    const envelope = { data: { type: 'session', attributes: { nick: 'Ace', lang: 'de' } } };
    for (const format of ['json', 'form'] as const) {
      const response = await h().createSession('u-1', envelope, { format });
      expect(response.statusCode, format).toBe(400);
      expect(response.json().errors).toEqual([
        {
          status: 400,
          code: 'bad_request',
          title: 'Bad Request',
          detail:
            'v2 create session takes flat parameters (userId, nick, lang, …) in a form or a flat JSON object, ' +
            'not a JSON:API document: send them at the top level of the body',
          source: { pointer: '/data' },
        },
      ]);
    }
    expect(await h().db.selectFrom('sessions').select('id').execute()).toEqual([]);
  });

  it('names the other unknown parameters in meta.warnings (with the one a typo likely stands for), signed like the rest, and applies the known ones', async () => {
    const response = await h().createSession('u-1', {
      nick: 'Ace',
      nickname: 'Bob',
      language: 'de',
      data: 'x',
      gamecode: 'casino',
    });
    expect(response.statusCode, response.body).toBe(200);
    // A name close to one v2 knows is offered beside it: the case of gameCode is wrong here.
    expect(response.json().meta).toEqual({
      warnings: [
        'Unknown parameters were ignored: "nickname", "language", "data", "gamecode" (did you mean "gameCode"?)',
      ],
    });
    const [player] = await h().db.selectFrom('players').select('nick').execute();
    expect(player?.nick).toBe('Ace');

    // They are part of what is signed: a sign computed without them does not hold.
    const client = await h().addClient({ id: 'other' });
    const withoutUnknown = await sign({ nick: 'Ace', userId: 'u-1' }, client.secretKey ?? '');
    const refused = await h().createSession(
      'u-1',
      { nick: 'Ace', nickname: 'Bob' },
      { client, sign: withoutUnknown },
    );
    expect(refused.json().errors[0].code).toBe('invalid_signature');
  });

  it('names at most ten of them, and counts the rest', async () => {
    const params = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`extra${index}`, 'x']));
    const response = await h().createSession('u-1', params);
    expect(response.statusCode, response.body).toBe(200);
    const names = Array.from({ length: 10 }, (_, index) => `"extra${index}"`).join(', ');
    expect(response.json().meta.warnings).toEqual([`Unknown parameters were ignored: ${names} and 2 more`]);
  });

  it('does not name the replay fields ts and nonce sent in the body: the signature reads them there', async () => {
    const nonce = '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f';
    const ts = String(unixSeconds(h().clock.now()));
    const protectedClient = await h().addClient({
      id: 'protected',
      protection: { ...DEFAULT_REQUEST_PROTECTION, replayProtection: 'require' },
    });
    const params = { nick: 'Ace', ts, nonce };
    const response = await h().createSession('u-1', params, { client: protectedClient });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().meta).toBeUndefined();
    // Read and used: the same request again is a replay.
    const again = await h().createSession('u-1', params, { client: protectedClient });
    expect(again.json().errors[0].code).toBe('request_replayed');
    // On a client that does not check them, they are two more signed parameters, named nowhere either.
    const plain = await h().createSession('u-2', { nick: 'Bob', ts, nonce });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().meta).toBeUndefined();
  });

  it('has no warnings for a request made only of v2 parameters', async () => {
    const response = await h().createSession('u-1', {
      userId: 'u-1',
      nick: 'Ace',
      tableID: 3,
      lang: 'pt-BR',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().meta).toBeUndefined();
  });
});
