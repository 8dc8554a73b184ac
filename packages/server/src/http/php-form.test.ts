import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { parsePhpForm } from './php-form.js';

describe('parsePhpForm', () => {
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

  it('refuses malformed escapes, too deep nesting and too many parameters', () => {
    expect(() => parsePhpForm('a=%E0%A4%A')).toThrow(ApiError);
    expect(() => parsePhpForm('a[1][2][3][4][5][6]=x')).toThrow(ApiError);
    expect(() => parsePhpForm(Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&'))).toThrow(ApiError);
  });
});
