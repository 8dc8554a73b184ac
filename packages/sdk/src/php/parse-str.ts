import { PhpArray } from './php-array.js';

/** PHP's `max_input_nesting_level`: a variable nested deeper is dropped, whole. */
const MAX_NESTING = 64;

/** A query string or form body PHP cannot read as text: not UTF-8 once percent-decoded, or too many parameters. */
export class PhpInputError extends Error {
  override name = 'PhpInputError';
}

/**
 * A query string or an `application/x-www-form-urlencoded` body as PHP 8 reads it (`parse_str`,
 * `$_GET`, `$_POST`: main/php_variables.c): `a[]=1&a[x]=2&a[]=3` is `[0 => "1", "x" => "2", 1 => "3"]`,
 * `.` and space in a top-level name become `_`, an unmatched `[` becomes `_`, a repeated key keeps its
 * first position and its last value, integer-like keys are integers.
 *
 * @param maxParameters more non-empty `&`-separated pieces than this throw (PHP would drop the rest
 *   silently; a service had better refuse).
 * @throws PhpInputError when a name or value is not UTF-8 once percent-decoded, or there are too many.
 * @example [...parseStr('a[]=1&a[x]=2&a[]=3').entries()] // [['a', PhpArray [0n=>'1', 'x'=>'2', 1n=>'3']]]
 */
export function parseStr(text: string, maxParameters = Number.POSITIVE_INFINITY): PhpArray {
  const root = new PhpArray();
  // Walked with indexOf, not split('&'), and decoded only when the text holds a `%` or a `+`: a quarter
  // of a form's reading was the split, and a tenth the two looks for them in each name and value
  // (a v2 body and query: 15.5k instructions read, docs/performance.md).
  const encoded = text.includes('%') || text.includes('+');
  let count = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      if (++count > maxParameters) {
        throw new PhpInputError(`A form or query string may carry at most ${maxParameters} parameters`);
      }
      let separator = text.indexOf('=', start);
      if (separator > end) separator = -1;
      const name = text.slice(start, separator === -1 ? end : separator);
      const value = separator === -1 ? '' : text.slice(separator + 1, end);
      if (encoded) registerVariable(root, urlDecode(name), urlDecode(value));
      else registerVariable(root, name, value);
    }
    start = end + 1;
  }
  return root;
}

/** `php_register_variable_ex`: stores one name=value pair the way PHP does. */
function registerVariable(root: PhpArray, rawName: string, value: string): void {
  // The name is a C string: it ends at its first NUL (the value is binary-safe).
  const nul = rawName.indexOf('\0');
  let name = nul === -1 ? rawName : rawName.slice(0, nul);
  let start = 0;
  while (name.charCodeAt(start) === 32) start++;
  name = name.slice(start);
  const open = name.indexOf('[');
  const head = (open === -1 ? name : name.slice(0, open)).replace(/[ .]/g, '_');
  // Mangling must not forge the cookie-prefix names __Host- and __Secure- (PHP drops such variables).
  if (head.startsWith('__Host-') && !name.startsWith('__Host-')) return;
  if (head.startsWith('__Secure-') && !name.startsWith('__Secure-')) return;
  if (head === '') return;
  if (open === -1) {
    root.set(head, value);
    return;
  }
  let table = root;
  /** The key the next level (or the value) goes under; undefined appends (`[]`). */
  let index: string | undefined = head;
  let position = open;
  for (let level = 1; ; level++) {
    if (level > MAX_NESTING) {
      root.delete(head);
      return;
    }
    position++;
    const segmentStart = position;
    if (isCSpace(name.charCodeAt(position))) position++;
    let next: string | undefined;
    if (name[position] !== ']') {
      const close = name.indexOf(']', position);
      if (close === -1) {
        // Not an index: at the first level the "[" and the rest join the name; deeper, the rest is dropped.
        if (level === 1) index = `${head}_${name.slice(segmentStart).replace(/[ .[]/g, '_')}`;
        break;
      }
      next = name.slice(segmentStart, close);
      position = close;
    }
    let child: PhpArray;
    if (index === undefined) {
      child = new PhpArray();
      if (!table.append(child)) return;
    } else {
      const existing = table.get(index);
      if (existing instanceof PhpArray) {
        child = existing;
      } else {
        child = new PhpArray();
        table.set(index, child);
      }
    }
    table = child;
    index = next;
    position++;
    // Anything after "]" but another "[" is ignored: `a[b]c=1` is `a[b]=1`.
    if (name[position] !== '[') break;
  }
  if (index === undefined) table.append(value);
  else table.set(index, value);
}

/** C's isspace in the "C" locale. */
function isCSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * `php_url_decode`: `+` is a space, `%XX` a byte, a `%` without two hex digits stays as it is. The
 * bytes must be UTF-8: the service works with text (PHP would keep any bytes).
 */
function urlDecode(text: string): string {
  if (!text.includes('%')) return text.includes('+') ? text.replaceAll('+', ' ') : text;
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray "%" or a byte sequence that is not UTF-8: decode byte by byte, as PHP does.
  }
  const source = encoder.encode(spaced);
  const bytes = new Uint8Array(source.length);
  let length = 0;
  for (let index = 0; index < source.length; index++) {
    const byte = source[index] as number;
    const high = hexValue(source[index + 1]);
    const low = hexValue(source[index + 2]);
    if (byte === 37 && high !== -1 && low !== -1) {
      bytes[length++] = high * 16 + low;
      index += 2;
    } else {
      bytes[length++] = byte;
    }
  }
  try {
    return utf8.decode(bytes.subarray(0, length));
  } catch {
    throw new PhpInputError('A parameter name or value is not UTF-8 once percent-decoded');
  }
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 48 && byte <= 57) return byte - 48;
  if (byte >= 65 && byte <= 70) return byte - 55;
  if (byte >= 97 && byte <= 102) return byte - 87;
  return -1;
}
