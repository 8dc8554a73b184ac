import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeWithPhp, type PhpCase, phpSignatures } from '../../../../test/php/php-cli.js';
import { formTextOf, jsonObjectOf, key } from '../../../../test/php/php-inputs.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';

/**
 * PHP signs, the real service (app.inject) accepts: requests signed by real PHP running the vendor
 * pseudocode over generated parameters must never meet the signature error. Names the service reads
 * itself (the client, the user id, the signed fields) are kept out of the generated part, so each
 * request reaches the launch; what it launches with may still be refused, by a 422, never by a 400.
 */
const SEED = 20_251_124;
const RESERVED = new Set(['clientId', 'client', 'sign', 'userId', 'nick', 'lang', 'launchOptions', 'data']);
const freeKey = key.filter((name) => !RESERVED.has(name.trim().replace(/[ .]/g, '_')));
const SECRET = 'test_secret';

describeWithPhp.each(DIALECTS)('requests signed by php-cli on %s', (dialect) => {
  const h = useHarness(dialect);

  /** Sends each request with PHP's sign; none may be refused as badly signed (or fail). */
  async function expectAccepted(
    requests: { case: PhpCase; url: string; contentType: string; body: string }[],
  ): Promise<void> {
    await h().addClient({ id: 'demo', secretKey: SECRET });
    const signs = phpSignatures(requests.map((request) => request.case));
    let launched = 0;
    for (const [index, request] of requests.entries()) {
      const response = await h().app.inject({
        method: 'POST',
        url: request.url,
        headers: { 'content-type': request.contentType, sign: signs[index]?.sign ?? '' },
        payload: request.body,
      });
      const context = `${request.url}\n${request.body}\n${response.body}`;
      expect(response.statusCode, context).not.toBe(500);
      expect(response.json().errors?.[0]?.code, context).not.toBe('invalid_signature');
      if (response.statusCode < 300) launched++;
    }
    // Most requests launch: the generated parameters are extra ones, which v2 ignores with a warning.
    expect(launched).toBeGreaterThan(requests.length / 2);
  }

  const v2Url = (query: string) => `/api/web/v2/app/users/u-1/session?clientId=demo&${query}`;

  it('accepts 150 v2 form requests (queries and bodies with brackets, integer and numeric keys)', async () => {
    const pairs = fc.sample(fc.tuple(formTextOf(freeKey), formTextOf(freeKey)), { numRuns: 150, seed: SEED });
    await expectAccepted(
      pairs.map(([query, form]) => {
        const body = `lang=en&nick=Bob${form === '' ? '' : `&${form}`}`;
        return {
          case: {
            parts: [
              { type: 'query', text: `clientId=demo&${query}` },
              { type: 'form', text: body },
              { type: 'pairs', values: { userId: 'u-1' } },
            ],
            secret: SECRET,
          },
          url: v2Url(query),
          contentType: 'application/x-www-form-urlencoded',
          body,
        };
      }),
    );
  });

  it('accepts 100 v2 JSON requests (nested values, every scalar, floats, integers beyond 2^53)', async () => {
    const bodies = fc.sample(jsonObjectOf(freeKey), { numRuns: 100, seed: SEED + 1 });
    await expectAccepted(
      bodies.map((members) => {
        const body = members === '{}' ? '{"lang":"en"}' : `{"lang":"en",${members.slice(1)}`;
        return {
          case: {
            parts: [
              { type: 'query', text: 'clientId=demo' },
              { type: 'json', text: body },
              { type: 'pairs', values: { userId: 'u-1' } },
            ],
            secret: SECRET,
          },
          url: v2Url(''),
          contentType: 'application/json',
          body,
        };
      }),
    );
  });

  it('accepts 100 v3 documents with generated meta members and query parameters', async () => {
    const inputs = fc.sample(fc.tuple(formTextOf(freeKey), jsonObjectOf(key)), {
      numRuns: 100,
      seed: SEED + 2,
    });
    await expectAccepted(
      inputs.map(([query, meta]) => {
        const body = `{"data":{"type":"OpenGame","attributes":{"player":{"id":"u-1","nick":"Zoë"}}},"meta":${meta}}`;
        return {
          case: {
            parts: [
              { type: 'query', text: `client=demo&${query}` },
              { type: 'json', text: body },
            ],
            drop: ['client'],
            secret: SECRET,
          },
          url: `/apiweb/v3/open-game?client=demo&${query}`,
          contentType: 'application/vnd.api+json',
          body,
        };
      }),
    );
  });
});
