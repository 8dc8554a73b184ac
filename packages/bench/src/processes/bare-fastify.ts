/**
 * The baseline: bare Fastify (the project's own version), no logger, no project code, with one route
 * per scenario that does what every HTTP service must: parse the same body and answer a JSON:API
 * document of the same byte size as the service's answer. Run as its own process by the benchmark.
 *
 * With BARE_DATABASE_URL set it is the store floor instead (`--floor`): the same, except that each v2
 * launch is also made durable through the service's own session store before the answer.
 */
import { parse } from 'node:querystring';
import Fastify from 'fastify';
import type { ScenarioName } from '../scenarios/scenario.js';
import { openStoreLaunch } from './store-launch.js';

const JSON_API = 'application/vnd.api+json';
const bytes = JSON.parse(process.env.BARE_RESPONSE_BYTES ?? '{}') as Partial<Record<ScenarioName, number>>;
const PADDING = 'x'.repeat(64 * 1024);
const store = process.env.BARE_DATABASE_URL
  ? await openStoreLaunch(process.env.BARE_DATABASE_URL)
  : undefined;

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
  const { nick = '', lang = 'en' } = request.body as Record<string, string | undefined>;
  const clientId = (request.query as Record<string, string | undefined>).clientId ?? '';
  const stored = await store?.launch({ clientId, userId, nick, lang });
  const attributes = { 'user-id': userId, nick, lang, auth: stored?.auth };
  const document = { data: { id: stored?.sessionId ?? userId, type: 'session', attributes } };
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
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => store?.close())
        .then(() => process.exit(0)),
  );
}
