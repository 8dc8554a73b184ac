import { describe, expect, it } from 'vitest';
import { explainCanonicalMismatch, explainHmacMismatch } from './canonical-diff.js';

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

  it('names the causes the server will not tell apart when both strings agree: the secret, the client id, or a client on hmac alone', () => {
    expect(explainCanonicalMismatch('abc', 'abc')).toEqual([
      'server canonical: abc',
      'SDK canonical:    (identical) - the parameters agree, so the server refused the credentials: either ' +
        'the secret key is not the one it has for this client id, or the client id is unknown or disabled, ' +
        'or the client is set to take hmac signatures only (it does not say which)',
    ]);
  });
});

describe('explainHmacMismatch', () => {
  it('shows line breaks as \\n and puts the caret under the first difference', () => {
    expect(explainHmacMismatch('hmac-sha256\nPOST\n/a', 'hmac-sha256\nPOST\n/b/a')).toEqual([
      'server signing text: hmac-sha256\\nPOST\\n/a',
      'SDK signing text:    hmac-sha256\\nPOST\\n/b/a',
      `${' '.repeat(21 + 20)}^ first difference at character 21`,
    ]);
  });

  it('names the causes when the texts agree, a client that does not take hmac among them', () => {
    const [, second] = explainHmacMismatch('hmac-sha256\nPOST', 'hmac-sha256\nPOST');
    expect(second).toMatch(/^SDK signing text: {4}\(identical\) - the request agrees, so the server refused/);
    expect(second).toContain(
      "or the client id is unknown or disabled, or the client is set to take the API's signature only, not hmac (it does not say which)",
    );
  });
});
