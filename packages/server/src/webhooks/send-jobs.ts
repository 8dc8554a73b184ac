import { ThreadChannel } from '../db/sqlite/thread-channel.js';
import type { SendOutcome } from './webhook-sender.js';

/**
 * One batch for the sender thread: one endpoint's id (whose connections carry it), its URL and the
 * secrets that sign its requests, once, and
 * each delivery's webhook-id and body, by position (two arrays of strings: the cheapest JSON either
 * side of the thread; docs/performance.md, "Webhooks on the launch path").
 */
export interface SendBatch {
  endpoint: string;
  url: string;
  secrets: readonly string[];
  ids: readonly string[];
  bodies: readonly string[];
}

export interface SenderThreadOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Connections one batch is sent on at most (a few requests pipelined on each). */
  concurrency: number;
  /** The thread's nice value (SENDER_NICE), set by the thread itself where the OS allows. */
  nice: number;
}

/**
 * The sender thread's nice value: 19, the lowest priority, so that a delivery takes only CPU the launch
 * path leaves (docs/design.md §11; its cost and 10 against 19 in docs/performance.md).
 */
export const SENDER_NICE = 19;

/** The request that asks the thread what became of its priority (the answer: SenderPriority). */
export const PRIORITY_REQUEST = 'priority';

export type SenderPriority = { nice: number } | { unavailable: string };

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

  /** Starts the thread if it was not, and says whether it runs at its lower priority. */
  async priority(): Promise<SenderPriority> {
    return JSON.parse(await this.channel.request(PRIORITY_REQUEST)) as SenderPriority;
  }

  /** The outcome of each delivery of the batch, in order; rejects only if the thread died. */
  async sendAll(batch: SendBatch): Promise<SendOutcome[]> {
    return JSON.parse(await this.channel.request(JSON.stringify(batch))) as SendOutcome[];
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
