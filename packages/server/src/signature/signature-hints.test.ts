import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';

const V2 = '/api/web/v2/app/users/u-1/session';
const V3 = '/apiweb/v3/open-game';
const FORM = 'application/x-www-form-urlencoded';
const JSON_API = 'application/vnd.api+json';

/** The requests integrators get wrong most, each with the hint a staging answer must carry. */
const MISTAKES = [
  {
    name: 'a sign sent in the query string',
    request: { url: `${V2}?clientId=demo&sign=abc`, type: FORM, body: 'lang=en' },
    hint: {
      code: 'sign_header_missing',
      detail:
        'No sign header was sent, but a sign parameter came in the query string: send the signature in the sign HTTP header instead',
    },
  },
  {
    name: 'a sign sent in the body',
    request: { url: `${V2}?clientId=demo`, type: FORM, body: 'lang=en&sign=abc' },
    hint: { code: 'sign_header_missing', detail: expect.stringContaining('came in the body') },
  },
  {
    name: 'no clientId (v2)',
    request: { url: V2, type: FORM, body: 'lang=en', sign: 'f'.repeat(64) },
    hint: {
      code: 'client_missing',
      detail: 'No clientId query parameter was sent: the request names no client',
    },
  },
  {
    name: 'no client (v3)',
    request: {
      url: V3,
      type: JSON_API,
      body: '{"data":{"type":"OpenGame","attributes":{"player":{"id":"u-1"}}}}',
      sign: 'f'.repeat(64),
    },
    hint: {
      code: 'client_missing',
      detail: 'No client query parameter was sent: the request names no client',
    },
  },
  {
    name: 'a JSON body sent as a form',
    request: { url: `${V2}?clientId=demo`, type: FORM, body: '{"lang":"en"}', sign: 'f'.repeat(64) },
    hint: {
      code: 'body_misread',
      detail: expect.stringContaining('holds JSON: send Content-Type: application/json'),
    },
  },
  {
    name: 'nothing to sign',
    request: { url: `${V3}?client=demo`, type: JSON_API, body: '{}', sign: 'f'.repeat(64) },
    hint: { code: 'no_parameters', detail: expect.stringContaining('No parameter was signed') },
  },
];

describe('signature errors of a staging deployment', () => {
  const h = useHarness('sqlite');

  for (const mistake of MISTAKES) {
    it(`say what explains ${mistake.name}, next to the canonical string`, async () => {
      await h().addClient({ id: 'demo', secretKey: 'test_secret' });
      const {
        url,
        type,
        body,
        sign: signature,
      } = mistake.request as typeof mistake.request & { sign?: string };
      const response = await h().app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': type, ...(signature === undefined ? {} : { sign: signature }) },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      const { meta } = response.json();
      expect(meta.signature.hints).toContainEqual(mistake.hint);
      expect(meta.signature.tester).toBe(`${h().config.publicUrl}/tools/signature`);
      expect(typeof meta.signature.canonical).toBe('string');
    });
  }

  it('says nothing more for a wrong secret than for a client that does not exist', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const answer = async (clientId: string) =>
      h().app.inject({
        method: 'POST',
        url: `${V2}?clientId=${clientId}`,
        headers: { 'content-type': FORM, sign: await sign({ userId: 'u-1', lang: 'en' }, 'wrong') },
        payload: 'lang=en',
      });
    const [wrong, unknown] = [await answer('demo'), await answer('nobody')];
    expect(wrong.json().meta.signature).toEqual(unknown.json().meta.signature);
    expect(wrong.json().meta.signature.hints).toEqual([]);
  });
});

describe('signature errors of a production deployment', () => {
  const h = useHarness('sqlite', { POKER_LAUNCH_ENV: 'production' });

  it('stay as opaque as ever: the same 400, no meta beyond the request id, whatever the mistake', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    for (const { request } of MISTAKES) {
      const { url, type, body, sign: signature } = request as typeof request & { sign?: string };
      const response = await h().app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': type, ...(signature === undefined ? {} : { sign: signature }) },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      const document = response.json();
      expect(document.errors).toEqual([
        {
          status: 400,
          code: 'invalid_signature',
          title: 'Bad Request',
          detail: 'Not valid request signature',
        },
      ]);
      expect(Object.keys(document.meta)).toEqual(['requestId']);
    }
  });
});
