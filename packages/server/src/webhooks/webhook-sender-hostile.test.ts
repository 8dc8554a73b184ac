import { pbkdf2 } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { readFile } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedLookup, LookupSlots, type Resolve, WEBHOOK_LOOKUPS_AT_ONCE } from './address-guard.js';
import { connectionRefusal, WebhookSender } from './webhook-sender.js';

/** A DNS that answers each name with the addresses `answers` gives for its nth question. */
function fakeDns(answers: (hostname: string, asked: number) => string[]): Resolve & { asked: number } {
  const resolve = ((hostname, _options, callback) => {
    const addresses = answers(hostname, resolve.asked++).map(
      (address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }),
    );
    if (addresses.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      setImmediate(() => callback(error, []));
    } else setImmediate(() => callback(null, addresses));
  }) as Resolve & { asked: number };
  resolve.asked = 0;
  return resolve;
}

function lookupWith(resolve: Resolve, hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; address: unknown }>((done) =>
    guardedLookup(false, resolve)(hostname, { all }, (error, address) => done({ error, address })),
  );
}

describe('the guarded lookup (a hostile DNS answer)', () => {
  it('drops the refused addresses of a name with several, public and private: only public ones are connected to', async () => {
    const dns = fakeDns(() => ['127.0.0.1', '93.184.216.34', '169.254.169.254', '::1', '2606:2800:220:1::1']);
    expect(await lookupWith(dns, 'mixed.example', true)).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    });
    expect(await lookupWith(dns, 'mixed.example', false)).toEqual({ error: null, address: '93.184.216.34' });
  });

  it('refuses a name whose every address is refused, and passes on a name that resolves to nothing', async () => {
    const privateOnly = await lookupWith(
      fakeDns(() => ['10.0.0.1', 'fd00:ec2::254']),
      'inside.example',
      true,
    );
    expect(privateOnly.error?.name).toBe('ForbiddenAddressError');
    const nothing = await lookupWith(
      fakeDns(() => []),
      'nothing.example',
      true,
    );
    expect(nothing.error?.message).toBe('getaddrinfo ENOTFOUND nothing.example');
  });
});

describe("webhook DNS and the process's thread pool", () => {
  const PUBLIC: LookupAddress[] = [{ address: '93.184.216.34', family: 4 }];

  it('asks at most WEBHOOK_LOOKUPS_AT_ONCE names at once; the others wait for a slot, then are answered', async () => {
    const pending = new Map<string, () => void>();
    const resolve: Resolve = (hostname, _options, callback) => {
      pending.set(hostname, () => callback(null, PUBLIC));
    };
    const lookup = guardedLookup(false, resolve, new LookupSlots(2));
    const answered: string[] = [];
    for (const name of ['a.example', 'b.example', 'c.example', 'a.example']) {
      lookup(name, {}, (error) => answered.push(error === null ? name : `${name}: ${error.message}`));
    }
    expect([...pending.keys()]).toEqual(['a.example', 'b.example']);
    pending.get('a.example')?.();
    // Both connections to a.example have their answer; c.example took the slot a.example gave back.
    expect(answered).toEqual(['a.example', 'a.example']);
    expect([...pending.keys()]).toEqual(['a.example', 'b.example', 'c.example']);
    pending.get('c.example')?.();
    pending.get('b.example')?.();
    expect(answered).toEqual(['a.example', 'a.example', 'c.example', 'b.example']);
    expect(WEBHOOK_LOOKUPS_AT_ONCE).toBeLessThan(4);
  });

  it("leaves libuv's pool free for the rest of the process while many names' DNS is slow", async () => {
    // Each question holds a real pool thread (a long pbkdf2), as a getaddrinfo waiting on a slow DNS does.
    let lookupsDone = 0;
    const slowDns: Resolve = (_hostname, _options, callback) =>
      pbkdf2('secret', 'salt', 300_000, 64, 'sha512', () => {
        lookupsDone++;
        callback(null, PUBLIC);
      });
    const lookup = guardedLookup(false, slowDns);
    const all = Array.from(
      { length: 6 },
      (_, i) => new Promise<void>((done) => lookup(`slow-${i}.example`, {}, () => done())),
    );
    // A file read queued behind them: with every question on the pool (four threads), it waited for one.
    const doneBeforeTheRead = await new Promise<number>((done) =>
      readFile(import.meta.filename, () => done(lookupsDone)),
    );
    expect(doneBeforeTheRead).toBe(0);
    await Promise.all(all);
    expect(lookupsDone).toBe(6);
  });
});

describe('the check on the address connected to', () => {
  it('refuses a refused peer, and a socket with no peer address to check (closed as it connected)', () => {
    expect(connectionRefusal(false, '93.184.216.34', 'hooks.example')).toBeUndefined();
    expect(connectionRefusal(false, '::ffff:169.254.169.254', 'hooks.example')?.message).toContain(
      '::ffff:169.254.169.254 is not a public address',
    );
    const unchecked = connectionRefusal(false, undefined, 'hooks.example');
    expect(unchecked?.message).toBe('the connection to hooks.example closed as it opened');
    expect(unchecked?.name).toBe('Error');
    expect(connectionRefusal(true, undefined, 'hooks.example')).toBeUndefined();
  });
});

