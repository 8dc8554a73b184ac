import { afterEach, describe, expect, it } from 'vitest';
import { ThreadChannel } from './thread-channel.js';

/** A thread as the database threads are built (answerRequests), run from its source like them. */
const ECHO_THREAD = '../../test-support/echo-thread.js';

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
});
