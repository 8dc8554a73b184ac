import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether only this machine can reach a listen address (`localhost`, 127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * What a staging deployment listening beyond this machine says at start, loudly: staging is for trying
 * the service (docs/design.md §3): it creates a demo client, serves the signature tester and answers a
 * refused signature with the strings it hashed, all of which help whoever can reach it. Empty otherwise.
 */
export function stagingExposureWarning(config: Pick<Config, 'deployment' | 'host'>): string[] {
  if (config.deployment !== 'staging' || isLoopbackHost(config.host)) return [];
  return [
    '',
    `!!! WARNING: a staging deployment listens on ${config.host}, reachable from other machines.`,
    '!!! Staging creates the demo client, serves the signature tester at /tools/signature and answers',
    '!!! a refused signature with the strings it hashed: it is for trying the service on this machine.',
    '!!! Set HOST=127.0.0.1 to keep it here, or POKER_LAUNCH_ENV=production for a deployment.',
    '',
  ];
}
