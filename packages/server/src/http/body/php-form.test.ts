import { parseStr } from '@poker-launch/sdk/php';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.js';
import { parsePhpForm } from './php-form.js';
import { phpReading } from './php-reading.js';

describe('parsePhpForm', () => {
  it('reads an empty text as no parameters, with an empty PHP reading (what parse_str gives)', () => {
    const empty = parsePhpForm('');
    expect(empty).toEqual({});
    expect(Object.keys(empty)).toEqual([]);
    expect([...phpReading(empty)]).toEqual([...parseStr('')]);
    expect(parsePhpForm('')).not.toBe(empty);
  });

  it('decodes plain keys, plus signs and percent escapes', () => {
    expect(parsePhpForm('nick=Zo%C3%AB+1&lang=en')).toEqual({ nick: 'Zoë 1', lang: 'en' });
  });

  it('keeps the last value of a repeated plain key', () => {
    expect(parsePhpForm('lang=en&lang=de')).toEqual({ lang: 'de' });
  });

  it('nests bracketed keys into objects and lists', () => {
    expect(
      parsePhpForm('launchOptions%5BrestoreSessionUrl%5D=https%3A%2F%2Fa.example&x[]=1&x[]=2&y[a][b]=3'),
    ).toEqual({
      launchOptions: { restoreSessionUrl: 'https://a.example' },
      x: ['1', '2'],
      y: { a: { b: '3' } },
    });
  });

  it('keeps __proto__ as an ordinary key without touching the prototype', () => {
    const parsed = parsePhpForm('__proto__[polluted]=yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('reads lists and named keys in one array, integer keys and the next free index, as PHP does', () => {
    const parsed = parsePhpForm('a[]=1&a[x]=2&a[]=3&b[10]=t&b[]=n&c.d=1&e[=2&f[g=3');
    expect(parsed).toEqual({
      a: { 0: '1', x: '2', 1: '3' },
      b: { 10: 't', 11: 'n' },
      c_d: '1',
      e_: '2',
      f_g: '3',
    });
  });

  it('keeps a stray "%" as it is, as PHP does', () => {
    expect(parsePhpForm('a=100%&b=%zz')).toEqual({ a: '100%', b: '%zz' });
  });

  it('drops a variable nested deeper than 64 levels, as PHP does', () => {
    expect(parsePhpForm(`a${'[x]'.repeat(65)}=1&b=2`)).toEqual({ b: '2' });
  });

  it('refuses text that is not UTF-8 once decoded, and too many parameters', () => {
    expect(() => parsePhpForm('a=%E0%A4%A')).toThrow(ApiError);
    expect(() => parsePhpForm('a=%FF')).toThrow(ApiError);
    expect(() => parsePhpForm(Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&'))).toThrow(ApiError);
  });
});
