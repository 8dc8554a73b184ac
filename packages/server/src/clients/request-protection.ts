import ipaddr from 'ipaddr.js';

/**
 * What a client asks of its requests beyond the API's signature (docs/design.md §11): replay fields on
 * the spec's signature (`ts`, `nonce`), which signature schemes it takes, and where its calls may come from.
 */
export interface RequestProtection {
  /** `off`: `ts`/`nonce` are plain signed parameters; `accept`: checked when sent; `require`: always. */
  replayProtection: ReplayProtection;
  /** How far `ts` (or an hmac header's `t`) may be from the service's clock, either way, in seconds. */
  replayWindowSeconds: number;
  /** The `sign` schemes accepted: the spec's (`legacy`), `hmac`, or `both` while an integrator moves. */
  signature: SignatureSchemes;
  /** CIDR ranges the client's calls may come from; empty: anywhere. */
  allowedAddresses: readonly string[];
  /**
   * Unix seconds: a sign signed earlier is refused, whatever the window. Set when the window widens, to
   * the oldest time the old window still accepted then: the records of older signs may be purged, and
   * the wider window must not take them back (docs/design.md §11). Undefined: no such bound.
   */
  signedNotBefore?: number | undefined;
}

export const REPLAY_PROTECTIONS = ['off', 'accept', 'require'] as const;
export type ReplayProtection = (typeof REPLAY_PROTECTIONS)[number];
export const SIGNATURE_SCHEMES = ['legacy', 'hmac', 'both'] as const;
export type SignatureSchemes = (typeof SIGNATURE_SCHEMES)[number];

export const REPLAY_WINDOW_DEFAULT_SECONDS = 300;
/** Clocks of servers kept by NTP agree within a second; 30 s leaves room for a slow request. */
export const REPLAY_WINDOW_MIN_SECONDS = 30;
/** Longer, and a captured request stays usable (and its record kept) for longer than any retry needs. */
export const REPLAY_WINDOW_MAX_SECONDS = 3600;
/** An allow-list names an integrator's servers or networks: a few ranges, not a database. */
export const ALLOWED_ADDRESSES_MAX = 64;

/** What a client without settings of its own gets: today's behaviour, the API's signature alone. */
export const DEFAULT_REQUEST_PROTECTION: RequestProtection = Object.freeze({
  replayProtection: 'off',
  replayWindowSeconds: REPLAY_WINDOW_DEFAULT_SECONDS,
  signature: 'legacy',
  allowedAddresses: Object.freeze([]) as readonly string[],
});

/**
 * The bound a widened window set (signedNotBefore) while it still refuses anything, with when it stops:
 * once the window moves past it, the window alone refuses what it did (docs/design.md §11). Unix seconds.
 */
export function wideningBound(
  protection: RequestProtection,
  nowSeconds: number,
): { signedNotBefore: number; until: number } | undefined {
  const signedNotBefore = protection.signedNotBefore;
  if (signedNotBefore === undefined) return undefined;
  const until = signedNotBefore + protection.replayWindowSeconds;
  return nowSeconds < until ? { signedNotBefore, until } : undefined;
}

export function isReplayProtection(value: unknown): value is ReplayProtection {
  return REPLAY_PROTECTIONS.includes(value as ReplayProtection);
}

export function isSignatureSchemes(value: unknown): value is SignatureSchemes {
  return SIGNATURE_SCHEMES.includes(value as SignatureSchemes);
}

/** The problem with a replay window, or undefined when it is whole seconds within 30 s – 1 h. */
export function replayWindowProblem(seconds: number): string | undefined {
  return Number.isInteger(seconds) &&
    seconds >= REPLAY_WINDOW_MIN_SECONDS &&
    seconds <= REPLAY_WINDOW_MAX_SECONDS
    ? undefined
    : `the replay window must be ${REPLAY_WINDOW_MIN_SECONDS} s to ${REPLAY_WINDOW_MAX_SECONDS} s, got ${seconds} s`;
}

