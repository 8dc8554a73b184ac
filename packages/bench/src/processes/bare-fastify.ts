/**
 * The baseline: bare Fastify (the project's own version), no logger, no project code, with one route
 * per scenario that does what every HTTP service must: parse the same body and answer a JSON:API
 * document of the same byte size as the service's answer. Run as its own process by the benchmark.
 */
import { parse } from 'node:querystring';
import Fastify from 'fastify';
import type { ScenarioName } from '../scenarios/scenario.js';

const JSON_API = 'application/vnd.api+json';
const bytes = JSON.parse(process.env.BARE_RESPONSE_BYTES ?? '{}') as Partial<Record<ScenarioName, number>>;
const PADDING = 'x'.repeat(64 * 1024);

/** The document with `meta.pad` appended so that the answer has exactly the service's size. */
function padded(scenario: ScenarioName, document: { data: unknown }): string {
  const json = JSON.stringify(document);
  const head = `${json.slice(0, -1)},"meta":{"pad":"`;
  const missing = (bytes[scenario] ?? 0) - Buffer.byteLength(head) - 3;
  return `${head}${PADDING.slice(0, Math.max(0, missing))}"}}`;
}

const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
  done(null, parse(body as string)),
);
app.addContentTypeParser(JSON_API, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

app.post('/api/web/v2/app/users/:userId/session', async (request, reply) => {
  const { userId } = request.params as { userId: string };
  const { nick, lang } = request.body as Record<string, string | undefined>;
  const document = { data: { id: userId, type: 'session', attributes: { 'user-id': userId, nick, lang } } };
  return reply.type(JSON_API).send(padded('v2', document));
});

app.post('/apiweb/v3/open-game', async (request, reply) => {
  const body = request.body as { data?: { attributes?: { player?: { id?: string; nick?: string } } } };
  const player = body.data?.attributes?.player ?? {};
  const document = { data: { id: `/game-sessions/${player.id}`, type: 'GameSession', attributes: player } };
  return reply.code(201).header('location', document.data.id).type(JSON_API).send(padded('v3', document));
});

app.get('/api/web/v2/app/session', async (request, reply) => {
  const token = (request.headers.authorization ?? '').slice('Bearer '.length);
  const document = { data: { id: token.slice(0, 8), type: 'session', attributes: { state: 'active' } } };
  return reply.type(JSON_API).send(padded('token', document));
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.BARE_PORT) });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