describe('the webhook sender against a hostile endpoint', () => {
  const servers: Server[] = [];
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
    return (server.address() as AddressInfo).port;
  };

  it('checks the address each connection is made to, from the answer it connects with: a name rebound to loopback is refused, never connected', async () => {
    let connections = 0;
    const port = await listen((_request, response) => {
      connections++;
      // Closed after each answer: the next request needs a new connection.
      response.writeHead(204, { connection: 'close' }).end();
    });
    // Private addresses allowed, to watch it: every new connection asks DNS again, none reuses an answer
    // checked earlier (a rebinding between a check and a connection has no gap to go through).
    const watched = fakeDns(() => ['127.0.0.1']);
    const open = new WebhookSender({ allowPrivate: true, timeoutMs: 3000, resolve: watched });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(await open.send(`http://rebind.example:${port}/hooks`, {}, '{}')).toMatchObject({
          status: 204,
        });
      }
      expect({ asked: watched.asked, connections }).toEqual({ asked: 3, connections: 3 });
    } finally {
      await open.close();
    }
    // Guarded: the name now answers loopback (first public, then rebound: the answer connected with counts).
    const rebound = fakeDns((_hostname, asked) =>
      asked === 0 ? ['::ffff:127.0.0.1'] : ['127.0.0.1', '::1'],
    );
    const guarded = new WebhookSender({ allowPrivate: false, timeoutMs: 3000, resolve: rebound });
    try {
      const outcomes = [
        await guarded.send(`https://rebind.example:${port}/hooks`, {}, '{}'),
        await guarded.send(`https://rebind.example:${port}/hooks`, {}, '{}'),
      ];
      expect(outcomes).toEqual([
        { kind: 'failed', refused: true, error: expect.stringContaining('is not a public address') },
        { kind: 'failed', refused: true, error: expect.stringContaining('is not a public address') },
      ]);
      expect(connections).toBe(3);
    } finally {
      await guarded.close();
    }
  });

  it("asks DNS once for the connections a batch opens together: a name whose DNS never answers holds one of libuv's four threads, not all", async () => {
    // dns.lookup (getaddrinfo) runs on libuv's pool of 4 threads, shared with the rest of the process
    // (a database or Redis host's name, files, argon2): 16 connections each asking would fill it.
    const port = await listen((_request, response) => response.writeHead(204).end());
    const waiting: (() => void)[] = [];
    const slow = ((_hostname, _options, callback) => {
      waiting.push(() => callback(null, [{ address: '127.0.0.1', family: 4 }]));
    }) as Resolve;
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000, resolve: slow, connections: 16 });
    try {
      const items = Array.from({ length: 16 }, () => ({ body: '{}', headers: () => ({}) }));
      const sent = sender.sendAll(`http://slow-dns.example:${port}/hooks`, items, 16);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(waiting).toHaveLength(1);
      for (const answer of waiting.splice(0)) answer();
      const outcomes = await sent;
      expect(
        outcomes.map((outcome) => (outcome.kind === 'answered' ? outcome.status : outcome.error)),
      ).toEqual(items.map(() => 204));
    } finally {
      await sender.close();
    }
  });

  it('follows no redirect, whatever its status, to a private address or anywhere', async () => {
    let followed = 0;
    const target = await listen((_request, response) => {
      followed++;
      response.writeHead(204).end();
    });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 3000 });
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        const port = await listen((_request, response) =>
          response.writeHead(status, { location: `http://127.0.0.1:${target}/latest/meta-data/` }).end(),
        );
        expect(await sender.send(`http://127.0.0.1:${port}/hooks`, {}, '{}')).toMatchObject({
          kind: 'answered',
          status,
        });
      }
      expect(followed).toBe(0);
    } finally {
      await sender.close();
    }
  });

  it('ends an answer dripped a byte at a time, its head or its body, at the timeout', async () => {
    const drip = (head: boolean) =>
      listen((request, response) => {
        const socket = request.socket;
        if (head) socket.write('HTTP/1.1 200 OK\r\n');
        else response.writeHead(200, { 'content-length': '100000' });
        const timer = setInterval(() => (head ? socket.write('x') : response.write('y')), 100);
        socket.on('close', () => clearInterval(timer));
      });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 1000 });
    try {
      for (const head of [true, false]) {
        const port = await drip(head);
        const started = Date.now();
        expect(await sender.send(`http://127.0.0.1:${port}/hooks`, {}, '{}'), `head ${head}`).toEqual({
          kind: 'failed',
          refused: false,
          error: 'no answer within 1 s',
        });
        expect(Date.now() - started).toBeLessThan(1800);
      }
    } finally {
      await sender.close();
    }
  });

  it('fails an answer with a huge header or a great many headers, without reading them all', async () => {
    const huge = await listen((_request, response) => {
      response.writeHead(200, { 'x-huge': 'h'.repeat(1024 * 1024) }).end();
    });
    const many = await listen((_request, response) => {
      response.writeHead(
        200,
        Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`x-header-${index}`, 'v'])),
      );
      response.end();
    });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 3000 });
    try {
      for (const port of [huge, many]) {
        const outcome = await sender.send(`http://127.0.0.1:${port}/hooks`, {}, '{}');
        expect(outcome).toMatchObject({ kind: 'failed', refused: false });
        expect(outcome.kind === 'failed' && outcome.error.length).toBeLessThanOrEqual(500);
      }
    } finally {
      await sender.close();
    }
  });
});
