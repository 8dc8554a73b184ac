import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';

const MALFORMED = { status: 400, code: 'bad_request', detail: 'The query string is malformed' };
const TOO_MANY = Array.from({ length: 1001 }, (_, index) => `p${index}=1`).join('&');

describe('a malformed query string', () => {
  const h = useHarness('sqlite');

  const launchAuth = async () => {
    const response = await h().createSession('u-1');
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.attributes.auth as string;
  };

  it('answers 400 "The query string is malformed" on v2, not a misleading signature error', async () => {
    await h().addClient();
    const signed = async (query: string) =>
      h().app.inject({
        method: 'POST',
        url: `/api/web/v2/app/users/u-1/session?clientId=demo${query}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          sign: await sign({ userId: 'u-1', lang: 'en' }, 'test_secret'),
          'x-request-id': '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
        },
        payload: 'lang=en',
      });
    for (const query of ['&bad=%E0%A4%A', `&${TOO_MANY}`]) {
      const response = await signed(query);
      expect(response.statusCode, query.slice(0, 20)).toBe(400);
      expect(response.json().errors).toEqual([expect.objectContaining(MALFORMED)]);
      expect(response.headers['x-request-id']).toBe('3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    }
    expect((await signed('')).statusCode).toBe(200);
  });

  it('answers 400 on a game page, rather than serving it without its frame origins', async () => {
    await h().addClient({ frameOrigins: ['https://casino.example'] });
    const auth = await launchAuth();
    for (const query of [`auth=${auth}&lang=%FF`, `auth=${auth}&${TOO_MANY}`]) {
      const response = await h().app.inject({ method: 'GET', url: `/play/poker?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([expect.objectContaining(MALFORMED)]);
    }
    const framed = await h().app.inject({ method: 'GET', url: `/play/poker?auth=${auth}&lang=en` });
    expect(framed.headers['content-security-policy']).toContain('frame-ancestors https://casino.example');
  });

  it('answers 400 on the token API, not 401 as though no token had been sent', async () => {
    await h().addClient();
    const auth = await launchAuth();
    const response = await h().app.inject({
      method: 'GET',
      url: `/api/web/v2/app/session?access-token=${auth}&x=%C0%80`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([expect.objectContaining(MALFORMED)]);
  });
});
