import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, the outermost being level 1; scalars add no level', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 'x' }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: 'x' }] }, 2)).toBe(true);
    expect(nestsDeeperThan({ a: 1, b: [[[]]] }, 3)).toBe(true);
  });

  it('finds the one deep branch among shallow siblings', () => {
    const value = { shallow: [1, 2, 3], deep: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`), last: {} };
    expect(nestsDeeperThan(value, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(value, 41)).toBe(false);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    const value = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(nestsDeeperThan(value, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(value, 100_000)).toBe(false);
  });
});
