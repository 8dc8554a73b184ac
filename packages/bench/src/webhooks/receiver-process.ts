import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, startServerProcess } from '../processes/server-process.js';

const run = promisify(execFile);
const RECEIVER = fileURLToPath(new URL('./webhook-receiver.js', import.meta.url));

/** The webhook receiver in its own process, and what the service needs to deliver to it. */
export interface ReceiverProcess {
  /** The endpoint's URL: https://127.0.0.1:<port>/hooks. */
  readonly url: string;
  readonly pid: number;
  /** The service's environment: trust the receiver's certificate, and deliver to 127.0.0.1. */
  readonly serviceEnv: Readonly<Record<string, string>>;
  /** Deliveries received so far. */
  received(): Promise<number>;
  /** Deliveries that came so far to each path: /hooks (204), /fail (500), /hang (never answered). */
  counts(): Promise<{ hooks: number; fail: number; hang: number }>;
  stop(): Promise<void>;
}

/**
 * A self-signed certificate for 127.0.0.1 (openssl), then the receiver: the service delivers over
 * https, as it must in production, to a receiver it trusts through NODE_EXTRA_CA_CERTS.
 */
export async function startReceiver(): Promise<ReceiverProcess> {
  const folder = await mkdtemp(join(tmpdir(), 'poker-launch-bench-receiver-'));
  const cert = join(folder, 'cert.pem');
  const key = join(folder, 'key.pem');
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    const [port, controlPort] = [await freePort(), await freePort()];
    const server = await startServerProcess(
      [RECEIVER],
      {
        RECEIVER_CERT: cert,
        RECEIVER_KEY: key,
        RECEIVER_PORT: String(port),
        RECEIVER_CONTROL_PORT: String(controlPort),
      },
      controlPort,
    );
    return {
      url: `https://127.0.0.1:${port}/hooks`,
      pid: server.pid,
      serviceEnv: { NODE_EXTRA_CA_CERTS: cert, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
      async received() {
        const answer = await fetch(`${server.url}/count`);
        return ((await answer.json()) as { received: number }).received;
      },
      async counts() {
        const answer = await fetch(`${server.url}/counts`);
        return (await answer.json()) as { hooks: number; fail: number; hang: number };
      },
      async stop() {
        try {
          await server.stop();
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
