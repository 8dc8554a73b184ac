import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSE_BODY_LIMIT, WebhookSender } from './webhook-sender.js';

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
    guarded.close();
  });
});
