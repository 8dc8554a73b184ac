import type { LaunchAttempt } from './launch-attempt.js';

export interface ActivityRecorderOptions {
  /** Writes one batch; resolves once it is committed. */
  write(attempts: readonly LaunchAttempt[]): Promise<void>;
  /** Attempts held at most; past it, new ones are dropped (counted) rather than memory growing. */
  capacity?: number;
  /** Most attempts one write takes. */
  batchSize?: number;
  /** How long an attempt waits at most before its batch is written. */
  flushIntervalMs?: number;
  onDrop?(count: number): void;
  onWriteError?(error: unknown): void;
  /** A write committed (after failures: the database is back). */
  onWritten?(): void;
}

const CAPACITY = 20_000;
const BATCH_SIZE = 1000;
const FLUSH_INTERVAL_MS = 1000;

/**
 * Launch attempts, recorded without slowing the launch: a request only appends to an array; a timer
 * writes what gathered, in batches, off the request path (on SQLite through the session writer's
 * thread, so no fsync blocks the event loop). The price: a crash loses the attempts of the last second
 * or so (docs/console.md). A database that is away keeps attempts waiting, up to `capacity`; past it,
 * new ones are dropped and counted.
 */
export class ActivityRecorder {
  private buffer: LaunchAttempt[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private readonly capacity: number;
  private readonly batchSize: number;

  constructor(private readonly options: ActivityRecorderOptions) {
    this.capacity = options.capacity ?? CAPACITY;
    this.batchSize = options.batchSize ?? BATCH_SIZE;
  }

  record(attempt: LaunchAttempt): void {
    if (this.buffer.length >= this.capacity) {
      this.options.onDrop?.(1);
      return;
    }
    this.buffer.push(attempt);
    this.schedule();
  }

  /** Writes everything held now (and waits for a write in progress); failures are reported, not thrown. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.buffer.length === 0) return;
    this.writing = this.writeHeld().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /** Stops the timer and writes what is held. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** A write within the interval, unless one is planned already; the timer never keeps a process alive. */
  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushIntervalMs ?? FLUSH_INTERVAL_MS).unref();
  }

  private async writeHeld(): Promise<void> {
    const held = this.buffer;
    this.buffer = [];
    for (let start = 0; start < held.length; start += this.batchSize) {
      const batch = held.slice(start, start + this.batchSize);
      try {
        await this.options.write(batch);
      } catch (error) {
        this.options.onWriteError?.(error);
        // Kept for the next flush (the database may be back), as far as the capacity allows.
        const unwritten = held.slice(start);
        const room = Math.max(0, this.capacity - this.buffer.length);
        if (unwritten.length > room) this.options.onDrop?.(unwritten.length - room);
        this.buffer = [...unwritten.slice(0, room), ...this.buffer];
        this.schedule();
        return;
      }
    }
    this.options.onWritten?.();
  }
}
