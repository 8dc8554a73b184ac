import { openRawConnection, type RawConnection } from './raw-connection.js';
import type { ServeProcess } from './run-serve.js';

/** A connection that has had one answer (GET /livez) and stays open, as a keep-alive client's does. */
export async function keptAlive(address: string): Promise<RawConnection> {
  const connection = await openRawConnection(address);
  connection.write('GET /livez HTTP/1.1\r\nhost: test\r\nconnection: keep-alive\r\n\r\n');
  await connection.waitFor('"status":"live"');
  return connection;
}

/**
 * Until the server has logged `count` incoming v2 launches: the lines tell that it read their heads. They
 * cannot tell which (a user id is no route literal, so the logs redact it: docs/design.md §11).
 */
export async function untilIncomingLaunches(serve: ServeProcess, count: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  const incoming = () =>
    serve
      .stdout()
      .split('\n')
      .filter(
        (line) =>
          line.includes('"msg":"incoming request"') &&
          line.includes('"url":"/api/web/v2/app/users/[redacted]/session?clientId=demo"'),
      ).length;
  while (incoming() < count) {
    if (Date.now() > deadline)
      throw new Error(`fewer than ${count} incoming launches logged: ${serve.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
