import { isIP, connect as netConnect, type Socket } from 'node:net';
import { createSecureContext, type SecureContext, connect as tlsConnect } from 'node:tls';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress } from './address-guard.js';

/** The most of an answer's body read: enough for an error message, not for a flood. */
export const RESPONSE_BODY_LIMIT = 4096;
/** The most an answer's status line and headers may take. */
const HEAD_LIMIT = 16 * 1024;
/** An idle connection kept for an endpoint's next batch is closed after this long unused. */
const IDLE_MS = 30_000;

export type SendOutcome =
  | { kind: 'answered'; status: number; retryAfter: string | undefined; body: string }
  | { kind: 'failed'; error: string; refused: boolean };

export interface SendOptions {
  allowPrivate: boolean;
  /** Longest a delivery may take, connection to the end of the answer (WEBHOOK_TIMEOUT). */
  timeoutMs: number;
}

/** One request of a batch: its body, and its headers made as it is written (signed then). */
export interface SendItem {
  body: string;
  headers: () => Record<string, string>;
}

interface Target {
  secure: boolean;
  host: string;
  port: number;
  /** The Host header and the request target. */
  authority: string;
  path: string;
  key: string;
}

/**
 * POSTs webhooks over HTTP/1.1 connections of its own, kept alive per endpoint (docs/design.md §11): a
 * request is one write of its head and body and its answer is read by the small reader below, about a
 * quarter of the CPU of `node:http`'s ClientRequest and agent (docs/performance.md, "Webhooks on the
 * launch path"). Redirects are not followed (a 3xx is an answer like any other non-2xx), the address
 * connected to is checked after DNS, and at most RESPONSE_BODY_LIMIT bytes of an answer are read.
 */
export class WebhookSender {
  private readonly idle = new Map<string, Socket[]>();
  private readonly dropIdle = new WeakMap<Socket, () => void>();
  /** The default CAs, loaded once rather than for every connection. */
  private secureContext: SecureContext | undefined;
  /** The last TLS session of each endpoint: a new connection resumes it instead of a full handshake. */
  private readonly tlsSessions = new Map<string, Buffer>();
  private closed = false;

