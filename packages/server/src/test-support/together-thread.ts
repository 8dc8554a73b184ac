/**
 * A thread built as the session writer's is (answerQueuedRequestsTogether), without a database
 * (thread-channel.test.ts): each answer names the requests handled with it; "block" holds the thread
 * for 300 ms, "refuse" fails its whole group.
 */
import { parentPort } from 'node:worker_threads';
import { answerQueuedRequestsTogether } from '../db/sqlite/thread-channel.js';

answerQueuedRequestsTogether(
  parentPort,
  (payloads) => {
    if (payloads.includes('refuse'))
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    if (payloads.includes('block')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    return payloads.map((payload) => `${payload} with ${payloads.join('+')}`);
  },
  10,
);
