import { describe, expect, it } from 'vitest';
import { nickLengthProblem } from './nick.js';

describe('nickLengthProblem', () => {
  it("answers the spec's text with the configured maximum, counting code points", () => {
    expect(nickLengthProblem('Seven77', 6)).toBe('The maximum username length is 6');
    expect(nickLengthProblem('Sixsix', 6)).toBeUndefined();
    expect(nickLengthProblem('😀'.repeat(20), 20)).toBeUndefined();
    expect(nickLengthProblem('😀'.repeat(21), 20)).toBe('The maximum username length is 20');
  });
});
