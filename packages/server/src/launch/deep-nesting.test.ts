import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';

/** `levels` objects, one inside the other, as JSON text: {"a":{"a":…{}}}. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
/** JSON nesting 10,000 levels, enough to overflow the stack once; percent-encoded in a form, ~60 KB. */
const HOSTILE = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
const TOO_DEEP = 'launchOptions must not nest deeper than 32 levels';

describe.each(DIALECTS)('deeply nested input on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers 422 invalid_field when a v2 launchOptions string decodes to more than 32 levels', async () => {
    const client = await h().addClient({ id: 'open', secretKey: null });
    for (const launchOptions of [HOSTILE, nestedObjects(33)]) {
      const response = await h().createSession('u-1', { launchOptions }, { client, sign: null });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        expect.objectContaining({
          code: 'invalid_field',
          detail: TOO_DEEP,
          source: { pointer: '/data/attributes/launchOptions' },
        }),
      ]);
    }
    const atCap = await h().createSession(
      'u-1',
      { launchOptions: nestedObjects(32) },
      { client, sign: null },
    );
    expect(atCap.statusCode).toBe(200);
  });

  it('answers 422 invalid_field when a v3 session.launchOptions string decodes to more than 32 levels', async () => {
    const client = await h().addClient({ id: 'open', secretKey: null });
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }, { launchOptions: HOSTILE }), {
      client,
      sign: null,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      expect.objectContaining({
        code: 'invalid_field',
        detail: `session.${TOO_DEEP}`,
        source: { pointer: '/data/attributes/session/launchOptions' },
      }),
    ]);
  });

  // S2: these reach the signature check with a bogus sign. The v3 deep body is refused by the JSON parser;
  // the JSON strings make the SDK throw its RangeError, which authenticate-client answers with 400.
  describe('before authentication, with a bogus sign (S2)', () => {
    it('answers 400 to a v3 body nested 30,000 levels deep', async () => {
      await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
      const response = await openGame(h(), `{"data":${'['.repeat(30_000)}${']'.repeat(30_000)}}`, {
        sign: 'f'.repeat(64),
      });
      expect(response.statusCode).toBe(400);
    });

    it('answers the 400 signature error, not 500, to a v2 form and a v3 body whose launchOptions string nests 10,000 levels', async () => {
      const client = await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
      const v2 = await h().createSession('u-1', { launchOptions: HOSTILE }, { client, sign: 'f'.repeat(64) });
      const v3 = await openGame(h(), openGameDocument({ id: 'u-1' }, { launchOptions: HOSTILE }), {
        client,
        sign: 'f'.repeat(64),
      });
      // PHP's json_decode gives up past 512 levels, so the signature takes the string as it is, and
      // the bogus sign is what is refused.
      for (const response of [v2, v3]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual([expect.objectContaining({ code: 'invalid_signature' })]);
      }
    });
  });
});
