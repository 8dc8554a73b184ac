import { type MessagePort, Worker } from 'node:worker_threads';

/**
 * What crosses between the event loop and a database thread: JSON text both ways. Serialising plain
 * data as JSON costs the event loop less than the structured clone of the same objects, and the
 * parsing of a request happens in the thread, off the event loop.
 */
interface ThreadRequest {
  id: number;
  payload: string;
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

  /** Sends `payload` (JSON text) to the thread; resolves with its answer, or rejects with its error. */
  request(payload: string): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => {
        if ('error' in reply)
          reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
        else resolve(reply.result);
      });
      this.thread().postMessage({ id, payload } satisfies ThreadRequest);
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
      const code = (error as { code?: unknown }).code;
      reply = {
        id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          ...(typeof code === 'string' ? { code } : {}),
        },
      };
    }
    port.postMessage(reply);
  });
  return port;
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
