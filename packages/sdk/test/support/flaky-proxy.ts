import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted answer to one request: an HTTP response, the connection dropped without one, no answer
 * at all (the connection held open until the proxy closes), or the request forwarded to the service and
 * its answer lost (the connection dropped once the service has answered).
 */
export type ScriptedAnswer =
  | { status: number; body?: string; headers?: Record<string, string> }
  | 'drop'
  | 'hang'
  | 'lose';

const JSON_API = { 'content-type': 'application/vnd.api+json' };

/** The service's answer to a v2 create session of `userId` (201), sending the player to `redirectUrl`. */
export function createdSessionAnswer(userId: string, redirectUrl: string): ScriptedAnswer {
  return {
    status: 201,
    headers: JSON_API,
    body: JSON.stringify({
      data: {
        type: 'session',
        id: 'a'.repeat(32),
        attributes: {
          'user-id': userId,
          'redirect-url': redirectUrl,
          auth: 'b'.repeat(32),
          'session-id': 's-1',
        },
      },
    }),
  };
}

/** The service's answer to a v3 open game of player u-1 (201), launching at `url`. */
export function openedGameAnswer(url: string): ScriptedAnswer {
  return {
    status: 201,
    headers: JSON_API,
    body: JSON.stringify({
      data: {
        type: 'GameSession',
        id: '/apiweb/v3/game-sessions/x',
        attributes: { playerId: 'u-1', sessionId: 's-1', auth: 'b'.repeat(32), url },
      },
    }),
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FlakyProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that answers the first requests as scripted (failures, mostly), then forwards
 * each request unchanged to `target` (the real service) and relays its answer, so the service itself
 * judges what a retry re-sent.
 */
export async function startFlakyProxy(
  target: string | undefined,
  script: readonly ScriptedAnswer[],
): Promise<FlakyProxy> {
  const pending = [...script];
  const requests: RecordedRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    const scripted = pending.shift();
    if (scripted === 'hang') return;
    if (scripted === 'drop') {
      request.socket.destroy();
      return;
    }
    if ((scripted !== undefined && scripted !== 'lose') || target === undefined) {
      const {
        status,
        body: text = '',
        headers = { 'content-type': 'text/plain' },
      } = scripted === undefined || scripted === 'lose' ? { status: 599 } : scripted;
      response.writeHead(status, headers);
      response.end(text);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'accept', 'sign', 'authorization']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = request.method ?? 'POST';
    // fetch refuses a GET with a body, even an empty one.
    const forwarded = await fetch(target + (request.url ?? ''), {
      method,
      headers,
      ...(method === 'GET' ? {} : { body }),
    });
    if (scripted === 'lose') {
      await forwarded.text();
      request.socket.destroy();
      return;
    }
    const relayed: Record<string, string> = {};
    for (const name of ['content-type', 'x-request-id', 'location']) {
      const value = forwarded.headers.get(name);
      if (value !== null) relayed[name] = value;
    }
    response.writeHead(forwarded.status, relayed);
    response.end(await forwarded.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
