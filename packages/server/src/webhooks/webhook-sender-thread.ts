import { parentPort, workerData } from 'node:worker_threads';
import { mapLimited, type SenderThreadOptions, type SendJob } from './send-jobs.js';
import { type SendOutcome, WebhookSender } from './webhook-sender.js';
import { signedHeaders } from './webhook-signature.js';

/**
 * The thread that sends webhooks (docs/design.md §11): each request is one batch of one endpoint's
 * deliveries, sent `concurrency` at a time, signed as each goes; batches of other endpoints run beside it.
 */
const options = workerData as SenderThreadOptions;
const sender = new WebhookSender({ allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs });
const port = parentPort;
if (port === null) throw new Error('the webhook sender runs as a worker thread');

port.on('message', ({ id, payload }: { id: number; payload: string }) => {
  const jobs = JSON.parse(payload) as SendJob[];
  void mapLimited(jobs, options.concurrency, send).then(
    (outcomes) => port.postMessage({ id, result: JSON.stringify(outcomes) }),
    (error: unknown) =>
      port.postMessage({ id, error: { message: error instanceof Error ? error.message : String(error) } }),
  );
});

function send(job: SendJob): Promise<SendOutcome> {
  // Signed as it goes: webhook-timestamp is the time of this attempt.
  const headers = signedHeaders(job.id, Math.floor(Date.now() / 1000), job.body, job.secrets);
  return sender.send(job.url, headers, job.body);
}
