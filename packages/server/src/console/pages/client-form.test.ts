import { describe, expect, it } from 'vitest';
import { sentence } from './client-form.js';

describe("the admin layer's refusals on a console page", () => {
  it('read as sentences, without the pointers to CLI commands and flags the command line gets', () => {
    expect(sentence('no client "nope"; see "client list"')).toBe('No client "nope".');
    expect(sentence('client "casino-1" exists already; change it with "client update casino-1"')).toBe(
      'Client "casino-1" exists already.',
    );
    expect(
      sentence('a key with CREATE:OpenGame acts for the clients it names: give --client <id> (repeatable)'),
    ).toBe('A key with CREATE:OpenGame acts for the clients it names.');
    expect(sentence('the overlap must be at most 2160 hours.')).toBe(
      'The overlap must be at most 2160 hours.',
    );
    // Quoted text that only looks like a pointer, in the middle, stays.
    expect(sentence('name "a; see "b"" is taken')).toBe('Name "a; see "b"" is taken.');
  });
});
