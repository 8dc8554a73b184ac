import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeWithPhp, type PhpHmacCase, phpHmacSignatures } from '../../../../test/php/php-cli.js';
import {
  EMPTY_BODY_SHA256,
  formatHmacSignHeader,
  hmacSignature,
  hmacSignHeader,
  hmacSigningText,
  isHmacSignHeader,
  parseHmacSignHeader,
  verifyHmacSign,
} from './hmac.js';
import { unixSeconds } from './replay-fields.js';

const V2_TARGET = '/api/web/v2/app/users/12345/session?clientId=demo';
const NONCE = '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f';
const V3_BODY =
  '{"data":{"type":"OpenGame","attributes":{"session":{"tableId":7},"player":{"id":"u-1","nick":"Zoë"}}}}';

/**
 * The hmac vectors of docs/integration.md. Their hmac is asserted as written there, and again as real
 * php-cli computes it (below), so the documented value and the PHP an integrator runs agree.
 */
const DOCUMENTED: (PhpHmacCase & { hmac: string })[] = [
  {
    method: 'POST',
    target: V2_TARGET,
    t: 1795262400,
    n: NONCE,
    body: 'nick=Player1&lang=en&authType=external',
    secret: 'test_secret',
    hmac: '2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773',
  },
];

const asRequest = (item: PhpHmacCase) => ({
  method: item.method,
  target: item.target,
  body: item.body,
  timestamp: item.t,
  nonce: item.n,
});

