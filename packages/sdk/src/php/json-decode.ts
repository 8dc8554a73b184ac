import { PhpArray, PhpFloat, type PhpValue } from './php-array.js';

/** `json_decode`'s default depth: a document nested deeper does not decode at all. */
const PHP_JSON_DEPTH = 512;
const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

/** What {@link phpJsonDecode} answers for text PHP's `json_decode` refuses (it answers null). */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * `json_decode($text, true)` of PHP 8, exactly: objects become ordered {@link PhpArray}s (a repeated
 * key keeps its first position and its last value; integer-like keys are integers), integers keep all
 * their digits (a `bigint` beyond 2^53; a float beyond 64 bits, as PHP), a float literal whose value is
 * whole (`1.0`, `1e15`, `-0.0`) is a {@link PhpFloat}. Strict RFC 8259, as PHP: no lone surrogates, no
 * control characters in strings, at most 512 levels.
 *
 * @example phpJsonDecode('{"b":1,"10":2}') // PhpArray ['b' => 1, 10n => 2]
 * @example phpJsonDecode('{"a":') // NOT_JSON
 */
export function phpJsonDecode(text: string): PhpValue | typeof NOT_JSON {
  const reader = new Reader(text);
  try {
    reader.skipSpace();
    const value = reader.value(0);
    reader.skipSpace();
    return reader.at === text.length ? value : NOT_JSON;
  } catch (error) {
    if (error === SYNTAX) return NOT_JSON;
    throw error;
  }
}

const SYNTAX = Symbol('syntax');
// An escape, a control character (refused inside strings) or a surrogate (checked for pairing).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const NEEDS_SLOW_STRING = /[\\\u0000-\u001f\ud800-\udfff]/;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  skipSpace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.at);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return;
      this.at++;
    }
  }

  value(depth: number): PhpValue {
    const code = this.text.charCodeAt(this.at);
    if (code === 123 || code === 91) {
      if (depth + 1 > PHP_JSON_DEPTH) throw SYNTAX;
      return code === 123 ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (code === 34) return this.string();
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    if (this.literal('null')) return null;
    return this.number();
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  private object(depth: number): PhpArray {
    const result = new PhpArray();
    this.at++;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 125) {
      this.at++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.at) !== 34) throw SYNTAX;
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.at) !== 58) throw SYNTAX;
      this.at++;
      this.skipSpace();
      result.set(key, this.value(depth));
      this.skipSpace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 125) return result;
      if (next !== 44) throw SYNTAX;
      this.skipSpace();
    }
  }

  private array(depth: number): PhpArray {
    const result = new PhpArray();
    this.at++;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 93) {
      this.at++;
      return result;
    }
    for (;;) {
      result.append(this.value(depth));
      this.skipSpace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 93) return result;
      if (next !== 44) throw SYNTAX;
      this.skipSpace();
    }
  }

  private string(): string {
    const start = ++this.at;
    const end = this.text.indexOf('"', start);
    // Fast path: no escape, no control character, no lone surrogate before the closing quote.
    if (end !== -1) {
      const raw = this.text.slice(start, end);
      if (!NEEDS_SLOW_STRING.test(raw)) {
        this.at = end + 1;
        return raw;
      }
    }
    let out = '';
    for (;;) {
      const code = this.text.charCodeAt(this.at);
      if (Number.isNaN(code) || code < 0x20) throw SYNTAX;
      if (code === 34) {
        this.at++;
        return out;
      }
      if (code === 92) {
        out += this.escape();
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = this.text.charCodeAt(this.at + 1);
        if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) throw SYNTAX;
        out += this.text.slice(this.at, this.at + 2);
        this.at += 2;
        continue;
      }
      out += this.text[this.at++];
    }
  }

  private escape(): string {
    const kind = this.text[this.at + 1];
    this.at += 2;
    const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[
      kind ?? ''
    ];
    if (simple !== undefined) return simple;
    if (kind !== 'u') throw SYNTAX;
    const unit = this.hex4();
    if (unit < 0xd800 || unit > 0xdfff) return String.fromCharCode(unit);
    // PHP takes a surrogate only as a high one followed by an escaped low one.
    if (unit > 0xdbff || this.text.slice(this.at, this.at + 2) !== '\\u') throw SYNTAX;
    this.at += 2;
    const low = this.hex4();
    if (low < 0xdc00 || low > 0xdfff) throw SYNTAX;
    return String.fromCharCode(unit, low);
  }

  private hex4(): number {
    const digits = this.text.slice(this.at, this.at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw SYNTAX;
    this.at += 4;
    return Number.parseInt(digits, 16);
  }

  private number(): PhpValue {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) throw SYNTAX;
    const literal = match[0];
    this.at += literal.length;
    if (match[1] === undefined && match[2] === undefined) {
      const integer = BigInt(literal);
      if (integer <= LONG_MAX && integer >= LONG_MIN) {
        const value = Number(integer);
        return Number.isSafeInteger(value) ? value : integer;
      }
      // Beyond 64 bits PHP reads the integer as a float.
    }
    const value = Number(literal);
    // A bare number that is whole (or infinite) would read as an int (or as JSON's null): mark it a float.
    return Number.isInteger(value) || !Number.isFinite(value) ? new PhpFloat(value) : value;
  }
}
