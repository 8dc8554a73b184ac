import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** Whether a webhook may not connect to this address (an IPv4-mapped IPv6 address counts as IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return FORBIDDEN.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 one, in either spelling (::ffff:127.0.0.1, ::ffff:7f00:1). */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted !== undefined) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [high, low] = [Number.parseInt(hex[1] ?? '', 16), Number.parseInt(hex[2] ?? '', 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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

/**
 * A `lookup` for http.request: resolves the host and hands the socket the first address it may
 * connect to, so the address checked is the address connected to (a host that resolves to a private
 * address between a check and the connection cannot slip through).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { all: true }, (error, addresses) => {
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
