import { afterEach, describe, expect, it } from 'vitest';
import { ThreadChannel } from './thread-channel.js';

/** A thread as the database threads are built (answerRequests), run from its source like them. */
const ECHO_THREAD = '../../test-support/echo-thread.js';
/** One built as the session writer is (answerQueuedRequestsTogether), with 10 characters of payload at most. */
const TOGETHER_THREAD = '../../test-support/together-thread.js';

describe('a channel to a database thread', () => {
  let channel: ThreadChannel | undefined;
  afterEach(async () => {
    await channel?.close();
  });

  /**
   * A together-thread held inside a "block" request (it sets the gate's slot 1 and waits for slot 0)
   * while `payloads` are sent, so that they queue behind it; then let go.
   */
  const queuedBehindBlock = async (payloads: readonly string[]) => {
    const gate = new Int32Array(new SharedArrayBuffer(8));
    const together = new ThreadChannel(TOGETHER_THREAD, import.meta.url, { gate: gate.buffer });
    channel = together;
    expect(await together.request('up')).toBe('up with up');
    const blocked = together.request('block');
    while (Atomics.load(gate, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const queued = payloads.map((payload) => together.request(payload));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    return { together, blocked, queued };
  };

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
    const { blocked, queued } = await queuedBehindBlock(['aaaa', 'bbbb', 'cccc', 'dddd']);
    expect(await blocked).toBe('block with block');
    expect(await Promise.all(queued)).toEqual([
      'aaaa with aaaa+bbbb+cccc',
      'bbbb with aaaa+bbbb+cccc',
      'cccc with aaaa+bbbb+cccc',
      'dddd with dddd',
    ]);
  });

  it('fails every request of a group whose work threw, and goes on answering', async () => {
    const { together, blocked, queued } = await queuedBehindBlock(['ok', 'refuse']);
    await blocked;
    const settled = await Promise.allSettled(queued);
    expect(settled.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect(settled[0]).toMatchObject({ reason: { message: 'database is locked', code: 'SQLITE_BUSY' } });
    expect(await together.request('after')).toBe('after with after');
  });
});
