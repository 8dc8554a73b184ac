import { fstatSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import pino from 'pino';

/** Log bytes gathered before one write: under load, one write for a dozen request lines, not one each. */
export const LOG_BUFFER_BYTES = 4096;

/** The longest a line waits in the buffer when traffic is low. */
export const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * The most log bytes held while the output does not take them (a stalled log collector, a full pipe).
 * Past it, lines are dropped and counted instead of filling memory or stopping the event loop.
 */
export const LOG_BACKLOG_LIMIT_BYTES = 16 * 1024 * 1024;

/** Where turnBatched's lines go (logOutput), and how to let go of its descriptor (tests do). */
export interface LogOutput extends BatchTarget {
  flush(callback?: (error?: Error | null) => void): void;
  destroy(): void;
}

export interface LogOutputOptions {
  /** The open descriptor the lines go to (1: stdout). */
  fd: number;
  /** Told how many lines were dropped: the backlog was full, or the output failed. */
  onDrop: (lines: number) => void;
  /** Told of the first error the output gives; the service goes on, and the lines lost are counted. */
  onError?: (error: Error) => void;
  /** Defaults to LOG_BACKLOG_LIMIT_BYTES (tests lower it). */
  backlogLimitBytes?: number;
}

/**
 * Where the service's log lines go, written the way the output takes them without a thread's help
 * (docs/design.md, "Logs"):
 *
 * - **A pipe or a socket** (a log collector: Docker, journald, `| tee`) may stop reading. Lines are written
 *   at once, without blocking, as Node writes to its stdout: what the pipe does not take waits in memory
 *   and goes when it drains, up to the backlog limit, past which lines are dropped and counted.
 * - **A file, `/dev/null` or a terminal** takes a write at once. Lines are gathered into chunks of
 *   LOG_BUFFER_BYTES, written synchronously, and at least every LOG_FLUSH_INTERVAL_MS (pino's destination
 *   in its synchronous mode). A SIGKILL loses what is buffered: under 4 KiB, a quarter of a second of lines
 *   at most.
 *
 * Neither hands a write to libuv's threads, as pino's asynchronous destination did: the hand-off of each
 * 4 KiB chunk cost more than the write itself (docs/performance.md, "The log's writes"). A failing output never stops the service: a collector gone fails its stream, whose lines are
 * dropped and counted from then on; a file that refuses a write (a full disk) keeps the chunk and tries it
 * again with the next, its lines waiting up to the backlog limit.
 */
export function logOutput(options: LogOutputOptions): LogOutput {
  const stats = fstatSync(options.fd);
  return stats.isFIFO() || stats.isSocket() ? streamOutput(options) : bufferedOutput(options);
}

function streamOutput(options: LogOutputOptions): LogOutput {
  const limit = options.backlogLimitBytes ?? LOG_BACKLOG_LIMIT_BYTES;
  // stdout's own stream when it is stdout: two handles on one descriptor would share its poll registration.
  const stream = options.fd === 1 ? process.stdout : new Socket({ fd: options.fd, readable: false });
  // A failed stream is done (a collector gone does not come back on the same pipe): what it still held is
  // lost, each write saying so to its callback, and nothing more is written to it.
  let failed = false;
  stream.on('error', (error) => {
    if (failed) return;
    failed = true;
    options.onError?.(error);
  });
  return {
    write(text: string): void {
      if (failed || stream.destroyed || stream.writableLength + text.length > limit) {
        options.onDrop(lineCount(text));
        return;
      }
      stream.write(text, (error) => {
        if (error) options.onDrop(lineCount(text));
      });
    },
    flush(callback?: (error?: Error | null) => void): void {
      if (failed || stream.destroyed || stream.writableLength === 0) {
        callback?.();
        return;
      }
      // Drained, or closed by a failure: either way nothing more will be written.
      const settle = () => {
        stream.off('drain', settle);
        stream.off('close', settle);
        callback?.();
      };
      stream.on('drain', settle);
      stream.on('close', settle);
    },
    destroy: () => stream.destroy(),
  };
}

function bufferedOutput(options: LogOutputOptions): LogOutput {
  const destination = pino.destination({
    dest: options.fd,
    sync: true,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    maxLength: options.backlogLimitBytes ?? LOG_BACKLOG_LIMIT_BYTES,
  });
  // A dropped write may hold a turn's lines (turnBatched below): they are counted one by one.
  destination.on('drop', (data: string) => options.onDrop(lineCount(data)));
  // A failed write keeps its chunk, tried again with the next one (a disk given space again takes it);
  // meanwhile the backlog fills and drops.
  let reported = false;
  let failing = false;
  destination.on('write', () => {
    failing = false;
  });
  destination.on('error', (error: Error) => {
    failing = true;
    if (reported) return;
    reported = true;
    options.onError?.(error);
  });
  return {
    write: (text) => destination.write(text),
    flush: (callback) => destination.flush(callback),
    // At exit. pino's destination retries a failing write there forever, asleep (sonic-boom's flushSync
    // on ENOSPC or EIO): so one ordinary write first, and the rest only if the output took it.
    flushSync() {
      destination.flush();
      if (!failing) destination.flushSync();
    },
    destroy: () => destination.destroy(),
  };
}

/**
 * Says on stderr, once, that stdout stopped taking log lines: the log cannot say it of itself. Written
 * synchronously and never thrown from: stderr may be gone too.
 */
export function reportLogOutputFailure(error: Error): void {
  try {
    writeSync(
      2,
      `poker-launch: stdout failed (${error.message}); log lines it does not take are dropped and counted in poker_launch_log_lines_dropped_total\n`,
    );
  } catch {
    // Nowhere left to say it; the metric still counts.
  }
}

function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return Math.max(lines, 1);
}

