import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SenderThread } from './send-jobs.js';
import { RESPONSE_BODY_LIMIT, WebhookSender } from './webhook-sender.js';

const run = promisify(execFile);

describe('the webhook sender', () => {
  const servers: Server[] = [];
  const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('reads at most 4 KiB of an answer: an endless body does not hold it up', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200);
      const chunk = 'x'.repeat(1024);
      const timer = setInterval(() => response.write(chunk), 1);
      response.on('close', () => clearInterval(timer));
    });
    const outcome = await sender.send(url, {}, '{}');
    // Reading to the end would have met the 5 s timeout instead.
    expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
    expect(outcome.kind === 'answered' && outcome.body.length).toBe(RESPONSE_BODY_LIMIT);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    let followed = false;
    const target = await listen((_request, response) => {
      followed = true;
      response.writeHead(204).end();
    });
    const url = await listen((_request, response) => response.writeHead(307, { location: target }).end());
    expect(await sender.send(url, {}, '{}')).toMatchObject({ kind: 'answered', status: 307 });
    expect(followed).toBe(false);
  });

  // Two endpoints of one receiver: by path (a hosted webhook inbox serves many integrators), or at the very
  // same URL (two clients of one integrator). The one that never answers has as many requests in flight
  // as an endpoint has connections: shared, none would be left for the other.
  it.each([
    ['on the same origin', '/hanging', '/fine'],
    ['at the same URL', '/hooks', '/hooks'],
  ])(
    "keeps an endpoint that never answers from holding up another endpoint's requests %s",
    async (_, stalled, fine) => {
      const origin = await listen((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          if (request.url !== '/hanging' && body !== '{"hang":true}') response.writeHead(204).end();
        });
      });
      const shared = new WebhookSender({ allowPrivate: true, timeoutMs: 1500, connections: 4 });
      const items = (count: number, body: string) =>
        Array.from({ length: count }, () => ({ body, headers: () => ({}) }));
      try {
        const hanging = shared.sendAll(`${origin}${stalled}`, items(8, '{"hang":true}'), 4, 'endpoint-a');
        await new Promise((resolve) => setTimeout(resolve, 100));
        const started = Date.now();
        const answered = await shared.sendAll(`${origin}${fine}`, items(4, '{}'), 4, 'endpoint-b');
        expect(answered).toEqual(
          Array.from({ length: 4 }, () => ({
            kind: 'answered',
            status: 204,
            retryAfter: undefined,
            body: '',
          })),
        );
        expect(Date.now() - started).toBeLessThan(1000);
        expect((await hanging).map((outcome) => outcome.kind)).toEqual(Array(8).fill('failed'));
      } finally {
        await shared.close();
      }
    },
  );

  it("keeps them apart through the sender thread too: a batch's endpoint id chooses its connections", async () => {
    // Endpoint a's requests hang until the test lets them go; b's are answered at once. Sharing a's
    // four connections, b's batch could not finish before a's: it waits for nothing but its own answers.
    const held: ServerResponse[] = [];
    const url = await listen((request, response) => {
      if (String(request.headers['webhook-id']).startsWith('hang')) held.push(response);
      else response.writeHead(204).end();
    });
    const thread = new SenderThread({ allowPrivate: true, timeoutMs: 60_000, concurrency: 4, nice: 0 });
    const batch = (endpoint: string, prefix: string, count: number) => ({
      endpoint,
      url: `${url}/hooks`,
      secrets: ['whsec_c2VjcmV0'],
      ids: Array.from({ length: count }, (_, index) => `${prefix}-${index}`),
      bodies: Array.from({ length: count }, () => '{}'),
    });
    try {
      let hangingDone = false;
      const hanging = thread.sendAll(batch('endpoint-a', 'hang', 8)).finally(() => {
        hangingDone = true;
      });
      await vi.waitFor(() => expect(held).toHaveLength(4), { timeout: 10_000 });
      let deadline: NodeJS.Timeout | undefined;
      const fine = await Promise.race([
        thread.sendAll(batch('endpoint-b', 'fine', 4)),
        new Promise<'stuck'>((resolve) => {
          deadline = setTimeout(() => resolve('stuck'), 20_000);
        }),
      ]);
      clearTimeout(deadline);
      expect(fine === 'stuck' ? fine : fine.map((outcome) => outcome.kind)).toEqual(
        Array(4).fill('answered'),
      );
      expect(hangingDone).toBe(false);
      expect(held).toHaveLength(4);
      // Let a's go, and the four queued behind them.
      const release = setInterval(() => {
        for (const response of held.splice(0)) response.writeHead(204).end();
      }, 20);
      await hanging;
      clearInterval(release);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('refuses a private address unless allowed, without connecting', async () => {
    let connected = false;
    const url = await listen((_request, response) => {
      connected = true;
      response.writeHead(204).end();
    });
    const guarded = new WebhookSender({ allowPrivate: false, timeoutMs: 5000 });
    expect(await guarded.send(url, {}, '{}')).toMatchObject({ kind: 'failed', refused: true });
    expect(await guarded.send(url.replace('127.0.0.1', 'localhost'), {}, '{}')).toMatchObject({
      kind: 'failed',
      refused: true,
    });
    expect(connected).toBe(false);
    await guarded.close();
  });
});

describe('the webhook sender on kept-alive connections', () => {
  const sockets: Socket[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  /** A raw TCP server: `answer` gets each request of a connection as it is read, and writes what it likes. */
  const rawServer = async (answer: (socket: Socket, request: string, index: number) => void) => {
    const server = createNetServer((socket) => {
      sockets.push(socket);
      let buffer = '';
      let index = 0;
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          const head = buffer.indexOf('\r\n\r\n');
          if (head < 0) return;
          const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0);
          if (buffer.length < head + 4 + length) return;
          const request = buffer.slice(0, head + 4 + length);
          buffer = buffer.slice(head + 4 + length);
          answer(socket, request, index++);
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const socket of sockets.splice(0)) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?x=1`;
  };
  const items = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      body: JSON.stringify({ index }),
      headers: () => ({ 'webhook-id': `msg_${index}` }),
    }));

  it('sends a batch on `concurrency` connections, one request at a time on each, and keeps them', async () => {
    const seen: string[] = [];
    const requests: string[] = [];
    let connections = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    // Answers wait until 16 requests are in flight at once (or 2 s, if the sender never gets there):
    // what is asserted is the sender's concurrency, not how fast a loaded machine opens 16 sockets.
    let allInFlight: () => void = () => {};
    const sixteenInFlight = Promise.race([
      new Promise<void>((resolve) => {
        allInFlight = resolve;
      }),
      new Promise<void>((resolve) => setTimeout(resolve, 2000).unref()),
    ]);
    const url = await rawServer((socket, request, index) => {
      if (index === 0) connections++;
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (inFlight === 16) allInFlight();
      seen.push(/webhook-id: (\S+)/.exec(request)?.[1] ?? '');
      requests.push(request);
      // 200-203: statuses with a body (not 204 or 205).
      const item = Number(/"index":(\d+)/.exec(request)?.[1]);
      const status = 200 + (item % 4);
      void sixteenInFlight.then(() =>
        setTimeout(() => {
          inFlight--;
          // Chunked (split across writes) and length-delimited bodies.
          if (item % 2 === 0) {
            socket.write(`HTTP/1.1 ${status} OK\r\ntransfer-encoding: chunked\r\n`);
            socket.write('retry-after: 7\r\n\r\n3\r\nab');
            socket.write('c\r\n0\r\n\r\n');
          } else socket.write(`HTTP/1.1 ${status} OK\r\ncontent-length: 2\r\n\r\nok`);
        }, 2),
      );
    });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
    try {
      for (const round of [0, 1]) {
        const outcomes = await sender.sendAll(url, items(64), 16);
        expect(outcomes.map((outcome) => outcome.kind === 'answered' && outcome.status)).toEqual(
          Array.from({ length: 64 }, (_, index) => 200 + (index % 4)),
        );
        expect(outcomes.filter((outcome) => outcome.kind === 'answered' && outcome.body === 'abc')).toEqual(
          Array.from({ length: 32 }, () => expect.objectContaining({ retryAfter: '7' })),
        );
        expect(connections, `round ${round}`).toBe(16);
      }
      for (const request of requests) {
        expect(request).toMatch(/^POST \/hooks\?x=1 HTTP\/1\.1\r\n/);
        expect(request).toMatch(/\r\nhost: 127\.0\.0\.1:\d+\r\n/);
        expect(request).toMatch(/\r\ncontent-type: application\/json\r\n/);
        expect(request).toMatch(/\r\ncontent-length: \d+\r\n/);
      }
      expect(mostInFlight).toBe(16);
      expect(new Set(seen).size).toBe(64);
      expect(seen).toHaveLength(128);
    } finally {
      await sender.close();
    }
  });

  it('opens a new connection after one the server closes, said or not, and reads a body up to its end', async () => {
    const closing = await rawServer((socket) => {
      socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n');
    });
    // HTTP/1.0 without keep-alive: the body ends with the connection.
    const http10 = await rawServer((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\nfine'));
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
    try {
      expect(await sender.sendAll(closing, items(8), 2)).toEqual(
        Array.from({ length: 8 }, () => ({ kind: 'answered', status: 204, retryAfter: undefined, body: '' })),
      );
      expect(await sender.sendAll(http10, items(6), 2)).toEqual(
        Array.from({ length: 6 }, () => ({
          kind: 'answered',
          status: 200,
          retryAfter: undefined,
          body: 'fine',
        })),
      );
    } finally {
      await sender.close();
    }
  });

  it('fails a request whose connection ends or hangs before its answer, and not the others', async () => {
    const url = await rawServer((socket, request) => {
      // The second item's connection ends before its answer.
      if (request.includes('"index":1')) socket.destroy();
      else socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 300 });
    try {
      expect(await sender.sendAll(url, items(3), 1)).toEqual([
        { kind: 'answered', status: 204, retryAfter: undefined, body: '' },
        { kind: 'failed', error: 'other side closed', refused: false },
        { kind: 'answered', status: 204, retryAfter: undefined, body: '' },
      ]);
      // The second item is never answered.
      const hanging = await rawServer((socket, request) => {
        if (request.includes('"index":0')) socket.write('HTTP/1.1 500 Oops\r\ncontent-length: 4\r\n\r\noops');
      });
      expect(await sender.sendAll(hanging, items(2), 1)).toEqual([
        { kind: 'answered', status: 500, retryAfter: undefined, body: 'oops' },
        { kind: 'failed', error: 'no answer within 0.3 s', refused: false },
      ]);
      const garbled = await rawServer((socket) => socket.write('SMTP ready\r\n\r\n'));
      expect(await sender.send(garbled, {}, '{}')).toEqual({
        kind: 'failed',
        error: expect.stringContaining('does not match the HTTP/1.1 protocol'),
        refused: false,
      });
    } finally {
      await sender.close();
    }
  });

  it("gives a connection as long as the timeout asks, past undici's own 10 s: a TLS handshake never answered", async () => {
    // Accepts the connection and never answers the TLS ClientHello.
    const url = (await rawServer(() => {})).replace('http:', 'https:');
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 12_000 });
    try {
      expect(await sender.send(url, {}, '{}')).toEqual({
        kind: 'failed',
        error: 'no answer within 12 s',
        refused: false,
      });
    } finally {
      await sender.close();
    }
  }, 20_000);

  it('checks the certificate of an https endpoint: a self-signed one is a failed attempt, nothing sent', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'webhook-sender-tls-'));
    try {
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(folder, 'key.pem'),
        '-out',
        join(folder, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]);
      let received = 0;
      const server = createHttpsServer(
        { key: await readFile(join(folder, 'key.pem')), cert: await readFile(join(folder, 'cert.pem')) },
        (_request, response) => {
          received++;
          response.writeHead(204).end();
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => server.close(() => resolve())));
      const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
      try {
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
        expect(await sender.sendAll(url, items(2), 2)).toEqual([
          { kind: 'failed', error: 'self-signed certificate', refused: false },
          { kind: 'failed', error: 'self-signed certificate', refused: false },
        ]);
        expect(received).toBe(0);
      } finally {
        await sender.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
