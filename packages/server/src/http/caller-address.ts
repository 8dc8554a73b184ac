import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';
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

/**
 * The caller's own address, when the service can know it; `undefined` when the address it sees may be
 * shared by many callers, so that counting failures or page views per address could shut them all out:
 * - a trusted proxy (TRUST_PROXY) reported the caller's address: that address;
 * - the peer connected directly from a public address and, without TRUST_PROXY, sent no forwarding
 *   header: the peer;
 * - otherwise (a private, loopback or carrier-NAT peer, which is how proxies and load balancers
 *   connect; forwarding headers nobody was told to trust): unknown.
 */
export function callerAddress(request: FastifyRequest, config: Config): string | undefined {
  const peer = request.socket.remoteAddress;
  if (peer === undefined) return undefined;
  // Fastify resolves request.ip through X-Forwarded-For from trusted proxies only.
  if (request.ip !== peer) return request.ip;
  if (isShared(peer)) return undefined;
  if (config.trustProxy === false && FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) {
    return undefined;
  }
  return peer;
}

function isShared(address: string): boolean {
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  try {
    return SHARED_RANGES.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  } catch {
    return true; // not an address at all: nothing to count by
  }
}
