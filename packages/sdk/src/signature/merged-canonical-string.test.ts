import fc from 'fast-check';
import { expect, it } from 'vitest';
import { formText, formTextOf, jsonObject, plainName, text } from '../../../../test/php/php-inputs.js';
import { NOT_JSON, phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import { canonicalString, MAX_PARAMETER_DEPTH, mergedCanonicalString } from './canonical-string.js';
import { mergedSignedText, signedText } from './sign.js';

/** The merge's answer: the string, or the error's message. */
function outcome(read: () => string): string {
  try {
    return `ok:${read()}`;
  } catch (error) {
    return `${(error as Error).name}:${(error as Error).message}`;
  }
}

function expectSameAsMerge(layers: PhpArray[]): void {
  expect(
    outcome(() => mergedCanonicalString(layers)),
    JSON.stringify(layers.map((layer) => [...layer].map(([k, v]) => [String(k), String(v)]))),
  ).toBe(outcome(() => canonicalString(arrayReplace(...layers))));
}

const json = (value: string) => {
  const decoded = phpJsonDecode(value);
  return decoded !== NOT_JSON && decoded instanceof PhpArray ? decoded : new PhpArray();
};

it('mergedCanonicalString is canonicalString of array_replace, for 20,000 random v2-shaped requests', () => {
  fc.assert(
    fc.property(formTextOf(plainName), formTextOf(plainName), text, (query, form, userId) => {
      expectSameAsMerge([parseStr(query), parseStr(form), PhpArray.from([['userId', userId]])]);
    }),
    { numRuns: 20_000, seed: 20_251_126 },
  );
});

it('… and for 5,000 random requests of any names (integer and numeric keys take the merge), JSON bodies too', () => {
  fc.assert(
    fc.property(formText, formText, jsonObject, (query, form, body) => {
      expectSameAsMerge([parseStr(query), parseStr(form)]);
      expectSameAsMerge([parseStr(query), json(body), PhpArray.from([['userId', '1']])]);
    }),
    { numRuns: 5_000, seed: 20_251_127 },
  );
});

it('… and refuses values nested too deeply alike, top-level JSON strings included', () => {
  const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
  for (const levels of [MAX_PARAMETER_DEPTH - 2, MAX_PARAMETER_DEPTH - 1, MAX_PARAMETER_DEPTH]) {
    expectSameAsMerge([
      PhpArray.from([
        ['a', deep(levels)],
        ['b', 'x'],
      ]),
      PhpArray.from([['a', 'y']]),
    ]);
    expectSameAsMerge([PhpArray.from([['b', 'x']]), PhpArray.from([['a', deep(levels)]])]);
  }
});

it('… and for requests of more names than it sorts itself (they take the merge)', () => {
  const names = (count: number, prefix: string) =>
    PhpArray.from(
      Array.from({ length: count }, (_, index) => [`${prefix}${(index * 7) % count}`, `v${index}`]),
    );
  for (const count of [31, 32, 33, 60])
    expectSameAsMerge([names(count, 'n'), names(count >> 1, 'n'), names(3, 'm')]);
});

it('mergedSignedText is signedText of array_replace: the canonical string of the layers, then the secret', () => {
  const query = PhpArray.from([
    ['clientId', 'demo'],
    ['nick', 'P1'],
  ]);
  const body = PhpArray.from([
    ['nick', 'P2'],
    ['lang', 'en'],
  ]);
  const path = PhpArray.from([['userId', '7']]);
  expect(mergedSignedText([query, body, path], 'secret')).toBe(
    signedText(arrayReplace(query, body, path), 'secret'),
  );
  expect(mergedSignedText([query, body, path], 'secret')).toBe('enP27secret');
});
