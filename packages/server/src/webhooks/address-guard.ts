import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook never goes to unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true: what is not the public
 * internet (loopback, private, link-local, carrier-grade NAT, unique-local, multicast, reserved), where
 * cloud metadata services (169.254.169.254, fd00:ec2::254) and the operator's own services live.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (deprecated, RFC 4291)
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether a webhook may not connect to this address. An IPv6 address that carries an IPv4 one to an
 * IPv4 host counts as that IPv4 address: IPv4-mapped (`::ffff:127.0.0.1`, in either spelling), NAT64's
 * well-known prefix (`64:ff9b::a9fe:a9fe`, RFC 6052: a NAT64 gateway connects to 169.254.169.254 for
 * it) and 6to4 (`2002:7f00:1::`). IPv4-compatible addresses (`::127.0.0.1`, deprecated by RFC 4291)
 * are refused whatever they carry.
 */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return isForbiddenIpv4(address);
  const carried = carriedIpv4(address);
  if (carried !== undefined && isForbiddenIpv4(carried)) return true;
  if (FORBIDDEN.check(address, 'ipv6')) return true;
  return !isGlobalUnicastOrCarrier(address);
}

/**
 * An IPv4 address is refused in the list above or in any range ipaddr.js sets apart from unicast: the
 * list names the ranges this rule is about, ipaddr.js (maintained) the rest IANA reserves, as for IPv6
 * below (the 6to4 relay anycast 192.88.99.0/24, AS112's and AMT's anycast ranges).
 */
function isForbiddenIpv4(address: string): boolean {
  if (FORBIDDEN.check(address, 'ipv4')) return true;
  try {
    return ipaddr.IPv4.parse(address).range() !== 'unicast';
  } catch {
    return true;
  }
}

/** The ranges judged by the IPv4 address they carry (carriedIpv4), as ipaddr.js names them. */
const CARRIERS_OF_IPV4 = new Set(['ipv4Mapped', 'rfc6052', '6to4']);

/**
 * Whether an IPv6 address is in the global unicast space or carries an IPv4 address judged above. Every
 * other range IANA sets apart, as ipaddr.js knows them, is refused: Teredo (2001::/32, whose client
 * address is hidden in the last bits), ORCHID, benchmarking, segment routing, the rest of 2001::/23.
 */
function isGlobalUnicastOrCarrier(address: string): boolean {
  try {
    const range = ipaddr.IPv6.parse(address).range();
    return range === 'unicast' || CARRIERS_OF_IPV4.has(range);
  } catch {
    return false;
  }
}

/** The IPv4 address an IPv6 one carries (mapped, IPv4-compatible, NAT64 well-known prefix, 6to4), if any. */
function carriedIpv4(address: string): string | undefined {
  let bytes: number[];
  try {
    bytes = ipaddr.IPv6.parse(address).toByteArray();
  } catch {
    return undefined;
  }
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const ipv4 = (from: number) => bytes.slice(from, from + 4).join('.');
  // ::ffff:0:0/96 (mapped) and ::/96 (compatible; :: and ::1 come out as 0.0.0.0 and 0.0.0.1, refused).
  if (zero(0, 10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0))) {
    return ipv4(12);
  }
  // 64:ff9b::/96, NAT64's well-known prefix (RFC 6052).
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) {
    return ipv4(12);
  }
  // 2002::/16, 6to4 (RFC 3056): the IPv4 address in bits 16–47.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return ipv4(2);
  return undefined;
}

/** A refused address, named in the delivery's last error. */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  constructor(readonly address: string) {
    super(`${address} is not a public address (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it)`);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Every address of a host name: dns.lookup, or a stand-in DNS answer in tests. */
export type Resolve = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * Webhook DNS questions asked at once, across every endpoint and name; the others wait their turn.
 * dns.lookup holds one of libuv's four pool threads until the name's DNS answers or its timeouts run
 * out (glibc: 5 s x 2 tries per server), and the pool is the whole process's: file reads, password
 * hashes of console sign-ins, the database's and Redis' own lookups. Two leave the rest at least two
 * whatever the endpoints' DNS does; a delivery waiting its turn is still ended by its attempt's time
 * limit and retried (docs/integration.md#webhooks).
 */
export const WEBHOOK_LOOKUPS_AT_ONCE = 2;

/** A count of slots: `take` runs a task now if one is free, else when a running task gives its slot back. */
export class LookupSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Runs `task`, which must call the `release` it is given once (and only once) it is done. */
  take(task: (release: () => void) => void): void {
    if (this.running >= this.size) {
      this.waiting.push(() => this.take(task));
      return;
    }
    this.running++;
    let released = false;
    task(() => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.();
    });
  }
}

/** The sender's slots: one sender thread makes every webhook connection of the process. */
const SENDER_LOOKUP_SLOTS = new LookupSlots(WEBHOOK_LOOKUPS_AT_ONCE);

/**
 * A `lookup` for http.request: resolves the host and hands the socket the first address it may
 * connect to, so the address checked is the address connected to (a host that resolves to a private
 * address between a check and the connection cannot slip through). Of a name with several addresses, the
 * refused ones are dropped and the others used: none of them is ever connected to (docs/integration.md#webhooks).
 */
export function guardedLookup(
  allowPrivate: boolean,
  resolve: Resolve = lookup,
  slots: LookupSlots = SENDER_LOOKUP_SLOTS,
) {
  /** The lookups under way, by name, with the connections waiting for each answer. */
  const asking = new Map<
    string,
    ((error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void)[]
  >();
  /**
   * One question at a time per name: the connections a batch opens together (up to 16) share its answer,
   * each checking it. dns.lookup holds one of libuv's four threads until the name's DNS answers, or its
   * timeouts run out, many seconds on; with a question per connection, one endpoint whose DNS never
   * answers held all four, and with them every other lookup, file and hash of the process
   * (docs/integration.md#webhooks: a dead endpoint holds up nothing but its own deliveries).
   */
  const ask = (
    hostname: string,
    answered: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    const waiting = asking.get(hostname);
    if (waiting !== undefined) {
      waiting.push(answered);
      return;
    }
    asking.set(hostname, [answered]);
    const answer = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      const all = asking.get(hostname) ?? [];
      asking.delete(hostname);
      for (const each of all) each(error, addresses);
    };
    slots.take((release) => {
      try {
        resolve(hostname, { all: true }, (error, addresses) => {
          release();
          answer(error, addresses);
        });
      } catch (error) {
        // dns.lookup throws for a name it cannot take at all: an answer like any other, the slot freed.
        release();
        answer(error as NodeJS.ErrnoException, []);
      }
    });
  };
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    ask(hostname, (error, addresses) => {
      if (error) return callback(error, '');
      const usable = addresses.filter((entry) => allowPrivate || !isForbiddenAddress(entry.address));
      const [first] = usable;
      if (first === undefined) {
        return callback(new ForbiddenAddressError(addresses[0]?.address ?? hostname), '');
      }
      if (options.all) return callback(null, usable);
      callback(null, first.address, first.family);
    });
  };
}
