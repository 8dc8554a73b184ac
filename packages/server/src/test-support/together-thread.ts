/**
 * A thread built as the session writer's is (answerQueuedRequestsTogether), without a database
 * (thread-channel.test.ts): each answer names the requests handled with it; "refuse" fails its whole
 * group; "block" holds the thread until the test lets it go: it sets the gate's slot 1 to say it is
 * held, and waits for slot 0 to turn 1.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerQueuedRequestsTogether } from '../db/sqlite/thread-channel.js';

const gate = new Int32Array((workerData as { gate: SharedArrayBuffer }).gate);

answerQueuedRequestsTogether(
  parentPort,
  (payloads) => {
    if (payloads.includes('refuse'))
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    if (payloads.includes('block')) {
      Atomics.store(gate, 1, 1);
      Atomics.wait(gate, 0, 0);
    }
    return payloads.map((payload) => `${payload} with ${payloads.join('+')}`);
  },
  10,
);
