/**
 * The webhook receiver of the `v2-webhook` scenario, run as its own process: HTTPS (the certificate
 * the benchmark made, which the service trusts through NODE_EXTRA_CA_CERTS), answering every delivery
 * 204 and counting it. A plain HTTP port beside it tells the benchmark how many came (GET /count) and
 * that the receiver listens (any other path).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

let received = 0;
const receiver = createHttpsServer(
  { cert: readFileSync(process.env.RECEIVER_CERT ?? ''), key: readFileSync(process.env.RECEIVER_KEY ?? '') },
  (request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  },
);
const control = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(request.url === '/count' ? JSON.stringify({ received }) : '{}');
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
