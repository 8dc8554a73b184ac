import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

const FLAGS = ['events', 'url', 'url-poker', 'url-casino', 'enable', 'disable', 'secret', 'no-secret'];

describe('closestName', () => {
  it('finds a name one edit away, or the same words in another order', () => {
    expect(closestName('event', FLAGS)).toBe('events');
    expect(closestName('secrt', FLAGS)).toBe('secret');
    expect(closestName('poker-url', FLAGS)).toBe('url-poker');
    expect(closestName('URL-Poker', ['url-poker', 'url-casino'])).toBe('url-poker');
    expect(closestName('clients list', ['client list', 'client add', 'player list'])).toBe('client list');
  });

  it('counts two neighbours swapped as one edit', () => {
    expect(closestName('lnag', ['lang', 'nick'])).toBe('lang');
    expect(closestName('evnets', FLAGS)).toBe('events');
    // Two swaps are two edits: too many for four characters.
    expect(closestName('lnga', ['lang', 'nick'])).toBeUndefined();
  });

  it('does not compare a name far longer or shorter than any it could be', () => {
    expect(closestName('x'.repeat(1_000_000), FLAGS)).toBeUndefined();
    expect(closestName('gamecode', ['gameCode', 'g'.repeat(100_000)])).toBe('gameCode');
  });

  it('allows one edit in three characters, at most three', () => {
    expect(closestName('url-pokr', FLAGS)).toBe('url-poker');
    expect(closestName('url-pkr', FLAGS)).toBe('url-poker');
    expect(closestName('upk', FLAGS)).toBeUndefined();
    expect(closestName('bogus', FLAGS)).toBeUndefined();
    expect(closestName('player ban', ['player block', 'player show'])).toBeUndefined();
  });

  it('offers the first of synonyms that differ in case only', () => {
    expect(closestName('tableid', ['tableId', 'tableID', 'gameId'])).toBe('tableId');
    expect(closestName('tabelId', ['tableId', 'tableID'])).toBe('tableId');
  });

  it('offers nothing when two names are equally close', () => {
    expect(closestName('url-casin', ['url-casino', 'url-casina'])).toBeUndefined();
    expect(closestName('ab', ['a', 'b'])).toBeUndefined();
  });

  it('never offers a flag for its negation, or the other way round', () => {
    expect(closestName('no-enable', FLAGS)).toBeUndefined();
    expect(closestName('no-secret', ['secret'])).toBeUndefined();
    expect(closestName('secret', ['no-secret'])).toBeUndefined();
  });
});