/** Seconds per unit of a written replay window; no unit: seconds. */
const WINDOW_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/**
 * A replay window as an operator writes it (`300`, `300s`, `5m`, `1h`): its whole seconds within 30 s –
 * 1 h, or why not. The CLI's `--replay-window` and the console's field read it here, so both take the
 * same text and refuse it with the same words.
 */
export function readReplayWindow(
  text: string,
): { ok: true; seconds: number } | { ok: false; problem: string } {
  const match = /^(\d{1,5}) ?([smh]?)$/.exec(text);
  if (match === null) {
    return {
      ok: false,
      problem: `the replay window takes a duration such as 300s, 5m or 1h, from ${REPLAY_WINDOW_MIN_SECONDS} s to 1 h, got "${text.slice(0, 16)}"`,
    };
  }
  const seconds = Number(match[1]) * (WINDOW_UNITS[match[2] ?? ''] ?? 1);
  const problem = replayWindowProblem(seconds);
  return problem === undefined ? { ok: true, seconds } : { ok: false, problem };
}

/** A range as the list keeps it, or why the text is none. */
export type AddressRangeReading = { ok: true; range: string } | { ok: false; problem: string };

/**
 * One entry of an allow-list: `a.b.c.d/n` or `x:…:y/n`, or one address (a range of one). Written back in
 * one spelling: IPv6 compressed and lower-case, an IPv4-mapped IPv6 range as the IPv4 range it is. A
 * range whose address has bits beyond its prefix is refused, not rounded: `10.1.2.3/8` is more likely a
 * slip for `10.1.2.3/32` than a wish for all of `10.0.0.0/8`.
 */
export function readAddressRange(text: string): AddressRangeReading {
  const problem = (why: string) => ({
    ok: false as const,
    problem: `"${text.slice(0, 64)}" is not an address range: ${why}`,
  });
  const shape = 'give a.b.c.d/n, an IPv6 range such as 2001:db8::/32, or one address';
  if (text.length > 64 || !/^[0-9A-Fa-f:./]+$/.test(text)) return problem(shape);
  // IPv4 in its four-part decimal form only: ipaddr.js also reads `10` or `0x0a.1` as addresses.
  const v4 = !text.includes(':');
  if (v4 && !ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) {
    return problem(shape);
  }
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  let prefix: number;
  try {
    if (text.includes('/')) [address, prefix] = ipaddr.parseCIDR(text);
    else {
      address = ipaddr.parse(text);
      prefix = address.kind() === 'ipv4' ? 32 : 128;
    }
  } catch {
    return problem(shape);
  }
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && prefix >= 96) {
    address = address.toIPv4Address();
    prefix -= 96;
  }
  const network =
    address instanceof ipaddr.IPv4
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  if (network.toString() !== address.toString()) {
    return problem(`it has bits set beyond /${prefix} (the range is ${network.toString()}/${prefix})`);
  }
  return { ok: true, range: `${address.toString()}/${prefix}` };
}

/**
 * Whether `address` (as the caller's address is resolved, docs/design.md §11) lies in one of the
 * ranges; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, an IPv4 caller of a dual-stack socket) is
 * compared as the IPv4 address it carries. An empty list allows every address; an unknown or unreadable
 * address is in no range.
 */
export function addressAllowed(ranges: readonly string[], address: string | undefined): boolean {
  if (ranges.length === 0) return true;
  if (address === undefined || !ipaddr.isValid(address)) return false;
  const caller = ipaddr.process(address);
  return parsedRanges(ranges).some(
    ([network, prefix]) => network.kind() === caller.kind() && caller.match(network, prefix),
  );
}

/** The ranges of a client's list, read once per list (the list object lives as long as the client held). */
const PARSED = new WeakMap<readonly string[], [ipaddr.IPv4 | ipaddr.IPv6, number][]>();

function parsedRanges(ranges: readonly string[]): [ipaddr.IPv4 | ipaddr.IPv6, number][] {
  let parsed = PARSED.get(ranges);
  if (parsed === undefined) {
    parsed = ranges.map((range) => ipaddr.parseCIDR(range));
    PARSED.set(ranges, parsed);
  }
  return parsed;
}
