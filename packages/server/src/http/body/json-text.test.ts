import { describe, expect, it } from 'vitest';
import { loneSurrogatePointer } from './json-text.js';

/** The pointer for a body as a client sends it: JSON.stringify writes a lone surrogate as its escape. */
const pointerOf = (value: unknown) => loneSurrogatePointer(JSON.stringify(value), value);

describe('loneSurrogatePointer', () => {
  it('names the first lone surrogate in document order, in a value or a member name', () => {
    expect(pointerOf({ a: 'ok', b: ['x', 'y\uDC00'], c: '\uD800' })).toBe('/b/1');
    expect(pointerOf({ a: { 'k\uD800': 'v' }, b: '\uD800' })).toBe('/a/k\uFFFD');
    expect(pointerOf({ 'a/b': { '~': '\uDBFF' } })).toBe('/a~1b/~0');
  });

  it('finds none in text with whole pairs only, or without any surrogate escape', () => {
    expect(pointerOf({ nick: 'Ace\uD83C\uDCA1', list: ['\uD83D\uDE00'] })).toBeUndefined();
    // Whole pairs written as characters, not escapes: the raw body alone says there is nothing to find.
    expect(loneSurrogatePointer('{"nick":"🂡"}', { nick: '🂡' })).toBeUndefined();
  });
});
