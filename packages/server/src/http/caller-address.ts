import { BlockList, isIPv4 } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.js';

/** Where proxies and load balancers connect from: addresses many callers may share. */
const SHARED_RANGES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  SHARED_RANGES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127], // :: and ::1
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link local
] as const) {
  SHARED_RANGES.addSubnet(network, prefix, 'ipv6');
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];
const DOTTED_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * THE caller's address (docs/design.md §11), for logs, the per-address quotas and anything else that
 * asks where a request comes from; no header a caller writes can choose it:
 * - with TRUST_PROXY (a list of proxies), the first address of the chain, read from the right (the
 *   connection's, then X-Forwarded-For's last entry, and so on), that is not a trusted proxy: each
 *   trusted proxy vouches only for the address it saw, never for what the caller wrote further left;
 * - without it, the connection's: forwarding headers are ignored.
 * Fastify resolves it so (trustProxy, with proxy-addr's rules) as `request.ip`; read it here.
 */
export function resolvedAddress(request: FastifyRequest): string | undefined {
  return request.ip;
}

/**
 * The resolved address when it is the caller's own, as counted per address (an IPv6 address as its /64,
 * below); `undefined` when it may be shared by many callers, so that counting failures or page views per
 * address could shut them all out: a trusted proxy that reported no caller, or, without TRUST_PROXY, a
 * private, loopback or carrier-NAT peer (how proxies and load balancers connect).
 */
export function callerAddress(request: FastifyRequest, config: Config): string | undefined {
  const address = resolvedAddress(request);
  if (address === undefined) return undefined;
  if (config.trustProxy === false) return isShared(address) ? undefined : countedAs(address);
  return trustedProxies(config.trustProxy)(address, 0) ? undefined : countedAs(address);
}

/**
 * An IPv6 caller counts as its /64 (`2001:db8:1:2::/64`): one network holds 2^64 addresses, which one
 * host can hop across at will, so counting each would give a guesser as many quotas (docs/design.md §11).
 * IPv4 addresses count as themselves, however written: one mapped into IPv6 as the IPv4 address (as a /64
 * of IPv6, every IPv4 caller would have been one).
 */
function countedAs(address: string): string {
  const plain = plainAddress(address);
  if (plain === undefined) return address;
  if (isIPv4(plain)) return plain;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${plain}/64`).toString()}/64`;
}

/**
 * Without TRUST_PROXY, says once that forwarding headers arrive and are ignored: a sign that the
 * service sits behind a proxy nobody named, so every caller counts as the proxy. The check for the
 * app's onRequest hook (app.ts), or undefined when there is nothing to notice.
 */
export function forwardingHeadersNotice(
  app: FastifyInstance,
  config: Config,
): ((request: FastifyRequest) => void) | undefined {
  if (config.trustProxy !== false) return undefined;
  let noticed = false;
  return (request) => {
    if (!noticed && FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) {
      noticed = true;
      app.log.warn(
        'forwarding headers (X-Forwarded-For, Forwarded, X-Real-IP) are ignored: TRUST_PROXY is off, ' +
          "so each request counts by its connection's address; behind a proxy, set TRUST_PROXY to its addresses",
      );
    }
  };
}

const compiled = new WeakMap<readonly string[], (address: string, hop: number) => boolean>();

function trustedProxies(list: readonly string[]): (address: string, hop: number) => boolean {
  let trust = compiled.get(list);
  if (!trust) {
    trust = proxyAddr.compile([...list]);
    compiled.set(list, trust);
  }
  return trust;
}

function isShared(address: string): boolean {
  const plain = plainAddress(address);
  if (plain === undefined) return true; // not an address at all: nothing to count by
  return SHARED_RANGES.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}

/**
 * The address as one text per address: an IPv4 address mapped into IPv6 (a dual-stack socket's
 * `::ffff:a.b.c.d`, or `::ffff:cb00:7105` as a proxy may write it) as the IPv4 address, every form in its
 * shortest spelling; undefined for what is no address.
 */
function plainAddress(address: string): string | undefined {
  // Nearly every request: an IPv4 peer, plain or as a dual-stack socket gives it, read without parsing.
  if (isIPv4(address)) return address;
  const mapped = DOTTED_MAPPED.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  try {
    return ipaddr.process(address).toString();
  } catch {
    return undefined;
  }
}
