import { connect } from 'node:net';

export interface RawConnection {
  write(text: string): void;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves once the server's bytes contain `text`; rejects if the connection closes first. */
  waitFor(text: string): Promise<void>;
  /** Resolves when the connection is closed (by either side). */
  readonly closed: Promise<void>;
  destroy(): void;
}

/** A TCP connection to a running server, for what fetch cannot do: stall, trickle, pipeline. */
export async function openRawConnection(address: string): Promise<RawConnection> {
  const { hostname, port } = new URL(address);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    write: (text) => socket.write(text),
    received: () => received,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!received.includes(text)) return;
          socket.off('data', check);
          resolve();
        };
        socket.on('data', check);
        closed.then(() =>
          received.includes(text) ? resolve() : reject(new Error(`closed before "${text}": ${received}`)),
        );
        check();
      }),
    closed,
    destroy: () => socket.destroy(),
  };
}

/** The responses in what a connection received, in order: status, lower-cased headers, body. */
export function parseResponses(
  raw: string,
): { status: number; headers: Record<string, string>; body: string }[] {
  const responses: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const [statusLine = '', ...headerLines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = Buffer.from(rest.slice(headEnd + 4))
      .subarray(0, length)
      .toString();
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = Buffer.from(rest.slice(headEnd + 4))
      .subarray(length)
      .toString();
  }
  return responses;
}
