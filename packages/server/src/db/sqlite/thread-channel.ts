import { type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * What crosses between the event loop and a database thread: JSON text both ways. Serialising plain
 * data as JSON costs the event loop less than the structured clone of the same objects, and the
 * parsing of a request happens in the thread, off the event loop.
 */
interface ThreadRequest {
  id: number;
  payload: string;
  /** `Date.now()` when the work began waiting (the caller's queue included), if the caller says. */
  since?: number | undefined;
}

type ThreadReply =
  | { id: number; result: string }
  | { id: number; error: { message: string; code?: string | undefined } };

/**
 * Requests to a worker thread that owns a database connection, each answered in turn. The thread is
 * started on first use and again after it died; the requests it held fail with the reason.
 */
export class ThreadChannel {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (reply: ThreadReply) => void>();
  private nextId = 1;

  /**
   * @param file the thread's module, next to `from`
   * @param from `import.meta.url` of the module that names it
   */
  constructor(
    private readonly file: string,
    private readonly from: string,
    private readonly workerData: unknown,
  ) {}

  /**
   * Sends `payload` (JSON text) to the thread; resolves with its answer, or rejects with its error.
   * `since`: when the work began waiting, for a thread that bounds the wait (answerQueuedRequestsTogether).
   */
  request(payload: string, since?: number): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => {
        if ('error' in reply)
          reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
        else resolve(reply.result);
      });
      this.thread().postMessage({ id, payload, since } satisfies ThreadRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadModule(this.file, this.from), { workerData: this.workerData });
    worker.on('message', (reply: ThreadReply) => {
      const settle = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      settle?.(reply);
    });
    const stopped = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, settle] of this.pending) settle({ id, error: { message: error.message } });
      this.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`a database thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/**
 * The thread's side: answers each request with `handle(payload)`, or with the error it threw (an
 * Error does not survive the copy: its message and SQLite code do).
 */
export function answerRequests(port: MessagePort | null, handle: (payload: string) => string): MessagePort {
  if (port === null) throw new Error('a database thread runs as a worker thread');
  port.on('message', ({ id, payload }: ThreadRequest) => {
    let reply: ThreadReply;
    try {
      reply = { id, result: handle(payload) };
    } catch (error) {
      reply = errorReply(id, error);
    }
    port.postMessage(reply);
  });
  return port;
}

/**
 * The thread's side, for work that costs less done together (the session writer: one transaction and one
 * fsync for all): the requests that queued while the thread was busy, up to about `maxChars` of payload,
 * go to one call of `handleAll`, which answers each of them in order; if it throws, each gets the error.
 * It is also told when the oldest of them began waiting (`since`; now if none says). The thread takes the
 * next work the moment it is free, without waiting for the event loop to send it.
 */
export function answerQueuedRequestsTogether(
  port: MessagePort | null,
  handleAll: (payloads: readonly string[], since: number) => string[],
  maxChars: number,
): MessagePort {
  if (port === null) throw new Error('a database thread runs as a worker thread');
  port.on('message', (first: ThreadRequest) => {
    const requests = [first];
    let chars = first.payload.length;
    while (chars < maxChars) {
      const queued = receiveMessageOnPort(port);
      if (queued === undefined) break;
      const request = queued.message as ThreadRequest;
      requests.push(request);
      chars += request.payload.length;
    }
    let since = Date.now();
    for (const request of requests)
      if (request.since !== undefined && request.since < since) since = request.since;
    let results: string[];
    try {
      results = handleAll(
        requests.map(({ payload }) => payload),
        since,
      );
    } catch (error) {
      for (const { id } of requests) port.postMessage(errorReply(id, error));
      return;
    }
    requests.forEach(({ id }, index) => {
      const result = results[index];
      port.postMessage(
        result === undefined
          ? errorReply(id, new Error('the thread answered fewer results than it took'))
          : { id, result },
      );
    });
  });
  return port;
}

function errorReply(id: number, error: unknown): ThreadReply {
  const code = (error as { code?: unknown }).code;
  return {
    id,
    error: {
      message: error instanceof Error ? error.message : String(error),
      ...(typeof code === 'string' ? { code } : {}),
    },
  };
}

/**
 * The module a thread runs: `file` next to `from`. Built (dist/), that module itself. Run from the
 * TypeScript sources (under Vitest), its `.ts` source, compiled as it loads by module hooks the thread
 * registers first (test-support/typescript-hooks.mjs): a test runs the code under test in the thread
 * too, never an older build.
 */
function threadModule(file: string, from: string): URL {
  const url = new URL(file, from);
  if (!from.endsWith('.ts') || url.protocol !== 'file:') return url;
  const hooks = new URL('../../test-support/typescript-hooks.mjs', import.meta.url);
  const source = url.href.replace(/\.js$/, '.ts');
  const bootstrap = `import { register } from 'node:module';
    register(${JSON.stringify(hooks.href)});
    await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