describe('hmacSigningText', () => {
  it('puts the scheme, method, target, time, nonce and body hash on a line each', () => {
    expect(
      hmacSigningText({
        method: 'post',
        target: V2_TARGET,
        timestamp: 1795262400,
        nonce: NONCE,
        bodySha256: EMPTY_BODY_SHA256,
      }),
    ).toBe(`hmac-sha256\nPOST\n${V2_TARGET}\n1795262400\n${NONCE}\n${EMPTY_BODY_SHA256}`);
    expect(EMPTY_BODY_SHA256).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('refuses a part that could hold a line break or is not of its form, naming it', () => {
    const parts = {
      method: 'POST',
      target: V2_TARGET,
      timestamp: 1795262400,
      nonce: NONCE,
      bodySha256: EMPTY_BODY_SHA256,
    };
    const refused: [Partial<typeof parts>, RegExp][] = [
      [{ method: 'PO ST' }, /"PO ST" is not an HTTP method/],
      [{ method: 'POST\nGET' }, /not an HTTP method/],
      [{ target: '/a\nb' }, /request target must be a path/],
      [{ target: '/a b' }, /request target must be a path/],
      [{ target: 'https://poker.example/a' }, /request target must be a path/],
      [{ target: '/zoë' }, /request target must be a path/],
      [{ timestamp: 1.5 }, /whole Unix seconds, got 1.5/],
      [{ timestamp: -1 }, /whole Unix seconds/],
      [{ nonce: 'short' }, /nonce must be 16–64 characters/],
      [{ nonce: `${NONCE}\n` }, /nonce must be/],
      [{ bodySha256: EMPTY_BODY_SHA256.toUpperCase() }, /64 lowercase hex/],
    ];
    for (const [change, message] of refused) {
      expect(() => hmacSigningText({ ...parts, ...change }), JSON.stringify(change)).toThrow(message);
    }
  });
});

describeWithPhp('the hmac equals what PHP computes with hash_hmac (php-cli)', () => {
  it('for the documented vectors, as written in the docs', async () => {
    expect(phpHmacSignatures(DOCUMENTED)).toEqual(DOCUMENTED.map((item) => item.hmac));
    for (const item of DOCUMENTED) {
      expect(await hmacSignature(item.secret, asRequest(item))).toBe(item.hmac);
      expect(
        await hmacSignHeader(
          item.secret,
          { method: item.method, target: item.target, body: item.body },
          { timestamp: item.t, nonce: item.n },
        ),
      ).toBe(`t=${item.t},n=${item.n},hmac=${item.hmac}`);
    }
  });

  it('for bodies of every kind: none, JSON with UTF-8, bytes that are not UTF-8, and a UTF-8 secret', async () => {
    const cases: PhpHmacCase[] = [
      { method: 'POST', target: V2_TARGET, t: 0, n: 'a'.repeat(16), body: '', secret: 's3cr3t' },
      {
        method: 'GET',
        target: '/apiweb/v3/game-sessions/x',
        t: 1,
        n: '_-'.repeat(32),
        body: '',
        secret: 'k',
      },
      {
        method: 'POST',
        target: '/apiweb/v3/open-game?client=demo',
        t: 99999999999,
        n: NONCE,
        body: V3_BODY,
        secret: 'é-secret',
      },
      {
        method: 'POST',
        target: '/a?b=%20c&d[]=1',
        t: 1795262400,
        n: NONCE,
        body: new Uint8Array([0, 0xff, 0xfe, 10]),
        secret: 'x',
      },
    ];
    const php = phpHmacSignatures(cases);
    for (const [index, item] of cases.entries()) {
      expect(await hmacSignature(item.secret, asRequest(item)), JSON.stringify(item)).toBe(php[index]);
    }
  });

  it('for 300 generated requests', async () => {
    const cases = fc.sample(
      fc.record({
        method: fc.constantFrom('POST', 'GET', 'PUT', 'DELETE'),
        target: fc
          .string({ unit: fc.constantFrom(...'/?&=%[]abcXYZ019-._~!$'.split('')), maxLength: 60 })
          .map((rest) => `/${rest}`),
        t: fc.integer({ min: 0, max: 99_999_999_999 }),
        n: fc.string({ unit: fc.constantFrom(...'AZaz09_-'.split('')), minLength: 16, maxLength: 64 }),
        body: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.uint8Array({ maxLength: 80 })),
        secret: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      }),
      { numRuns: 300, seed: 20_260_121 },
    );
    const php = phpHmacSignatures(cases);
    for (const [index, item] of cases.entries()) {
      expect(await hmacSignature(item.secret, asRequest(item)), JSON.stringify(item)).toBe(php[index]);
    }
  });
});

describe('hmacSignature', () => {
  it('is what a server computes synchronously from hmacSigningText with node:crypto', async () => {
    const body = 'nick=Player1&lang=en';
    const text = hmacSigningText({
      method: 'POST',
      target: V2_TARGET,
      timestamp: 1795262400,
      nonce: NONCE,
      bodySha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(createHmac('sha256', 'test_secret').update(text).digest('hex')).toBe(
      await hmacSignature('test_secret', {
        method: 'POST',
        target: V2_TARGET,
        body,
        timestamp: 1795262400,
        nonce: NONCE,
      }),
    );
  });

  it('takes no body as the empty body, and refuses an empty secret', async () => {
    const request = { method: 'POST', target: V2_TARGET, timestamp: 1795262400, nonce: NONCE };
    expect(await hmacSignature('k', request)).toBe(await hmacSignature('k', { ...request, body: '' }));
    await expect(hmacSignature('', request)).rejects.toThrow('the secret key is empty');
  });
});

describe('hmacSignHeader', () => {
  it('signs now, with a fresh nonce each time, unless told the time and nonce', async () => {
    const request = { method: 'POST', target: V2_TARGET, body: 'lang=en' };
    const before = unixSeconds();
    const first = parseHmacSignHeader(await hmacSignHeader('k', request));
    const second = parseHmacSignHeader(await hmacSignHeader('k', request));
    const after = unixSeconds();
    if (!first.ok || !second.ok) throw new Error('the SDK wrote a header it cannot read');
    expect(first.fields.timestamp).toBeGreaterThanOrEqual(before);
    expect(first.fields.timestamp).toBeLessThanOrEqual(after);
    expect(first.fields.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(second.fields.nonce).not.toBe(first.fields.nonce);
    expect(await verifyHmacSign('k', request, first.fields)).toBe(true);
  });
});

describe('parseHmacSignHeader', () => {
  const hmac = 'ab'.repeat(32);
  const good = `t=1795262400,n=${NONCE},hmac=${hmac}`;

  it('reads t, n and hmac, and formatHmacSignHeader writes them back', () => {
    const reading = parseHmacSignHeader(good);
    expect(reading).toEqual({ ok: true, fields: { timestamp: 1795262400, nonce: NONCE, hmac } });
    if (reading.ok) expect(formatHmacSignHeader(reading.fields)).toBe(good);
  });

  it('refuses anything but the exact form, saying what is wrong', () => {
    const shape = 'the sign header must be t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>';
    const refused: [string | undefined, string][] = [
      [undefined, shape],
      ['', shape],
      [hmac, shape],
      [`n=${NONCE},t=1795262400,hmac=${hmac}`, shape],
      [`t=1795262400, n=${NONCE}, hmac=${hmac}`, shape],
      [`t=1795262400,n=${NONCE},hmac=${hmac},x=1`, shape],
      [`t=1795262400,n=${NONCE}`, shape],
      [`T=1795262400,n=${NONCE},hmac=${hmac}`, shape],
      [`${good}${'0'.repeat(200)}`, shape],
      [
        `t=01795262400,n=${NONCE},hmac=${hmac}`,
        't= must be Unix seconds: decimal digits, no sign or leading zero',
      ],
      [`t=-1,n=${NONCE},hmac=${hmac}`, 't= must be Unix seconds: decimal digits, no sign or leading zero'],
      [
        `t=1795262400.5,n=${NONCE},hmac=${hmac}`,
        't= must be Unix seconds: decimal digits, no sign or leading zero',
      ],
      [`t=1795262400,n=too-short,hmac=${hmac}`, 'n= must be 16–64 characters of A-Z a-z 0-9 _ -'],
      [`t=1795262400,n=${'a'.repeat(65)},hmac=${hmac}`, 'n= must be 16–64 characters of A-Z a-z 0-9 _ -'],
      [`t=1795262400,n=${NONCE.slice(1)}+,hmac=${hmac}`, 'n= must be 16–64 characters of A-Z a-z 0-9 _ -'],
      [`t=1795262400,n=${NONCE},hmac=${hmac.toUpperCase()}`, 'hmac= must be 64 lowercase hex digits'],
      [`t=1795262400,n=${NONCE},hmac=${hmac.slice(2)}`, 'hmac= must be 64 lowercase hex digits'],
    ];
    for (const [header, problem] of refused) {
      expect(parseHmacSignHeader(header), String(header)).toEqual({ ok: false, problem });
    }
  });

  it('tells the hmac scheme from the spec’s by its first characters', () => {
    expect(isHmacSignHeader(good)).toBe(true);
    expect(isHmacSignHeader('5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a')).toBe(false);
    expect(isHmacSignHeader(undefined)).toBe(false);
  });
});

describe('verifyHmacSign', () => {
  const request = { method: 'POST', target: V2_TARGET, body: 'nick=Player1&lang=en&authType=external' };
  const fields = { timestamp: 1795262400, nonce: NONCE, hmac: DOCUMENTED[0]?.hmac ?? '' };

  it('holds for the request signed, and for nothing moved: another secret, method, target, body, time or nonce', async () => {
    expect(await verifyHmacSign('test_secret', request, fields)).toBe(true);
    expect(await verifyHmacSign('test_secret2', request, fields)).toBe(false);
    expect(await verifyHmacSign('test_secret', { ...request, method: 'PUT' }, fields)).toBe(false);
    expect(await verifyHmacSign('test_secret', { ...request, target: `${V2_TARGET}&x=1` }, fields)).toBe(
      false,
    );
    // The shifted request of the legacy scheme (same canonical string) is another body here.
    expect(
      await verifyHmacSign(
        'test_secret',
        { ...request, body: 'nick=Player11&lang=en&authType=external' },
        fields,
      ),
    ).toBe(false);
    expect(await verifyHmacSign('test_secret', request, { ...fields, timestamp: 1795262401 })).toBe(false);
    expect(await verifyHmacSign('test_secret', request, { ...fields, nonce: NONCE.replace('6', '7') })).toBe(
      false,
    );
  });
});
