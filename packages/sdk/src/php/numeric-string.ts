/**
 * What PHP 8's `is_numeric_string_ex` (Zend/zend_operators.c) reads in a string, with a result slot for
 * the float: `long` (an integer that fits 64 bits), `double` (a float, or an integer too large, then
 * `overflow` is its sign), or `none` (not numeric).
 */
export type NumericString =
  | { readonly type: 'none' }
  | { readonly type: 'long'; readonly value: bigint }
  | { readonly type: 'double'; readonly value: number; readonly overflow: -1 | 0 | 1 };

const NONE: NumericString = { type: 'none' };
const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

/**
 * Leading and trailing whitespace (space, \t, \n, \r, \v, \f), a sign, digits with an optional
 * fraction, an optional exponent: PHP's "numeric string" grammar (no hex, no "inf", no "nan").
 */
const NUMERIC = /^[ \t\n\r\v\f]*([+-]?)(?:(\d+)(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/**
 * @example numericString(' 1')   // { type: 'long', value: 1n }
 * @example numericString('1e3')  // { type: 'double', value: 1000, overflow: 0 }
 * @example numericString('1a')   // { type: 'none' }
 */
export function numericString(text: string): NumericString {
  // Fast path: a numeric string starts with whitespace, a sign, a digit or a dot.
  const first = text.charCodeAt(0);
  if (!(first <= 57 && (first >= 48 || first === 46 || first === 43 || first === 45 || first <= 32))) {
    return NONE;
  }
  const match = NUMERIC.exec(text);
  if (match === null) return NONE;
  const [whole = '', sign = '', integerDigits, fraction, exponent] = match;
  // The regex let only PHP's whitespace around the number; Number() reads the rest as zend_strtod does.
  const number = whole.trim();
  if (integerDigits !== undefined && fraction === undefined && exponent === undefined) {
    const significant = integerDigits.replace(/^0+/, '');
    // PHP counts digits after the leading zeros; 20 and more (or 19 past the limit) overflow to a float.
    if (significant.length < 20) {
      const value = BigInt(`${sign === '-' ? '-' : ''}${significant === '' ? '0' : significant}`);
      if (value <= LONG_MAX && value >= LONG_MIN) return { type: 'long', value };
    }
    return { type: 'double', value: Number(number), overflow: sign === '-' ? -1 : 1 };
  }
  return { type: 'double', value: Number(number), overflow: 0 };
}
