import { createServer } from 'node:net';

/**
 * A loopback TCP port nobody listens on now, for a process the test starts itself (a `serve`, a
 * redis-server): their configuration wants a real port, 1–65535, so they cannot be given port 0.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}
