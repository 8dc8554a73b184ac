import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import {
  PRIORITY_REQUEST,
  type SendBatch,
  type SenderPriority,
  type SenderThreadOptions,
} from './send-jobs.js';
import { type SendOutcome, WebhookSender } from './webhook-sender.js';
import { signedHeaders } from './webhook-signature.js';

/**
 * The thread that sends webhooks (docs/design.md §11): each request is one batch of one endpoint's
 * deliveries, sent on up to `concurrency` connections, signed as each is written; batches of other
 * endpoints run beside it.
 */
const options = workerData as SenderThreadOptions;
const priority = lowerPriority(options.nice);
const sender = new WebhookSender({
  allowPrivate: options.allowPrivate,
  timeoutMs: options.timeoutMs,
  connections: options.concurrency,
});
const port = parentPort;
if (port === null) throw new Error('the webhook sender runs as a worker thread');

port.on('message', ({ id, payload }: { id: number; payload: string }) => {
  if (payload === PRIORITY_REQUEST) {
    port.postMessage({ id, result: JSON.stringify(priority) });
    return;
  }
  const batch = JSON.parse(payload) as SendBatch;
  void sendBatch(batch).then(
    (outcomes) => port.postMessage({ id, result: JSON.stringify(outcomes) }),
    (error: unknown) =>
      port.postMessage({ id, error: { message: error instanceof Error ? error.message : String(error) } }),
  );
});

/** A batch's deliveries sent to its endpoint; the outcomes in the deliveries' order. */
function sendBatch({ endpoint, url, secrets, ids, bodies }: SendBatch): Promise<SendOutcome[]> {
  const items = bodies.map((body, index) => ({
    body,
    // Signed as it is written: webhook-timestamp is the time of this attempt.
    headers: () => signedHeaders(ids[index] as string, Math.floor(Date.now() / 1000), body, secrets),
  }));
  return sender.sendAll(url, items, options.concurrency, endpoint);
}

/**
 * Lowers this thread's scheduling priority, and this thread's only (docs/design.md §11): deliveries are
 * background work, and on a busy machine the launches' threads come first. Linux keeps a nice value per
 * thread, set through setpriority(PRIO_PROCESS, tid); the tid is read from /proc/thread-self
 * ("<pid>/task/<tid>"). Elsewhere (no /proc, or the call refused) the thread runs at the process's
 * priority: the reason is returned for the deliverer to log.
 */
function lowerPriority(nice: number): SenderPriority {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return { unavailable: 'no thread id in /proc/thread-self' };
    setPriority(tid, nice);
    return { nice };
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}
