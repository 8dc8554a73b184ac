import type { Clock } from '../clock.js';

export const QUOTA_WINDOW_MS = 60_000;

/** A key's count in its current window, and how long until the window ends. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from 0. */
  resetInMs: number;
}

/**
 * Where quota counts live: in this process (per instance) or in Redis (shared by all instances). Each key
 * counts in a fixed one-minute window that starts with its first request.
 */
export interface QuotaStore {
  /** Counts one request of `key`: at once in this process, or later from a shared store. */
  hit(key: string): WindowCount | Promise<WindowCount>;
  /** The count of `key` without counting. */
  peek(key: string): WindowCount | Promise<WindowCount>;
  /** Takes back one request of `key` counted in its current window (RateLimiter.refundCaller). */
  refund(key: string): void | Promise<void>;
  /** Quota checks the shared store did not answer (always 0 for one that cannot fail). */
  readonly failures: number;
  close(): Promise<void>;
}

/** Keys one in-memory store tracks at most: ~180 bytes each, so about 9 MB however many callers come. */
export const MAX_TRACKED_KEYS = 50_000;

interface Window {
  readonly key: string;
  readonly start: number;
  count: number;
}

/**
 * Counts in this process, within a fixed memory bound. Windows are also queued in the order they
 * started, so the oldest is always at the head: expired windows are shed from there, and when every
 * tracked window is live and the bound is reached, the oldest goes, which at worst lets that key start
 * counting again. (A queue, not the map's own order: deleting from the front of a Map leaves holes its
 * iteration would walk over again and again.)
 */
export class MemoryQuotaStore implements QuotaStore {
  private readonly windows = new Map<string, Window>();
  private readonly started: Window[] = [];
  private head = 0;
  readonly failures = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = MAX_TRACKED_KEYS,
  ) {}

  /** How many keys are tracked now (never more than the bound). */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string): WindowCount {
    const now = this.clock().getTime();
    let window = this.windows.get(key);
    if (!window || now - window.start >= QUOTA_WINDOW_MS) {
      this.windows.delete(key);
      this.shed(now);
      window = { key, start: now, count: 0 };
      this.windows.set(key, window);
      this.started.push(window);
    }
    window.count++;
    return { count: window.count, resetInMs: window.start + QUOTA_WINDOW_MS - now };
  }

  peek(key: string): WindowCount {
    const now = this.clock().getTime();
    const window = this.windows.get(key);
    if (!window || now - window.start >= QUOTA_WINDOW_MS) return { count: 0, resetInMs: 0 };
    return { count: window.count, resetInMs: window.start + QUOTA_WINDOW_MS - now };
  }

  refund(key: string): void {
    const window = this.windows.get(key);
    if (window && this.clock().getTime() - window.start < QUOTA_WINDOW_MS && window.count > 0) window.count--;
  }

  close(): Promise<void> {
    this.windows.clear();
    this.started.length = 0;
    this.head = 0;
    return Promise.resolve();
  }

  /** Drops expired windows from the head, then the oldest live ones until there is room for one more. */
  private shed(now: number): void {
    while (this.head < this.started.length) {
      const oldest = this.started[this.head] as Window;
      // A window whose key has started a newer one is only a stale entry of the queue.
      const tracked = this.windows.get(oldest.key) === oldest;
      if (tracked && now - oldest.start < QUOTA_WINDOW_MS && this.windows.size < this.maxKeys) break;
      if (tracked) this.windows.delete(oldest.key);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.started.length) {
      this.started.splice(0, this.head);
      this.head = 0;
    }
  }
}
