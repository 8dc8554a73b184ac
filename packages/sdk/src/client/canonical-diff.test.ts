import { describe, expect, it } from 'vitest';
import { explainCanonicalMismatch } from './canonical-diff.js';

describe('explainCanonicalMismatch', () => {
  it('puts a caret under the first character that differs', () => {
    expect(explainCanonicalMismatch('enBob12345', 'enBobby12345')).toEqual([
      'server canonical: enBob12345',
      'SDK canonical:    enBobby12345',
      '                       ^ first difference at character 6',
    ]);
  });

  it('marks the end when one string is a prefix of the other, counting characters not UTF-16 units', () => {
    expect(explainCanonicalMismatch('😀ab', '😀a')[2]).toBe(
      `${' '.repeat(20)}^ first difference at character 3`,
    );
  });

  it('blames the secret when both strings agree', () => {
    expect(explainCanonicalMismatch('abc', 'abc')[1]).toContain('secret key');
  });
});
