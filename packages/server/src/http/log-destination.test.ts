import { execFileSync } from 'node:child_process';
import fs, { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LOG_BUFFER_BYTES,
  type LogOutputOptions,
  logOutput,
  turnBatched,
  writeHeldLines,
} from './log-destination.js';

const line = (n: number) => `${JSON.stringify({ level: 30, n, msg: 'request completed' })}\n`;

/** Resolves once `check` holds, polling; rejects after `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the log output', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });
  const tempPath = (name: string) => {
    const directory = mkdtempSync(join(tmpdir(), 'log-destination-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    return join(directory, name);
  };
  /** A file opened for appending, as a shell's `>>` gives it. */
  const openFile = (path: string) => openSync(path, 'a');
  /** A pipe whose reader reads only when asked: a log collector, stalled until then. */
  const openPipe = () => {
    const fifo = tempPath('collector.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    return { reader, writer };
  };
  const output = (options: LogOutputOptions) => {
    const opened = logOutput(options);
    cleanups.push(() => opened.destroy());
    return opened;
  };

  it('gathers lines for a file into chunks, writing a lone line once no more come (the flush timer)', async () => {
    const path = tempPath('service.log');
    output({ fd: openFile(path), onDrop: () => {} }).write(line(1));
    expect(readFileSync(path, 'utf8')).toBe('');
    await eventually(() => readFileSync(path, 'utf8') === line(1), 60_000);
  });

  it('writes a full chunk to a file at once, on the event loop, without waiting for the timer', () => {
    const path = tempPath('service.log');
    const destination = output({ fd: openFile(path), onDrop: () => {} });
    const asyncWrites = vi.spyOn(fs, 'write');
    cleanups.push(() => asyncWrites.mockRestore());

    let text = '';
    for (let n = 0; text.length < LOG_BUFFER_BYTES; n++) {
      expect(readFileSync(path, 'utf8')).toBe('');
      text += line(n);
      destination.write(line(n));
    }
    // Written within the last write() call: in the file before it returned, no libuv thread asked.
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(asyncWrites).not.toHaveBeenCalled();
  });

  it('writes to a pipe at once, line by line, without buffering', () => {
    const { reader, writer } = openPipe();
    cleanups.push(() => closeSync(reader));
    output({ fd: writer, onDrop: () => {} }).write(line(1));
    const chunk = Buffer.alloc(1024);
    expect(chunk.toString('utf8', 0, readSync(reader, chunk))).toBe(line(1));
  });

  it('drops and counts lines while a pipe takes nothing, and writes the rest whole once it does', async () => {
    const { reader, writer } = openPipe();
    cleanups.push(() => closeSync(reader));
    let dropped = 0;
    const destination = output({
      fd: writer,
      onDrop: (count) => {
        dropped += count;
      },
      backlogLimitBytes: 64 * 1024,
    });

    // Far more than the pipe (64 KiB on Linux) and the backlog hold together.
    const lines = 20_000;
    for (let n = 0; n < lines; n++) destination.write(line(n));
    expect(dropped).toBeGreaterThan(0);

    // The collector reads again: everything not dropped arrives, as whole lines, in order.
    const expectedLines = lines - dropped;
    const received = await readLines(reader, expectedLines);
    const numbers = received
      .trimEnd()
      .split('\n')
      .map((text) => (JSON.parse(text) as { n: number }).n);
    expect(numbers).toHaveLength(expectedLines);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers[0]).toBe(0);
  });

  it('goes on when the collector is gone: the error said once, every line after it dropped and counted', async () => {
    const { reader, writer } = openPipe();
    let dropped = 0;
    const errors: Error[] = [];
    const destination = output({
      fd: writer,
      onDrop: (count) => {
        dropped += count;
      },
      onError: (error) => errors.push(error),
    });
    destination.write(line(1));
    closeSync(reader);

    destination.write(line(2) + line(3));
    await eventually(() => errors.length > 0, 60_000);
    destination.write(line(4));
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EPIPE']);
    expect(dropped).toBe(3);
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
  });

  it('goes on when a file refuses every write (a full disk): the error said once, lines held up to the limit, then dropped and counted', () => {
    let dropped = 0;
    const errors: Error[] = [];
    const destination = output({
      fd: openSync('/dev/full', 'w'),
      onDrop: (count) => {
        dropped += count;
      },
      onError: (error) => errors.push(error),
      backlogLimitBytes: 16 * 1024,
    });
    const lines = 1_000; // about 45 KiB
    for (let n = 0; n < lines; n++) destination.write(line(n));
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThan(lines);
  });
});

describe('the lines of one turn, written as one', () => {
  const target = () => {
    const writes: string[] = [];
    const calls: string[] = [];
    return {
      writes,
      calls,
      write: (text: string) => writes.push(text),
      flush: (callback?: (error?: Error | null) => void) => {
        calls.push('flush');
        callback?.();
      },
      flushSync: () => calls.push('flushSync'),
    };
  };

  it('hands the lines of a turn over once, in order, after the turn', async () => {
    const out = target();
    const destination = turnBatched(out);
    destination.write(line(1));
    destination.write(line(2));
    destination.write(line(3));
    expect(out.writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual([line(1) + line(2) + line(3)]);

    destination.write(line(4));
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual([line(1) + line(2) + line(3), line(4)]);
  });

  it('writes what the turn holds at once when flushed, then flushes its target', async () => {
    const out = target();
    const destination = turnBatched(out);
    destination.write(line(1));
    const flushed = new Promise((resolve) => destination.flush(resolve));
    expect(out.writes).toEqual([line(1)]);
    await flushed;
    expect(out.calls).toEqual(['flush']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual([line(1)]);
  });

  it('writes what it holds synchronously when the process exits, and flushes its target synchronously', () => {
    const out = target();
    const destination = turnBatched(out);
    destination.write(line(1));
    destination.write(line(2));
    writeHeldLines();
    expect(out.writes).toEqual([line(1) + line(2)]);
    expect(out.calls).toEqual(['flushSync']);
  });

  it('counts every line of a dropped write', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'log-destination-')), 'collector.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    let dropped = 0;
    const destination = logOutput({
      fd: openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK),
      onDrop: (count) => {
        dropped += count;
      },
      backlogLimitBytes: 64 * 1024,
    });
    const batched = turnBatched(destination);
    // Turns of 100 lines, far more than the pipe and the backlog hold together.
    let written = 0;
    for (let turn = 0; turn < 100; turn++) {
      for (let n = 0; n < 100; n++) batched.write(line(written++));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(dropped).toBeGreaterThan(100);
    expect(dropped % 100).toBe(0);
    // Destroyed only once the pipe took the rest: what it still held would be lost.
    await readLines(reader, written - dropped);
    destination.destroy();
    closeSync(reader);
    rmSync(join(fifo, '..'), { recursive: true, force: true });
  });
});

/** Reads a non-blocking pipe until it has given `count` whole lines; their text. */
async function readLines(reader: number, count: number): Promise<string> {
  let received = '';
  const chunk = Buffer.alloc(64 * 1024);
  const drain = () => {
    for (;;) {
      try {
        const bytes = readSync(reader, chunk);
        if (bytes === 0) return;
        received += chunk.toString('utf8', 0, bytes);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return;
        throw error;
      }
    }
  };
  await eventually(() => {
    drain();
    return received.split('\n').length - 1 >= count;
  }, 60_000);
  return received;
}
