import { afterEach, describe, expect, it } from 'vitest';
import { ThreadChannel } from './thread-channel.js';

/** A thread as the database threads are built (answerRequests), run from its source like them. */
const ECHO_THREAD = '../../test-support/echo-thread.js';
/** One built as the session writer is (answerQueuedRequestsTogether), with 10 characters of payload at most. */
const TOGETHER_THREAD = '../../test-support/together-thread.js';

/** Resolves once the together-thread is held inside its "block" request (it set the gate's slot 1). */
async function held(gate: Int32Array): Promise<void> {
  while (Atomics.load(gate, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Lets the held together-thread go on. */
function release(gate: Int32Array): void {
  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
}

describe('a channel to a database thread', () => {
  let channel: ThreadChannel | undefined;
  afterEach(async () => {
    await channel?.close();
  });

  it('answers each request with what the thread answered, in any order of completion', async () => {
    channel = new ThreadChannel(ECHO_THREAD, import.meta.url, {});
    expect(await Promise.all(['a', 'b', 'c'].map((payload) => channel?.request(payload)))).toEqual([
      'A',
      'B',
      'C',
    ]);
  });

  it("passes the thread's error on with its message and SQLite code, and goes on answering", async () => {
    channel = new ThreadChannel(ECHO_THREAD, import.meta.url, {});
    await expect(channel.request('refuse')).rejects.toMatchObject({
      message: 'database is locked',
      code: 'SQLITE_BUSY',
    });
    expect(await channel.request('after')).toBe('AFTER');
  });

  it('fails the requests a dead thread held, and starts a new thread for the next one', async () => {
    channel = new ThreadChannel(ECHO_THREAD, import.meta.url, {});
    expect(await channel.request('before')).toBe('BEFORE');
    await expect(channel.request('die')).rejects.toThrow('a database thread stopped (exit code 3)');
    expect(await channel.request('again')).toBe('AGAIN');
  });

  it('answers the requests that queued while the thread was busy together, up to its limit, each its own', async () => {
    const gate = new Int32Array(new SharedArrayBuffer(8));
    channel = new ThreadChannel(TOGETHER_THREAD, import.meta.url, { gate: gate.buffer });
    expect(await channel.request('up')).toBe('up with up');
    const blocked = channel.request('block');
    await held(gate);
    const queued = ['aaaa', 'bbbb', 'cccc', 'dddd'].map((payload) => channel?.request(payload));
    release(gate);
    expect(await blocked).toBe('block with block');
    expect(await Promise.all(queued)).toEqual([
      'aaaa with aaaa+bbbb+cccc',
      'bbbb with aaaa+bbbb+cccc',
      'cccc with aaaa+bbbb+cccc',
      'dddd with dddd',
    ]);
  });

  it('fails every request of a group whose work threw, and goes on answering', async () => {
    const gate = new Int32Array(new SharedArrayBuffer(8));
    channel = new ThreadChannel(TOGETHER_THREAD, import.meta.url, { gate: gate.buffer });
    expect(await channel.request('up')).toBe('up with up');
    const blocked = channel.request('block');
    await held(gate);
    const queued = ['ok', 'refuse'].map((payload) => channel?.request(payload));
    release(gate);
    await blocked;
    const settled = await Promise.allSettled(queued);
    expect(settled.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect(settled[0]).toMatchObject({ reason: { message: 'database is locked', code: 'SQLITE_BUSY' } });
    expect(await channel.request('after')).toBe('after with after');
  });
});
