/** PHP's `precision` setting, whose default (14) `(string)$float` uses. */
const PRECISION = 14;

/**
 * `(string)$float` in PHP 8 (`%.14G`): 14 significant digits rounded half to even on the exact binary
 * value, trailing zeros dropped, scientific form (`1.0E+25`, `1.5E-7`) when the exponent is below -4 or
 * at least 14; `-0`, `INF`, `-INF`, `NAN`.
 *
 * @example floatText(0.1 + 0.2) // '0.3'
 * @example floatText(1e15)      // '1.0E+15'
 */
export function floatText(value: number): string {
  if (Number.isNaN(value)) return 'NAN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const sign = value < 0 ? '-' : '';
  const { digits, exponent } = roundedDigits(Math.abs(value));
  if (exponent < -4 || exponent >= PRECISION) {
    const fraction = digits.length > 1 ? digits.slice(1) : '0';
    return `${sign}${digits[0]}.${fraction}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/** At most 14 significant digits (no trailing zeros) and the decimal exponent of the first one. */
function roundedDigits(value: number): { digits: string; exponent: number } {
  const { integer, shift } = exactDecimal(value);
  let digits = integer.toString();
  let exponent = digits.length - 1 + shift;
  if (digits.length > PRECISION) {
    const head = digits.slice(0, PRECISION);
    const rest = digits.slice(PRECISION);
    const half = rest[0] === '5' && /^50*$/.test(rest);
    const up =
      rest[0] !== undefined &&
      (rest[0] > '5' || (rest[0] === '5' && !half) || (half && Number(head.at(-1)) % 2 === 1));
    digits = up ? (BigInt(head) + 1n).toString() : head;
    if (digits.length > PRECISION) {
      digits = digits.slice(0, PRECISION);
      exponent++;
    }
  }
  return { digits: digits.replace(/0+$/, '') || '0', exponent };
}

/** The exact value of a positive finite double as integer × 10^shift. */
function exactDecimal(value: number): { integer: bigint; shift: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = biased === 0 ? fraction : fraction | 0x10000000000000n;
  const power = (biased === 0 ? 1 : biased) - 1075;
  if (power >= 0) return { integer: mantissa << BigInt(power), shift: 0 };
  // m / 2^k = m * 5^k / 10^k
  return { integer: mantissa * 5n ** BigInt(-power), shift: power };
}
