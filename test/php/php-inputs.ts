import fc from 'fast-check';

/**
 * Generators of request parameters as text, aimed at where PHP and a naive port part: integer-like
 * keys (PHP makes them ints), numeric strings (ksort compares them as numbers), JSON-looking values,
 * brackets in form names, every JSON scalar, floats, Unicode.
 */

/** Keys where PHP's reading and sorting are subtle, and ordinary names. */
const TRICKY_KEYS = [
  '0',
  '1',
  '9',
  '10',
  '-3',
  '-0',
  '05',
  '00',
  '1.5',
  '1e3',
  '.5',
  ' 1',
  '1 ',
  '+1',
  '1a',
  'a1',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '18446744073709551616',
  '1e400',
  'a',
  'A',
  'b',
  'z',
  '_',
  'userId',
  'nick',
  'lang',
  'é',
  'Zoë',
  '😀',
  '～',
  'sort',
  'page',
  'clientId',
  'sign',
  'launchOptions',
  '',
];

const keyChars = fc.constantFrom(...'ab1290-. eé_😀'.split(/(?:)/u));
export const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY_KEYS) },
  { weight: 1, arbitrary: fc.string({ unit: keyChars, minLength: 1, maxLength: 6 }) },
);

/** Top-level names that are neither integers nor numeric strings (as a v2 request's are), repeats and excluded names among them. */
export const plainName: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'userId',
      'nick',
      'lang',
      'authType',
      'clientId',
      'sort',
      'sign',
      'é',
      'Zoë',
      '😀',
      '～',
      'a b',
      '',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.constantFrom(...'abAB_-. eé😀'.split(/(?:)/u)), minLength: 1, maxLength: 6 })
      .filter((name) => !/^[ .\d+-]/.test(name)),
  },
);

const valueChars = fc.constantFrom(...'ab0129 .-+eE{}[]":,&=%é😀\\'.split(/(?:)/u));
/** Text values, some of which hold JSON (decoded by the signature at the top level only). */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: valueChars, maxLength: 10 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"a":1}',
      '[1,2]',
      '{"10":"x","9":"y","b":"z"}',
      '{"n":{"1":"deep"}}',
      ' {"s":true}',
      '{bad',
      '[]',
      '{}',
      '"q"',
      '12',
      '{"a":1.0,"b":-0.0,"c":1e15}',
      '{"big":12345678901234567890}',
      '\t[null,false]',
    ),
  },
);

/** A JSON scalar written as PHP could receive it: literal text, not a JavaScript value. */
const jsonScalar: fc.Arbitrary<string> = fc.oneof(
  text.map((value) => JSON.stringify(value)),
  fc.constantFrom(
    'true',
    'false',
    'null',
    '0',
    '-0',
    '-0.0',
    '1.0',
    '1e15',
    '1E+2',
    '0.1',
    '1e400',
    '-1e400',
  ),
  fc.constantFrom('9007199254740993', '12345678901234567890', '-9223372036854775808', '9223372036854775807'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.double({ min: 1e13, max: 1e17, noNaN: true }).map((value) => JSON.stringify(value)),
);

/**
 * JSON text of an object (keys may repeat, as a hand-written body may) whose top-level keys come from
 * `topKey`, holding values of any kind.
 */
export function jsonObjectOf(topKey: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const members = (names: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
    fc
      .array(fc.tuple(names, value), { maxLength: 7 })
      .map((pairs) => `{${pairs.map(([name, item]) => `${JSON.stringify(name)}:${item}`).join(',')}}`);
  const tree = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonScalar, tie('object'), tie('array')),
    object: members(key, tie('value')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  }));
  return members(topKey, tree.value);
}
export const jsonObject: fc.Arbitrary<string> = jsonObjectOf(key);

/** A query string or form body whose top-level names come from `topKey` (see {@link formText}). */
export function formTextOf(topKey: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .tuple(formNameOf(topKey), text)
            .map(([name, value]) => `${name}=${encodeURIComponent(value)}`),
        },
        { weight: 1, arbitrary: formNameOf(topKey) },
        { weight: 1, arbitrary: fc.constantFrom('', '=x', '+a=1', 'a+b=2', 'x=%zz', 'y=%4', 'p=a+b') },
      ),
      { maxLength: 10 },
    )
    .map((pairs) => pairs.join('&'));
}

/** One form name: a base key, then brackets (`[]`, `[k]`, an unmatched `[`, junk after `]`). */
const formNameOf = (topKey: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      topKey,
      fc.array(
        fc.oneof(
          { weight: 3, arbitrary: key.map((name) => `[${encodeURIComponent(name)}]`) },
          { weight: 2, arbitrary: fc.constant('[]') },
          { weight: 1, arbitrary: fc.constantFrom('[', '[ ]', ']', '[a]x', '%5Bq%5D', '[.b', '[ c') },
        ),
        { maxLength: 3 },
      ),
    )
    .map(([base, brackets]) => `${encodeURIComponent(base)}${brackets.join('')}`);

/** A query string or form body: name=value pairs, some repeated, some without "=", some empty. */
export const formText: fc.Arbitrary<string> = formTextOf(key);
