import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLaunchClient, LaunchApiError } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';

/** A server that records each request's method and URL and answers with `answer`. */
async function recordingServer(
  answer: (url: string) => { status: number; headers?: Record<string, string> },
) {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    const { status, headers = {} } = answer(request.url ?? '');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

describe('a service that answers with a redirect (an http:// baseUrl a proxy sends to https://)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it.each([301, 302, 307, 308])(
    '%i: not followed, with the global fetch: the signed request goes nowhere else, and the error says where it pointed',
    async (status) => {
      const elsewhere = await recordingServer(() => ({ status: 500 }));
      const redirector = await recordingServer((url) => ({
        status,
        headers: { location: `${elsewhere.url}${url}` },
      }));
      servers.push(elsewhere.server, redirector.server);
      const launch = createLaunchClient({
        baseUrl: redirector.url,
        clientId: 'demo',
        secretKey: 'test_secret',
        retry: { baseDelayMs: 1, maxDelayMs: 2 },
      });
      const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(LaunchApiError);
      expect(error).toMatchObject({ status, code: 'unexpected_response', attempts: 1 });
      expect((error as Error).message).toContain(
        `the service answered a redirect to ${elsewhere.url}/api/web/v2/app/users/u-1/session?clientId=demo, which the SDK does not follow`,
      );
      // A 301 or 302 would have come back as a GET (the service's 405), a 307 or 308 as the signed POST.
      expect(elsewhere.requests).toEqual([]);
      expect(redirector.requests).toEqual(['POST /api/web/v2/app/users/u-1/session?clientId=demo']);
    },
  );
});

describe('an answer whose status arrives and whose body is cut off', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  /** Answers `status` with the first bytes of a longer body, then drops the connection. */
  async function cutting(status: number) {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(status, { 'content-type': 'application/vnd.api+json', 'content-length': '400' });
      response.write('{"data":{"id":"');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const launch = createLaunchClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    return { launch, requests };
  }

  it('a 201: the launch happened, so it is not sent again (a retry would surely make a second session)', async () => {
    const { launch, requests } = await cutting(201);
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LaunchApiError);
    expect(error).toMatchObject({ status: 201, code: 'unexpected_response', attempts: 1 });
    expect((error as Error).message).toContain('HTTP 201 arrived, its body cut off');
    expect((error as Error).message).toContain(
      'the service did what was asked, so the request is not sent again',
    );
    expect((error as Error).cause).toBeDefined();
    expect(requests).toHaveLength(1);
  });

  it('a 503: retried, as a 503 is', async () => {
    const { launch, requests } = await cutting(503);
    const error = await launch.openGame({ player: { id: 'u-1' } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 0, code: 'network_error', attempts: 3 });
    expect(requests).toHaveLength(3);
  });
});
