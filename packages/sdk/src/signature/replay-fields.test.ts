import { describe, expect, it } from 'vitest';
import { describeWithPhp, phpSignatures } from '../../../../test/php/php-cli.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import { canonicalString } from './canonical-string.js';
import { isNonce, newNonce, parseUnixSeconds, replayFields, unixSeconds } from './replay-fields.js';
import { sign } from './sign.js';

describe('isNonce', () => {
  it('takes 16 to 64 characters of A-Z a-z 0-9 _ - and nothing else', () => {
    for (const nonce of ['a'.repeat(16), 'Z'.repeat(64), 'AZaz09_-AZaz09_-', newNonce()]) {
      expect(isNonce(nonce), nonce).toBe(true);
    }
    for (const nonce of [
      'a'.repeat(15),
      'a'.repeat(65),
      `${'a'.repeat(16)}=`,
      `${'a'.repeat(16)} `,
      'ä'.repeat(16),
    ]) {
      expect(isNonce(nonce), nonce).toBe(false);
    }
    expect(isNonce(1234567890123456)).toBe(false);
    expect(isNonce(undefined)).toBe(false);
  });
});

describe('newNonce', () => {
  it('gives 32 hex characters, a new one each time', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => newNonce()));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('parseUnixSeconds', () => {
  it('reads decimal seconds spelled one way only: no sign, no leading zero, at most 11 digits', () => {
    expect(parseUnixSeconds('1795262400')).toBe(1795262400);
    expect(parseUnixSeconds('0')).toBe(0);
    expect(parseUnixSeconds('99999999999')).toBe(99999999999);
    for (const text of ['', '01795262400', '+1795262400', '-1', '1.5', '1e9', ' 1', '100000000000', '0x10']) {
      expect(parseUnixSeconds(text), text).toBeUndefined();
    }
    expect(parseUnixSeconds(1795262400)).toBeUndefined();
  });
});

describe('replayFields', () => {
  it('gives the time in whole seconds and a fresh nonce', () => {
    expect(replayFields(new Date('2026-11-21T12:00:00.999Z')).ts).toBe('1795262400');
    expect(replayFields(1795262400999).ts).toBe('1795262400');
    const before = unixSeconds();
    const fields = replayFields();
    const ts = parseUnixSeconds(fields.ts) ?? -1;
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(unixSeconds());
    expect(isNonce(fields.nonce)).toBe(true);
  });
});

describeWithPhp('the spec’s signature with replay fields equals real PHP 8 (php-cli)', () => {
  it('signs ts and nonce like every other parameter, in the query (v2 and v3) or the body (v2)', async () => {
    const fields = 'ts=1795262400&nonce=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f';
    const v3Body = '{"data":{"type":"OpenGame","attributes":{"player":{"id":"u-1"}}}}';
    const cases = [
      {
        parts: [
          { type: 'query' as const, text: `clientId=demo&${fields}` },
          { type: 'pairs' as const, values: { userId: '12345' } },
          { type: 'form' as const, text: 'nick=Player1&lang=en&authType=external' },
        ],
        secret: 'test_secret',
      },
      {
        parts: [
          { type: 'query' as const, text: 'clientId=demo' },
          { type: 'pairs' as const, values: { userId: '12345' } },
          { type: 'form' as const, text: `nick=Player1&lang=en&authType=external&${fields}` },
        ],
        secret: 'test_secret',
      },
      {
        parts: [
          { type: 'query' as const, text: `client=demo&${fields}` },
          { type: 'json' as const, text: v3Body },
        ],
        drop: ['client'],
        secret: 's3cr3t',
      },
    ];
    const php = phpSignatures(cases);
    const v2 = arrayReplace(
      parseStr(`clientId=demo&${fields}`),
      PhpArray.from([['userId', '12345']]),
      parseStr('nick=Player1&lang=en&authType=external'),
    );
    expect(canonicalString(v2)).toBe('externalenPlayer16f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f179526240012345');
    expect(php[0]).toEqual({ canonical: canonicalString(v2), sign: await sign(v2, 'test_secret') });
    // In the query or in the body, the same parameters: the same sign.
    expect(php[1]).toEqual(php[0]);
    const v3 = arrayReplace(
      parseStr(`client=demo&${fields}`),
      PhpArray.from([['data', { type: 'OpenGame', attributes: { player: { id: 'u-1' } } }]]),
    );
    v3.delete('client');
    expect(php[2]).toEqual({ canonical: canonicalString(v3), sign: await sign(v3, 's3cr3t') });
    expect(php[2]?.canonical).toBe('u-1OpenGame6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f1795262400');
  });
});
