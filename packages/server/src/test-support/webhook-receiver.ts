import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as the receiver saw it, with what the standardwebhooks package made of it. */
export interface ReceivedWebhook {
  id: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: IncomingHttpHeaders;
  /** The secrets (of those the receiver was given) whose signature the standardwebhooks package accepted. */
  verifiedWith: string[];
  status: number;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:41234/hooks */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** The secrets deliveries are verified with (the endpoint's; during a rotation, both). */
  secrets: string[];
  /** What the receiver answers the next delivery with; default 204. */
  answer: (
    webhook: Omit<ReceivedWebhook, 'status'>,
  ) => { status: number; headers?: Record<string, string>; body?: string } | 'hang';
  /** Resolves once `count` deliveries that it answered 2xx have come in; rejects after `ms`. */
  waitForDelivered(count: number, ms?: number): Promise<ReceivedWebhook[]>;
  /**
   * Drops every connection as it comes (a dead endpoint), keeping the port: released, another process
   * of a busy test run could take it and answer. `up` ends it.
   */
  down(): void;
  up(): void;
  /** Stops listening (connections dropped): deliveries meet a refused connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 that checks every delivery with the `standardwebhooks` package, the
 * Standard Webhooks reference implementation: never with the service's own signing code.
 */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  let server: Server | undefined;
  let refusing = false;
  const sockets = new Set<import('node:net').Socket>();
  const receiver: WebhookReceiver = {
    url: '',
    port,
    received: [],
    secrets: [],
    answer: () => ({ status: 204 }),
    async waitForDelivered(count, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const delivered = receiver.received.filter(
          (webhook) => webhook.status >= 200 && webhook.status < 300,
        );
        if (delivered.length >= count) return delivered;
        if (Date.now() > deadline) {
          throw new Error(`${delivered.length} of ${count} webhooks delivered in ${ms} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    down() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      refusing = false;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    async restart() {
      server = listen();
      await new Promise<void>((resolve) => server?.listen(receiver.port, '127.0.0.1', resolve));
      receiver.port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
    },
  };
  const listen = () => {
    const created = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = request.headers as Record<string, string>;
        const verifiedWith = receiver.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        const seen = {
          id: String(request.headers['webhook-id']),
          body,
          payload: JSON.parse(body),
          headers: request.headers,
          verifiedWith,
        };
        const answer = receiver.answer(seen);
        if (answer === 'hang') {
          receiver.received.push({ ...seen, status: 0 });
          return;
        }
        receiver.received.push({ ...seen, status: answer.status });
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    created.on('connection', (socket) => {
      if (refusing) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return created;
  };
  await receiver.restart();
  return receiver;
}
