/**
 * The webhook receiver of the `v2-webhook` scenario and the mixed soak, run as its own process: HTTPS
 * (the certificate the benchmark made, which the service trusts through NODE_EXTRA_CA_CERTS). `/hooks`
 * answers every delivery 204 and counts it; `/fail` answers 500 (the service retries); `/hang` reads the
 * delivery and never answers (the service's timeout ends it). A plain HTTP port beside it tells the
 * benchmark how many came (GET /count: the 204s; GET /counts: every path's) and that the receiver
 * listens (any other path).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

let received = 0;
const counts = { hooks: 0, fail: 0, hang: 0 };
const receiver = createHttpsServer(
  { cert: readFileSync(process.env.RECEIVER_CERT ?? ''), key: readFileSync(process.env.RECEIVER_KEY ?? '') },
  (request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/fail') {
        counts.fail++;
        response.writeHead(500).end();
      } else if (request.url === '/hang') {
        counts.hang++; // never answered: the sender gives up and closes the connection
      } else {
        received++;
        counts.hooks++;
        response.writeHead(204).end();
      }
    });
  },
);
const control = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    request.url === '/count'
      ? JSON.stringify({ received })
      : request.url === '/counts'
        ? JSON.stringify(counts)
        : '{}',
  );
});

await new Promise<void>((resolve) =>
  receiver.listen(Number(process.env.RECEIVER_PORT), '127.0.0.1', resolve),
);
await new Promise<void>((resolve) =>
  control.listen(Number(process.env.RECEIVER_CONTROL_PORT), '127.0.0.1', resolve),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    receiver.close();
    control.close();
    process.exit(0);
  });
}