  constructor(private readonly options: SendOptions) {}

  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    return this.sendAll(url, [{ body, headers: () => headers }], 1).then(
      (outcomes) => outcomes[0] as SendOutcome,
    );
  }

  /**
   * Sends every item to `url`, `concurrency` at a time, each on a kept-alive connection of its own
   * while it waits for its answer (no pipelining: docs/performance.md). The outcomes in the items' order.
   */
  async sendAll(url: string, items: readonly SendItem[], concurrency: number): Promise<SendOutcome[]> {
    const target = parseTarget(url);
    // A literal address is connected to without a lookup: checked here.
    if (!this.options.allowPrivate && isIP(target.host) !== 0 && isForbiddenAddress(target.host)) {
      const refused = failed(new ForbiddenAddressError(target.host));
      return items.map(() => refused);
    }
    const outcomes: SendOutcome[] = new Array(items.length);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const index = next++;
        outcomes[index] = await this.exchange(target, items[index] as SendItem);
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, lane));
    return outcomes;
  }

  close(): void {
    this.closed = true;
    for (const sockets of this.idle.values()) for (const socket of sockets) socket.destroy();
    this.idle.clear();
  }

  /**
   * One request and its answer, on an idle connection to the endpoint or a new one; the connection is
   * kept for the next when the answer leaves it clean and the server did not say it closes it.
   */
  private exchange(target: Target, item: SendItem): Promise<SendOutcome> {
    const socket = this.takeIdle(target) ?? this.connect(target);
    return new Promise((resolve) => {
      let answer: SendOutcome | undefined;
      const reader = new AnswerReader((read) => {
        answer = read;
      });
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('error', onError);
        socket.off('close', onClose);
        if (answer !== undefined && error === undefined && reader.idle()) this.keepIdle(target, socket);
        else socket.destroy();
        resolve(answer ?? failed(error ?? hangUp()));
      };
      const onData = (chunk: Buffer) => {
        try {
          reader.feed(chunk);
        } catch (error) {
          return finish(error as Error);
        }
        if (answer !== undefined) finish();
      };
      const onEnd = () => {
        try {
          reader.end();
        } catch (error) {
          return finish(error as Error);
        }
        finish();
      };
      const onError = (error: Error) => finish(error);
      const onClose = () => finish();
      const timer = setTimeout(
        () => finish(new Error(`no answer within ${this.options.timeoutMs / 1000} s`)),
        this.options.timeoutMs,
      );
      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('error', onError);
      socket.on('close', onClose);
      // Signed as it is written: webhook-timestamp is the time of this attempt.
      socket.write(requestText(target, item.headers(), item.body));
    });
  }

  private connect(target: Target): Socket {
    const lookup = guardedLookup(this.options.allowPrivate);
    if (target.secure) this.secureContext ??= createSecureContext();
    const socket = target.secure
      ? tlsConnect({
          host: target.host,
          port: target.port,
          lookup,
          secureContext: this.secureContext,
          session: this.tlsSessions.get(target.key),
          ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
        }).on('session', (session: Buffer) => this.tlsSessions.set(target.key, session))
      : netConnect({ host: target.host, port: target.port, lookup });
    socket.setNoDelay(true);
    // Errors are the exchange's to judge; between exchanges one must not go unheard (it would throw).
    socket.on('error', () => {});
    // The lookup chose the address; this is the last word on where the bytes go.
    socket.once('connect', () => {
      const address = socket.remoteAddress;
      if (!this.options.allowPrivate && address !== undefined && isForbiddenAddress(address)) {
        socket.destroy(new ForbiddenAddressError(address));
      }
    });
    return socket;
  }

  private takeIdle(target: Target): Socket | undefined {
    const sockets = this.idle.get(target.key);
    for (let socket = sockets?.pop(); socket !== undefined; socket = sockets?.pop()) {
      const drop = this.dropIdle.get(socket);
      if (drop !== undefined) {
        for (const event of IDLE_EVENTS) socket.off(event, drop);
      }
      socket.setTimeout(0);
      if (!socket.destroyed && socket.readyState === 'open') return socket;
      socket.destroy();
    }
    return undefined;
  }

  /** Keeps the connection for the endpoint's next batch; anything it hears while idle ends it. */
  private keepIdle(target: Target, socket: Socket): void {
    const sockets = this.idle.get(target.key) ?? [];
    if (this.closed || sockets.length >= 64) {
      socket.destroy();
      return;
    }
    const drop = () => {
      socket.destroy();
      const at = sockets.indexOf(socket);
      if (at >= 0) sockets.splice(at, 1);
    };
    this.dropIdle.set(socket, drop);
    for (const event of IDLE_EVENTS) socket.on(event, drop);
    socket.setTimeout(IDLE_MS);
    sockets.push(socket);
    this.idle.set(target.key, sockets);
  }
}

const IDLE_EVENTS = ['data', 'end', 'close', 'timeout'] as const;

function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

function parseTarget(url: string): Target {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port);
  return {
    secure,
    host,
    port,
    authority: parsed.host,
    path: `${parsed.pathname}${parsed.search}`,
    key: `${parsed.protocol}//${parsed.host}`,
  };
}

function requestText(target: Target, headers: Record<string, string>, body: string): string {
  let text = `POST ${target.path} HTTP/1.1\r\nhost: ${target.authority}\r\n`;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  return `${text}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nuser-agent: poker-launch-webhooks/1\r\n\r\n${body}`;
}

function failed(error: Error): SendOutcome {
  return {
    kind: 'failed',
    error: error.message.slice(0, 500),
    refused: error instanceof ForbiddenAddressError,
  };
}

class ProtocolError extends Error {
  constructor(message: string) {
    super(`not an HTTP/1.1 answer: ${message}`);
  }
}

/**
 * Reads an HTTP/1.x answer off a connection: the status, Retry-After and the first RESPONSE_BODY_LIMIT
 * bytes of the body (length-delimited, chunked, or up to the connection's end); 1xx answers skipped.
 */
class AnswerReader {
  private buffer: Buffer = Buffer.alloc(0);
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'to-end' =
    'head';
  private status = 0;
  private retryAfter: string | undefined;
  private parts: Buffer[] = [];
  private kept = 0;
  private remaining = 0;
  private answered = false;
  /** The server said it closes the connection after the current answer. */
  private closing = false;
  /** An answer was cut at RESPONSE_BODY_LIMIT: the connection is not kept. */
  private truncated = false;

  private answers = 0;

  constructor(private readonly onAnswer: (answer: SendOutcome) => void) {}

  /** The answer read whole, nothing after it, and the server did not say it closes the connection. */
  idle(): boolean {
    return this.state === 'head' && this.buffer.length === 0 && !this.closing && !this.truncated;
  }