/** What turnBatched writes to: pino's destination (or any stream taking a string). */
export interface BatchTarget {
  write(text: string): unknown;
  flush?(callback?: (error?: Error | null) => void): void;
  flushSync?(): void;
}

/** The destinations still holding lines of the current turn, written out if the process exits first. */
const holding = new Set<() => void>();
process.on('exit', writeHeldLines);

/** Writes, synchronously, every line a turnBatched destination still holds (at exit). */
export function writeHeldLines(): void {
  for (const atExit of holding) atExit();
}

/**
 * The lines of one turn of the event loop handed over as one string, at the end of the turn
 * (`setImmediate`), instead of one write each. Every launch writes its `request completed` line when its
 * answer is sent, all of a commit's answers in one turn, and pino's destination costs per call (it adds
 * the line to its chunk and measures the chunk again): 25 lines a turn, as at 50 connections, cost it
 * 6.5 µs a line one by one and 2.1 µs as one string (node, 300,000 lines, docs/performance.md). It also
 * moves that work after the session writer's next batch, which leaves at a `setImmediate` queued before.
 * Lines keep their order; a process that exits writes what the turn held first (a SIGKILL loses it).
 */
export function turnBatched(target: BatchTarget) {
  let lines: string[] = [];
  function writeOut(): void {
    holding.delete(atExit);
    if (lines.length === 0) return;
    const text = lines.length === 1 ? (lines[0] as string) : lines.join('');
    lines = [];
    target.write(text);
  }
  function atExit(): void {
    writeOut();
    try {
      target.flushSync?.();
    } catch {
      // The output is closed or not open yet: nothing more can be written.
    }
  }
  return {
    write(line: string): void {
      if (lines.length === 0) {
        holding.add(atExit);
        setImmediate(writeOut);
      }
      lines.push(line);
    },
    flush(callback?: (error?: Error | null) => void): void {
      writeOut();
      if (target.flush) target.flush(callback);
      else callback?.();
    },
  };
}
