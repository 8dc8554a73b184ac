/**
 * Compares two strings in UTF-8 byte order (what PHP's `strcmp` of UTF-8 text gives), which is code
 * point order and differs from JavaScript's UTF-16 order above U+FFFF.
 *
 * @example compareUtf8('\u{1F600}', '\uFF5E') > 0 // true, though '\u{1F600}' < '\uFF5E' in UTF-16
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x !== y) {
      // Surrogates (U+D800–DFFF, the halves of code points above U+FFFF) sort after U+E000–FFFF.
      if (x >= 0xd800 && y >= 0xd800) return utf8Rank(x) - utf8Rank(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

function utf8Rank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
