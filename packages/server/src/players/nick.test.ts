import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldedKey, nickKey, nickLengthProblem } from './nick.js';

describe('nickLengthProblem', () => {
  it("answers the spec's text with the configured maximum, counting code points", () => {
    expect(nickLengthProblem('Seven77', 6)).toBe('The maximum username length is 6');
    expect(nickLengthProblem('Sixsix', 6)).toBeUndefined();
    expect(nickLengthProblem('😀'.repeat(20), 20)).toBeUndefined();
    expect(nickLengthProblem('😀'.repeat(21), 20)).toBe('The maximum username length is 20');
  });
});

describe('nickKey', () => {
  it('folds case, compatibility forms, ignorable code points and white space', () => {
    expect(nickKey('Zoë')).toBe('zoë');
    expect(nickKey('ZOË')).toBe('zoë');
    expect(nickKey('Zo\u200Bë')).toBe('zoë');
    expect(nickKey('Ｚｏｅ')).toBe('zoe');
    expect(nickKey('  Big \t  Blind ')).toBe('big blind');
    expect(nickKey('Ace King')).toBe('ace king');
  });

  it('answers plain ASCII nicks as the full folding does', () => {
    const asciiNick = fc.string({
      unit: fc.constantFrom(...' \t\n\r\v\fAZaz09_-.!~ '.split(''), 'I', 'K', 'S'),
      maxLength: 24,
    });
    fc.assert(
      fc.property(fc.oneof(asciiNick, fc.string({ unit: 'binary-ascii', maxLength: 24 })), (nick) => {
        expect(nickKey(nick)).toBe(foldedKey(nick));
      }),
      { numRuns: 2000 },
    );
  });
});
