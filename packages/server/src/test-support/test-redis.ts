import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { describe } from 'vitest';

/** The real Redis of this machine and of CI (never stopped by a test: faults go through a TCP proxy). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const reachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(2_000, () => socket.destroy());
  socket.once('connect', () => {
    socket.end();
    resolve(true);
  });
  socket.once('close', () => resolve(false));
});
if (!reachable && process.env.CI) {
  // CI must prove the shared quotas; a skipped Redis suite would be a test that cannot fail.
  throw new Error(`no Redis at ${TEST_REDIS_URL}; CI must run the Redis tests`);
}

/** `describe`, or `describe.skip` where no Redis runs (outside CI only, see above). */
export const describeWithRedis = reachable ? describe : describe.skip;

/** A key prefix of its own, so parallel tests (and other checkouts' runs) never share a count. */
export function uniqueKeyPrefix(): string {
  return `poker-launch-test:${randomBytes(6).toString('hex')}:`;
}