  feed(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.state === 'head') {
        if (this.buffer.length === 0) return;
        if (this.answers > 0) throw new ProtocolError('more than was asked for');
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buffer.length > HEAD_LIMIT) throw new ProtocolError('headers too long');
          return;
        }
        const head = this.buffer.toString('latin1', 0, end);
        this.buffer = this.buffer.subarray(end + 4);
        this.head(head);
        continue;
      }
      if (this.state === 'length' || this.state === 'chunk-data' || this.state === 'to-end') {
        if (this.buffer.length === 0) return;
        const take =
          this.state === 'to-end' ? this.buffer.length : Math.min(this.remaining, this.buffer.length);
        this.body(this.buffer.subarray(0, take));
        this.buffer = this.buffer.subarray(take);
        if (this.state === 'to-end') return;
        this.remaining -= take;
        if (this.remaining > 0) return;
        if (this.state === 'length') this.complete();
        else this.state = 'chunk-end';
        continue;
      }
      const line = this.buffer.indexOf('\r\n');
      if (line < 0) {
        if (this.buffer.length > HEAD_LIMIT) throw new ProtocolError('chunk line too long');
        return;
      }
      const text = this.buffer.toString('latin1', 0, line);
      this.buffer = this.buffer.subarray(line + 2);
      if (this.state === 'chunk-end') {
        if (text !== '') throw new ProtocolError('chunk not ended');
        this.state = 'chunk-size';
      } else if (this.state === 'chunk-size') {
        const size = Number.parseInt(text.split(';')[0]?.trim() ?? '', 16);
        if (!Number.isSafeInteger(size) || size < 0 || !/^[0-9a-f]/i.test(text)) {
          throw new ProtocolError('bad chunk size');
        }
        if (size === 0) this.state = 'trailers';
        else {
          this.remaining = size;
          this.state = 'chunk-data';
        }
      } else if (text === '') this.complete();
    }
  }

  /** The connection ended: an answer delimited by it is complete; any other half-read one is not. */
  end(): void {
    if (this.state === 'to-end') this.complete();
    else if (this.state !== 'head' || this.buffer.length > 0) throw hangUp();
  }

  private head(head: string): void {
    const lines = head.split('\r\n');
    const match = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
    if (match === null) throw new ProtocolError('bad status line');
    const status = Number(match[2]);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new ProtocolError('bad header line');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    // 1xx (not 101, never asked for): informational, the answer follows.
    if (status >= 100 && status < 200 && status !== 101) return;
    const connection = (headers.get('connection') ?? '').toLowerCase();
    this.closing = match[1] === '0' ? !/\bkeep-alive\b/.test(connection) : /\bclose\b/.test(connection);
    this.status = status;
    this.retryAfter = headers.get('retry-after');
    this.parts = [];
    this.kept = 0;
    this.answered = false;
    const encoding = headers.get('transfer-encoding');
    const length = headers.get('content-length');
    if (status === 204 || status === 304 || status === 101) {
      this.complete();
    } else if (encoding !== undefined && /(^|,)\s*chunked\s*$/i.test(encoding)) {
      this.state = 'chunk-size';
    } else if (encoding !== undefined) {
      this.closing = true;
      this.state = 'to-end';
    } else if (length !== undefined) {
      if (!/^\d+$/.test(length)) throw new ProtocolError('bad content-length');
      this.remaining = Number(length);
      if (this.remaining === 0) this.complete();
      else this.state = 'length';
    } else {
      this.closing = true;
      this.state = 'to-end';
    }
  }

  private body(bytes: Buffer): void {
    if (this.kept < RESPONSE_BODY_LIMIT) {
      const keep = bytes.subarray(0, RESPONSE_BODY_LIMIT - this.kept);
      this.parts.push(keep);
      this.kept += keep.length;
    }
    // Enough read: answered now; the rest is not waited for (the connection is dropped, not reused).
    if (this.kept >= RESPONSE_BODY_LIMIT && !this.answered) {
      this.answered = true;
      this.truncated = true;
      this.answers++;
      this.onAnswer(this.outcome());
    }
  }

  private complete(): void {
    this.state = 'head';
    if (!this.answered) {
      this.answers++;
      this.onAnswer(this.outcome());
    }
    this.answered = false;
  }

  private outcome(): SendOutcome {
    return {
      kind: 'answered',
      status: this.status,
      retryAfter: this.retryAfter,
      body: Buffer.concat(this.parts).toString('utf8', 0, Math.min(this.kept, RESPONSE_BODY_LIMIT)),
    };
  }
}
