import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress } from './address-guard.js';

/** The most of an answer's body read: enough for an error message, not for a flood. */
export const RESPONSE_BODY_LIMIT = 4096;

export type SendOutcome =
  | { kind: 'answered'; status: number; retryAfter: string | undefined; body: string }
  | { kind: 'failed'; error: string; refused: boolean };

export interface SendOptions {
  allowPrivate: boolean;
  /** Longest a delivery may take, connection to the end of the answer (WEBHOOK_TIMEOUT). */
  timeoutMs: number;
}

/**
 * POSTs a webhook. Redirects are not followed (a 3xx is an answer like any other non-2xx), the address
 * connected to is checked after DNS, and at most RESPONSE_BODY_LIMIT bytes of the answer are read.
 */
export class WebhookSender {
  // As many connections per endpoint as the deliverer sends at once (ENDPOINT_CONCURRENCY): an attempt
  // never waits for a socket, so its timeout runs from when it is sent.
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 16 });

  constructor(private readonly options: SendOptions) {}

  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // A literal address is connected to without a lookup: checked here.
    if (!this.options.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
      return Promise.resolve(failed(new ForbiddenAddressError(host)));
    }
    const secure = target.protocol === 'https:';
    return new Promise((resolve) => {
      const request = (secure ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        lookup: guardedLookup(this.options.allowPrivate),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'poker-launch-webhooks/1',
        },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${this.options.timeoutMs / 1000} s`)),
        this.options.timeoutMs,
      );
      const settle = (outcome: SendOutcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      request.on('socket', (socket) => {
        // The lookup chose the address; this is the last word on where the bytes went.
        const check = () => {
          const address = socket.remoteAddress;
          if (!this.options.allowPrivate && address !== undefined && isForbiddenAddress(address)) {
            request.destroy(new ForbiddenAddressError(address));
          }
        };
        if (socket.connecting) socket.once('connect', check);
        else check();
      });
      request.on('error', (error) => settle(failed(error)));
      request.on('response', (response) => readAnswer(response, request.destroy.bind(request)).then(settle));
      request.end(body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

function failed(error: Error): SendOutcome {
  return {
    kind: 'failed',
    error: error.message.slice(0, 500),
    refused: error instanceof ForbiddenAddressError,
  };
}

function readAnswer(response: IncomingMessage, destroy: () => void): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () =>
      resolve({
        kind: 'answered',
        status: response.statusCode ?? 0,
        retryAfter:
          typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : undefined,
        body: Buffer.concat(chunks).toString('utf8', 0, Math.min(length, RESPONSE_BODY_LIMIT)),
      });
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      // Enough read: the rest is not waited for (the connection is dropped, not reused).
      if (length >= RESPONSE_BODY_LIMIT) {
        response.removeAllListeners('data');
        destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
  });
}
