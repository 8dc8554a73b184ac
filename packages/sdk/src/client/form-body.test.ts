import { describe, expect, it } from 'vitest';
import { encodeForm, toFormFields } from './form-body.js';

describe('toFormFields', () => {
  it('turns numbers and booleans into the text a form carries, and drops undefined', () => {
    expect(toFormFields({ tableId: 42, longLifeLoginToken: true, off: false, nick: undefined })).toEqual({
      tableId: '42',
      longLifeLoginToken: 'true',
      off: 'false',
    });
  });

  it('keeps objects of text (and lists of text) nested, as a PHP form round-trips them', () => {
    const launchOptions = {
      restoreSessionUrl: 'https://x.example/r',
      skin: { colour: 'blue' },
      tags: ['a', 'b'],
    };
    expect(toFormFields({ launchOptions })).toEqual({ launchOptions });
  });

  it('sends as a JSON string what a form would change: numbers, booleans, null, empty or odd containers', () => {
    for (const launchOptions of [
      { depth: 2 },
      { sound: false },
      { gone: null },
      {},
      { list: [] },
      { list: [{ a: '1' }] },
      { 'odd[key]': 'x' },
    ]) {
      expect(toFormFields({ launchOptions })).toEqual({ launchOptions: JSON.stringify(launchOptions) });
    }
  });

  it('sends a string launchOptions as it is', () => {
    expect(toFormFields({ launchOptions: '{"a":1}' })).toEqual({ launchOptions: '{"a":1}' });
  });
});

describe('encodeForm', () => {
  it('nests with brackets and percent-encodes keys and values', () => {
    expect(
      encodeForm({
        nick: 'Zoë & Bob',
        launchOptions: { restoreSessionUrl: 'https://x.example/r?a=1' },
        t: ['x', 'y'],
      }),
    ).toBe(
      'nick=Zo%C3%AB%20%26%20Bob&launchOptions%5BrestoreSessionUrl%5D=https%3A%2F%2Fx.example%2Fr%3Fa%3D1&t%5B%5D=x&t%5B%5D=y',
    );
  });
});
