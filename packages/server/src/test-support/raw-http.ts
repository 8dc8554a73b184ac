import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `bytes` as they are on a new TCP connection and reads until the server closes it: for the
 * requests Node's HTTP parser refuses, which no HTTP client (nor `app.inject`) would send.
 * Resolves with the parsed answer, or `undefined` when the server closed without answering.
 */
export function rawExchange(port: number, bytes: string | Buffer): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset a connection it refused; what it wrote before still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
    socket.write(bytes);
  });
}

function parseAnswer(text: string): RawAnswer | undefined {
  if (text === '') return undefined;
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}
