/** A value that can take part in a signature: what a form, a query string or a JSON body can carry. */
export type SignableValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly SignableValue[]
  | { readonly [key: string]: SignableValue };

/** Request parameters as the signature sees them: query ∪ path ∪ body. */
export type SignableParams = { readonly [key: string]: SignableValue };

/**
 * Keys that never take part in a signature. They are dropped at the top level only: a nested `sort`
 * inside `launchOptions` is signed like any other value.
 */
export const EXCLUDED_KEYS: ReadonlySet<string> = new Set([
  'clientId',
  'access-token',
  'action',
  'auth',
  'channel',
  'controller',
  'locale',
  'method',
  'module',
  'sign',
  'version',
  'per-page',
  'page',
  'sort',
]);

/**
 * Deepest nesting of objects and arrays the signature takes, the parameters object itself being level 1
 * (a JSON string value counts as the object or array it decodes to). Far beyond any real request; it
 * bounds the work, so a hostile value cannot overflow the stack of the signer or of the service.
 */
export const MAX_PARAMETER_DEPTH = 32;

/**
 * The string that is hashed (before the secret key is appended): values of all parameters but the
 * excluded keys, sorted by key in UTF-8 byte order at every depth, concatenated with no separator.
 *
 * @throws RangeError `parameters nest deeper than 32 levels` when objects and arrays (decoded JSON
 *   strings included) nest deeper than {@link MAX_PARAMETER_DEPTH}; the service refuses such requests too.
 * @example
 * canonicalString({ clientId: 'demo', userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' });
 * // => 'externalenPlayer112345'
 */
export function canonicalString(params: SignableParams): string {
  const parts: string[] = [];
  for (const key of sortedKeys(params)) {
    if (!EXCLUDED_KEYS.has(key)) appendValue(parts, params[key], 2);
  }
  return parts.join('');
}

/** @param depth the level `value` would be, were it an object or array */
function appendValue(parts: string[], value: SignableValue, depth: number): void {
  if (typeof value === 'string') {
    const decoded = decodeJsonContainer(value);
    if (decoded === undefined) parts.push(value);
    else appendValue(parts, decoded, depth);
    return;
  }
  if (value === null || typeof value !== 'object') {
    parts.push(scalarText(value));
    return;
  }
  // Checked before descending, so the recursion never goes deeper than the cap.
  if (depth > MAX_PARAMETER_DEPTH) {
    throw new RangeError(`parameters nest deeper than ${MAX_PARAMETER_DEPTH} levels`);
  }
  if (Array.isArray(value)) {
    for (const item of value as readonly SignableValue[]) appendValue(parts, item, depth + 1);
  } else {
    const object = value as { readonly [key: string]: SignableValue };
    for (const key of sortedKeys(object)) appendValue(parts, object[key], depth + 1);
  }
}

/** A string holding a JSON object or array is signed as the decoded value; any other string as it is. */
function decodeJsonContainer(text: string): SignableValue | undefined {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    const decoded: unknown = JSON.parse(text);
    return decoded !== null && typeof decoded === 'object' ? (decoded as SignableValue) : undefined;
  } catch {
    return undefined;
  }
}

/** Scalars as PHP 8 turns them into text: true → "1", false and null → "", floats with precision 14. */
function scalarText(value: number | boolean | null | undefined): string {
  if (value === true) return '1';
  if (typeof value === 'number') return numberText(value);
  return '';
}

const PHP_FLOAT_PRECISION = 14;

/**
 * Integers print in decimal. Other numbers print as PHP's `(string)$float` does with the default
 * `precision=14`: 14 significant digits, trailing zeros dropped, scientific form (`1.0E+25`, `1.5E-7`)
 * when the exponent is below -4 or at least 14.
 */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isSafeInteger(value)) return String(value);
  const [mantissa = '0', exponentText = '0'] = value.toExponential(PHP_FLOAT_PRECISION - 1).split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= PHP_FLOAT_PRECISION) {
    const digits = mantissa.replace(/\.?0+$/, '');
    const withFraction = digits.includes('.') ? digits : `${digits}.0`;
    return `${withFraction}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  return String(Number(value.toPrecision(PHP_FLOAT_PRECISION)));
}

function sortedKeys(object: object): string[] {
  return Object.keys(object).sort(compareUtf8);
}

/** UTF-8 byte order is code point order, which differs from JavaScript's UTF-16 order above U+FFFF. */
export function compareUtf8(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const difference = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}
