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

export interface BufferedLogDestinationOptions {
  /** A file descriptor (1: stdout) or a file path. */
  dest: number | string;
  /** Told how many lines were dropped because the backlog was full. */
  onDrop: (lines: number) => void;
  /** Defaults to LOG_BACKLOG_LIMIT_BYTES (tests lower it). */
  backlogLimitBytes?: number;
}

/**
 * Where the service's log lines go: pino's asynchronous destination (sonic-boom), buffered. Lines are
 * written in chunks of LOG_BUFFER_BYTES, by libuv's threads, and at least every LOG_FLUSH_INTERVAL_MS;
 * pino writes what is still buffered when the process exits. A SIGKILL loses what is buffered: under
 * 4 KiB, a quarter of a second of lines at most, unless the output had stalled.
 *
 * Measured with `npm run bench` against pino's transport thread, which took every line to a worker
 * thread through a shared buffer and a wake-up each: 8–10 % less CPU per request in all (v2 0.184 →
 * 0.165 ms, token API 0.079 → 0.072 ms), the same on the event loop.
 */
export function bufferedLogDestination(options: BufferedLogDestinationOptions) {
  const destination = pino.destination({
    dest: options.dest,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    maxLength: options.backlogLimitBytes ?? LOG_BACKLOG_LIMIT_BYTES,
  });
  // A dropped write may hold a turn's lines (turnBatched below): they are counted one by one.
  destination.on('drop', (data: string) => options.onDrop(lineCount(data)));
  return destination;
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
