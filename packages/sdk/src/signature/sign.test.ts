import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import {
  canonicalString,
  EXCLUDED_KEYS,
  MAX_PARAMETER_DEPTH,
  numberText,
  type SignableParams,
  type SignableValue,
} from './canonical-string.js';
import { sign, signaturesMatch } from './sign.js';

/** The worked vectors of docs/design.md §2; they are also printed in docs/integration.md. */
const WORKED_VECTORS: {
  name: string;
  params: SignableParams | PhpArray;
  secret: string;
  canonical: string;
  sign: string;
}[] = [
  {
    name: 'v2 lobby',
    params: { clientId: 'demo', userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' },
    secret: 'test_secret',
    canonical: 'externalenPlayer112345',
    sign: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a',
  },
  {
    name: 'v2 with launchOptions as a JSON string',
    params: {
      clientId: 'demo',
      userId: '12345',
      lang: 'en',
      launchOptions: '{"restoreSessionUrl":"https://casino.example/restore"}',
    },
    secret: 'test_secret',
    canonical: 'enhttps://casino.example/restore12345',
    sign: 'ba1a806bf20217b59f4b00e7abe13c3558746080ae945c905cbb70cf431816f9',
  },
  {
    name: 'v2 poker table',
    params: {
      clientId: 'demo',
      userId: 'p-77',
      gameCode: 'poker',
      tableId: '42',
      currency: 'EUR',
      longLifeLoginToken: 'true',
      sessionId: 'ext-9',
    },
    secret: 's3cr3t',
    canonical: 'EURpokertrueext-942p-77',
    sign: '679ab769416b7419240cff810beaacdf9c0b2dcada9516e4c460fe9627da2f2f',
  },
  {
    name: 'v3 open game document',
    params: JSON.parse(
      '{"data":{"type":"OpenGame","attributes":{"session":{"id":"s-1","authType":"external","tableId":7,"longLifeLoginToken":true,"launchOptions":{"restoreSessionUrl":"https://op.example/r"}},"player":{"id":"u-1","nick":"Zoë","verified":false,"avatar":3}}}}',
    ),
    secret: 's3cr3t',
    canonical: '3u-1Zoëexternals-1https://op.example/r17OpenGame',
    sign: '0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818',
  },
];

/** The parameters of a request as the service reads them: query, then path, then body (array_replace). */
const request = (query: string, path: Record<string, string>, body: PhpArray): PhpArray =>
  arrayReplace(parseStr(query), PhpArray.from(Object.entries(path)), body);
const json = (text: string): PhpArray => phpJsonDecode(text) as PhpArray;

/** Vectors where a naive port parts from PHP; canonical strings and signs computed by php-cli 8.2. */
WORKED_VECTORS.push(
  {
    name: 'v2 form with integer keys (ksort orders them as numbers: 9, 10, then the appended 11)',
    params: request(
      'clientId=demo',
      { userId: '12345' },
      parseStr('lang=en&extra%5B10%5D=ten&extra%5B9%5D=nine&extra%5B%5D=next'),
    ),
    secret: 'test_secret',
    canonical: 'ninetennexten12345',
    sign: '44c0c577c16610f9ca2a5aaec4913b8aaf68bb6b73e57d717474d26c1f0dd8cf',
  },
  {
    name: 'v3 document whose launchOptions is a JSON string below the top level: it stays a string',
    params: json(
      '{"data":{"type":"OpenGame","attributes":{"session":{"launchOptions":"{\\"restoreSessionUrl\\":\\"https://op.example/r\\"}"},"player":{"id":"u-1"}}}}',
    ),
    secret: 's3cr3t',
    canonical: 'u-1{"restoreSessionUrl":"https://op.example/r"}OpenGame',
    sign: '3ed1dfa939f5b34f09650ae8c54d9952917ddfe51d0a3c7fb022a8f6cc20a649',
  },
  {
    name: 'v2 JSON body with floats and an integer beyond 64 bits (PHP reads it as a float)',
    params: request(
      'clientId=demo',
      { userId: '12345' },
      json('{"lang":"en","stake":0.1,"odds":1.0,"big":12345678901234567890,"zero":-0.0}'),
    ),
    secret: 'test_secret',
    canonical: '1.2345678901235E+19en10.112345-0',
    sign: 'bd0fc6d1204ed7167dccf27c8b416bc85fc8db088bb2db6f239275c23f17443e',
  },
);

describe('worked vectors', () => {
  for (const vector of WORKED_VECTORS) {
    it(`${vector.name}: canonical string and sign match docs/design.md`, async () => {
      expect(canonicalString(vector.params)).toBe(vector.canonical);
      expect(await sign(vector.params, vector.secret)).toBe(vector.sign);
    });
  }
});

describe('scalar text', () => {
  it('prints true as 1, false and null as nothing, integers in decimal', () => {
    expect(canonicalString({ a: true, b: false, c: null, d: 42, e: -7 })).toBe('142-7');
  });

  it('prints floats as PHP 8 does', () => {
    expect(numberText(1.5)).toBe('1.5');
    expect(numberText(2.0)).toBe('2');
    expect(numberText(0.1 + 0.2)).toBe('0.3');
    expect(numberText(1e25)).toBe('1.0E+25');
    expect(numberText(1.5e-7)).toBe('1.5E-7');
    expect(numberText(0.0001)).toBe('0.0001');
    expect(numberText(123456.789)).toBe('123456.789');
  });

  it('adds nothing for empty objects and arrays, and keeps array order', () => {
    expect(canonicalString({ a: {}, b: [], c: ['z', 'a'] })).toBe('za');
  });

  it('sorts keys in UTF-8 byte order, not UTF-16 order', () => {
    // U+1F600 (4 UTF-8 bytes, F0…) sorts after U+FF5E (EF…), though its UTF-16 surrogate (D83D) sorts before.
    expect(canonicalString({ '\u{1F600}': 'emoji', '\uFF5E': 'tilde' })).toBe('tildeemoji');
    expect(canonicalString({ b: '2', B: '1', a: '3' })).toBe('132');
  });

  it('drops excluded keys only at the top level', () => {
    expect(canonicalString({ sort: 'x', launchOptions: { sort: 'kept' } })).toBe('kept');
  });
});

/** `levels` arrays, one inside the other, around 'x'. */
const nested = (levels: number): SignableValue =>
  Array.from({ length: levels }).reduce<SignableValue>((inner) => [inner], 'x');

describe('nesting depth', () => {
  it('signs parameters nested 32 levels deep, the parameters object being the first', () => {
    expect(MAX_PARAMETER_DEPTH).toBe(32);
    expect(canonicalString({ a: nested(31) })).toBe('x');
    expect(canonicalString({ a: JSON.stringify(nested(31)) })).toBe('x');
  });

  it('throws a RangeError naming the cap for parameters nested deeper, however they are nested', () => {
    const tooDeep = 'parameters nest deeper than 32 levels';
    expect(() => canonicalString({ a: nested(32) })).toThrow(new RangeError(tooDeep));
    expect(() => canonicalString({ a: JSON.stringify(nested(32)) })).toThrow(new RangeError(tooDeep));
    expect(() => canonicalString({ a: {} as SignableValue, b: [nested(31)] })).toThrow(RangeError);
  });

  it('signs a JSON string nested past the 512 levels PHP decodes as the string itself, without a stack overflow', async () => {
    const launchOptions = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    expect(canonicalString({ launchOptions })).toBe(launchOptions);
    expect(await sign({ launchOptions }, 'secret')).toHaveLength(64);
  });

  it('leaves strings below the top level as they are, as PHP does', () => {
    expect(canonicalString({ a: { b: '{"x":"1"}' } })).toBe('{"x":"1"}');
    expect(canonicalString({ a: '{"x":"1"}' })).toBe('1');
  });

  it('does not look into excluded keys, which are never signed', () => {
    expect(canonicalString({ sort: nested(40), a: 'kept' })).toBe('kept');
  });
});

describe('signaturesMatch', () => {
  const expected = WORKED_VECTORS[0]?.sign ?? '';

  it('accepts the same digest in either case', () => {
    expect(signaturesMatch(expected, expected)).toBe(true);
    expect(signaturesMatch(expected, expected.toUpperCase())).toBe(true);
  });

  it('rejects a missing, shorter or different digest', () => {
    expect(signaturesMatch(expected, undefined)).toBe(false);
    expect(signaturesMatch(expected, expected.slice(1))).toBe(false);
    expect(signaturesMatch(expected, `${expected.slice(0, -1)}0`)).toBe(expected.endsWith('0'));
  });
});

const key = fc
  .string({ minLength: 1, maxLength: 12 })
  .filter((k) => !EXCLUDED_KEYS.has(k) && k !== '__proto__');
const text = fc.string({ maxLength: 20 }).filter((s) => !/^\s*[[{]/.test(s));
const params = fc.dictionary(key, text, { minKeys: 1, maxKeys: 8 });

describe('properties', () => {
  it('permuting keys never changes the sign', async () => {
    await fc.assert(
      fc.asyncProperty(params, fc.string(), async (object, secret) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(await sign(reversed, secret)).toBe(await sign(object, secret));
      }),
    );
  });

  it('a JSON-string launchOptions signs like the same object', async () => {
    await fc.assert(
      fc.asyncProperty(params, fc.dictionary(key, text), async (object, launchOptions) => {
        const asString = { ...object, launchOptions: JSON.stringify(launchOptions) };
        const asObject = { ...object, launchOptions };
        expect(await sign(asString, 'secret')).toBe(await sign(asObject, 'secret'));
      }),
    );
  });

  it('excluded keys never matter', async () => {
    const excluded = fc.dictionary(fc.constantFrom(...EXCLUDED_KEYS), text);
    await fc.assert(
      fc.asyncProperty(params, excluded, async (object, noise) => {
        expect(await sign({ ...object, ...noise }, 'secret')).toBe(await sign(object, 'secret'));
      }),
    );
  });

  it('any changed value changes the sign', async () => {
    await fc.assert(
      fc.asyncProperty(params, text, fc.nat(), async (object, replacement, pick) => {
        const keys = Object.keys(object);
        const target = keys[pick % keys.length] ?? '';
        fc.pre(object[target] !== replacement);
        // The other values stay put, so the canonical string changes exactly where this value stands.
        const changed = { ...object, [target]: replacement };
        expect(canonicalString(changed)).not.toBe(canonicalString(object));
        expect(await sign(changed, 'secret')).not.toBe(await sign(object, 'secret'));
      }),
    );
  });
});
