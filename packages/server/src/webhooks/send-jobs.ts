import { ThreadChannel } from '../db/sqlite/thread-channel.js';
import type { SendOutcome } from './webhook-sender.js';

/** One delivery for the sender thread: where, its webhook-id and body, and the secrets that sign it. */
export interface SendJob {
  url: string;
  id: string;
  body: string;
  secrets: readonly string[];
}

export interface SenderThreadOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Deliveries of one batch sent at once. */
  concurrency: number;
}

/**
 * Sends webhooks from a worker thread of their own (webhook-sender-thread.ts), so that what a delivery
 * costs the CPU — the request, TLS, signing, reading the answer — is not spent on the event loop the
 * launches are answered on (docs/design.md §11). One message each way per batch.
 */
export class SenderThread {
  private readonly channel: ThreadChannel;

  constructor(options: SenderThreadOptions) {
    this.channel = new ThreadChannel('./webhook-sender-thread.js', import.meta.url, options);
  }

  /** The outcome of each job, in order; rejects only if the thread died. */
  async sendAll(jobs: readonly SendJob[]): Promise<SendOutcome[]> {
    return JSON.parse(await this.channel.request(JSON.stringify(jobs))) as SendOutcome[];
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}

/** `work` on every item, at most `limit` at once; the results in the items' order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
