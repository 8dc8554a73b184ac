import type { LightMyRequestResponse as Answer } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_PROTECTION } from '../clients/request-protection.js';
import { HOME_URL } from '../home/home.routes.js';
import { V2_CREATE_SESSION_URL } from '../launch/v2/v2.routes.js';
import { GAME_SESSIONS_PATH } from '../launch/v3/game-session.serializer.js';
import { V3_OPEN_GAME_URL } from '../launch/v3/v3.routes.js';
import { encodePhpForm, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import {
  apiKeyFor,
  getGameSession,
  keyWithoutRights,
  openGame,
  openGameDocument,
} from '../test-support/v3-requests.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { registeredRoutes } from './register-openapi.js';
import { openApiProblems } from './test-support/openapi-check.js';
import { OpenApiContract } from './test-support/openapi-contract.js';
import { openApiPath, referenceGaps } from './test-support/reference-gaps.js';

type JsonObject = Record<string, unknown>;

describe('the structural check', () => {
  it('finds the mistakes generators make', () => {
    const broken = {
      openapi: '3.0.3',
      info: { title: 'x' },
      paths: {
        '/users/{userId}': {
          post: {
            operationId: 'same',
            security: [{ nope: [] }],
            requestBody: { content: { 'application/json': { schema: { type: 'object', nullable: true } } } },
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
              },
              '422': { description: 'bad', content: { 'application/json': { schema: { type: 'text' } } } },
            },
          },
          get: {
            operationId: 'same',
            parameters: [{ name: 'userId', in: 'path', schema: { type: 'string' } }],
            responses: { ok: { description: 'x' } },
          },
        },
      },
      components: { schemas: { Doc: { type: 'object', required: ['id'], properties: { name: {} } } } },
    };
    expect(openApiProblems(broken).sort()).toEqual(
      [
        'openapi: must be 3.1.x, is 3.0.3',
        'info: needs title and version',
        'POST /users/{userId}: path parameter {userId} is not declared',
        'POST /users/{userId}: security scheme nope is not defined',
        'POST /users/{userId} requestBody application/json: `nullable` is OpenAPI 3.0; 3.1 uses type: [..., "null"]',
        'POST /users/{userId} 200: response needs a description',
        'POST /users/{userId} 422 application/json: unknown type text',
        'GET /users/{userId}: operationId same twice',
        'GET /users/{userId}: path parameter userId must be required',
        'GET /users/{userId}: response key ok',
        'components.schemas.Doc: required id is not a property',
        '#/paths//users/{userId}/post/responses/200/content/application/json/schema: $ref #/components/schemas/Missing does not resolve',
      ].sort(),
    );
  });
});

describe.each(DIALECTS)('the API reference on %s', (dialect) => {
  const h = useHarness(dialect);
  const reference = async (): Promise<JsonObject> => {
    const response = await h().app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('serves an OpenAPI 3.1 document at /openapi.json that passes the structural check', async () => {
    const document = await reference();
    expect(document.openapi).toBe('3.1.0');
    expect(openApiProblems(document)).toEqual([]);
  });

  it("describes both forms of the sign header: the API's signature and the hmac one", async () => {
    // Code generated from the reference, or an integrator reading /docs, must find the hmac form too.
    const { components } = (await reference()) as {
      components: { securitySchemes: { signature: { description: string } } };
    };
    const { description } = components.securitySchemes.signature;
    expect(description).toContain('SHA-256 of the canonical string followed by the secret key');
    expect(description).toContain('t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>');
  });

  it('names the replay fields ts and nonce among the query parameters of every signed operation', async () => {
    // An integrator who builds requests from the reference must find where replay fields go (docs/integration.md "Replay fields").
    const paths = (await reference()).paths as Record<
      string,
      Record<
        string,
        {
          operationId?: string;
          security?: Record<string, unknown>[];
          parameters?: { in: string; name: string }[];
        }
      >
    >;
    const signed = Object.values(paths).flatMap((operations) =>
      Object.values(operations).filter((operation) =>
        operation.security?.some((requirement) => 'signature' in requirement),
      ),
    );
    expect(signed.length).toBeGreaterThan(5);
    for (const operation of signed) {
      const query = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map(({ name }) => name);
      expect([operation.operationId, query]).toEqual([
        operation.operationId,
        expect.arrayContaining(['ts', 'nonce']),
      ]);
    }
  });

  it('documents every registered API route, and no route that does not exist', async () => {
    const routes = registeredRoutes(h().app);
    expect(routes.some((route) => route.method === 'POST' && route.url.startsWith('/api/web/v2/'))).toBe(
      true,
    );
    expect(referenceGaps(routes, await reference())).toEqual([]);
  });

  it('documents on every operation the 413 and 414 answered before its route runs, as the service answers them', async () => {
    const document = await reference();
    const contract = new OpenApiContract(document);
    const problems: string[] = [];
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths as Record<string, JsonObject>)) {
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const route = path.replace(/\{([^}]+)\}/g, ':$1');
        if (method !== 'get' && method !== 'head') {
          const answer = await h().app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ padding: 'x'.repeat(70_000) }),
          });
          if (answer.statusCode !== 413) problems.push(`${method} ${path}: ${answer.statusCode}, not 413`);
          problems.push(...contract.violations(method, route, answer));
          checked++;
        }
        if (path.includes('{')) {
          const longUrl = path.replace(/\{[^}]+\}/g, 'x'.repeat(1001));
          const answer = await h().app.inject({ method: method.toUpperCase() as 'GET', url: longUrl });
          if (answer.statusCode !== 414) problems.push(`${method} ${path}: ${answer.statusCode}, not 414`);
          problems.push(...contract.violations(method, route, answer));
          checked++;
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(8);
  });

  it('reports a route without a schema, and a hidden route without a reason', async () => {
    h().app.get('/api/undocumented', async () => ({}));
    h().app.get('/api/secret', { schema: { hide: true } }, async () => ({}));
    const gaps = referenceGaps(registeredRoutes(h().app), await reference());
    expect(gaps).toEqual(
      expect.arrayContaining([
        'GET /api/undocumented: no summary',
        'GET /api/undocumented: no tags',
        'GET /api/undocumented: response 200 has no schema',
        'GET /api/undocumented: no error responses',
        'GET /api/secret: hidden from the reference without a reason',
      ]),
    );
  });

  it('builds the v2 body from the field rules, one source for validation and reference', async () => {
    const { V2_FIELDS } = await import('../launch/v2/v2-params.js');
    const paths = (await reference()).paths as JsonObject;
    const operation = (paths[openApiPath('/api/web/v2/app/users/:userId/session')] as JsonObject)
      .post as JsonObject;
    const content = (operation.requestBody as { content: Record<string, { schema: JsonObject }> }).content;
    expect(Object.keys(content)).toEqual([
      'application/x-www-form-urlencoded',
      'application/json',
      'application/vnd.api+json',
    ]);
    const properties = content['application/x-www-form-urlencoded']?.schema.properties as JsonObject;
    expect(Object.keys(properties)).toEqual(Object.keys(V2_FIELDS));
    expect(properties.authType).toEqual(V2_FIELDS.authType.schema);
    // As the server enforces it: the path carries userId, so the body requires nothing.
    expect(content['application/x-www-form-urlencoded']?.schema.required ?? []).toEqual([]);
  });

  /** Where the answer breaks what the reference promises for the operation: status, media type, body. */
  const brokenPromises = (document: JsonObject, path: string, method: string, answer: Answer): string[] => {
    const violations = new OpenApiContract(document).violations(method, path, answer);
    const item = (document.paths as JsonObject)[openApiPath(path)] as JsonObject;
    const responses = (item[method] as JsonObject).responses as Record<string, JsonObject>;
    const content = responses[String(answer.statusCode)]?.content as Record<string, JsonObject> | undefined;
    const media = content?.[String(answer.headers['content-type'])];
    const where = `${method.toUpperCase()} ${path} ${answer.statusCode}`;
    if (!media || answer.body === '') return violations;
    return [...violations, ...undocumentedCodes(answer.json(), media, where)];
  };

  /** Every error an operation really answers is among the examples of its status in the reference. */
  const undocumentedCodes = (body: JsonObject, media: JsonObject, where: string): string[] => {
    if (!Array.isArray(body.errors)) return [];
    const examples = Object.values(
      (media.examples ?? {}) as Record<string, { value: { errors: JsonObject[] } }>,
    );
    const documented = new Set(
      examples.flatMap((example) => example.value.errors.map((error) => error.code)),
    );
    return body.errors
      .map((error: JsonObject) => String(error.code))
      .filter((code: string) => !documented.has(code))
      .map((code: string) => `${where}: ${code} is not among the documented examples`);
  };

  it('compiles every schema of the reference with strict Ajv: no unknown keyword, bad pattern or dangling ref', async () => {
    expect(new OpenApiContract(await reference()).schemaProblems()).toEqual([]);
  });

  it('checks formats and combinators, which a hand-written check missed', async () => {
    const contract = new OpenApiContract(await reference());
    const session = {
      data: {
        id: 'a'.repeat(32),
        type: 'session',
        attributes: { 'user-id': 'u', 'redirect-url': 'not a uri', auth: 'a'.repeat(32), 'session-id': 's' },
        meta: { expiresAt: 'tomorrow' },
      },
    };
    const answer = { statusCode: 200, headers: { 'content-type': 'application/vnd.api+json' } };
    expect(
      contract.violations('post', V2_CREATE_SESSION_URL, { ...answer, body: JSON.stringify(session) }),
    ).toEqual([
      expect.stringContaining('/data/attributes/redirect-url must match format "uri"'),
      expect.stringContaining('/data/meta/expiresAt must match format "date-time"'),
    ]);
    const body = contract.schemaViolations(
      'launchOptions',
      { oneOf: [{ type: 'object' }, { type: 'string', maxLength: 3 }] },
      '"long text"',
    );
    expect(body).toEqual([
      expect.stringContaining('must be object'),
      expect.stringContaining('must NOT have more than 3 characters'),
      expect.stringContaining('must match exactly one schema in oneOf'),
    ]);
  });

  it('promises exactly what v2 answers: every response below matches its documented schema', async () => {
    await h().addClient();
    await h().setSetting('NickMaxLength', '8');
    await h().createSession('u-0', { nick: 'Taken' });
    const internal = await h().addClient({ id: 'internal', playerIdMode: 'internal' });
    const v2 = '/api/web/v2/app/users/u-1/session?clientId=demo';

    const answers = [
      await h().createSession('u-1', { nick: 'Ann', currency: 'XYZ' }),
      await h().createSession('u-1', { nick: 'Ann' }, { sign: 'f'.repeat(64) }),
      await h().createSession('nobody', {}, { client: internal }),
      await h().createSession('u-1', {}, { headers: { accept: 'text/html' } }),
      await h().app.inject({
        method: 'POST',
        url: v2,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      }),
      await h().app.inject({
        method: 'POST',
        url: v2,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: encodePhpForm({ nick: 'x'.repeat(70_000) }),
      }),
      await h().createSession('u-1', { authType: 'session', lang: 'english' }),
      await h().createSession('u-2', { nick: 'taken' }),
      await h().createSession('u-3', { nick: 'MuchTooLong' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 400, 404, 406, 415, 413, 422, 500, 500]);
    const document = await reference();
    const broken = answers.flatMap((answer) =>
      brokenPromises(document, V2_CREATE_SESSION_URL, 'post', answer),
    );
    expect(broken).toEqual([]);
    // The staging signature hint is part of the promise too.
    expect(answers[1]?.json().meta.signature.canonical).toBe('Annu-1');
  });

  it('promises exactly what v3 answers, open game and the GameSession read back', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    await h().setSetting('NickMaxLength', '8');
    const internal = await h().addClient({ id: 'internal', playerIdMode: 'internal' });
    const { key } = await apiKeyFor(h(), { role: ROLE_ADMIN });
    const weakKey = await keyWithoutRights(h());
    await openGame(h(), openGameDocument({ id: 'u-0', nick: 'Taken' }));
    const created = await openGame(h(), openGameDocument({ id: 'u-1' }));
    const iri = created.json().data.id as string;

    const posts = [
      created,
      await openGame(h(), openGameDocument({ id: 'u-1' }), { sign: 'f'.repeat(64) }),
      await openGame(h(), { data: 'x' }),
      await openGame(h(), openGameDocument({ id: 'u-1' }), { apiKey: 'plk_nope' }),
      await openGame(h(), openGameDocument({ id: 'u-1' }), { apiKey: weakKey }),
      await openGame(h(), openGameDocument({ id: 'nobody' }), { client: internal }),
      await openGame(h(), openGameDocument({ id: 'u-1' }), { headers: { accept: 'text/html' } }),
      await openGame(h(), { data: { type: 'Session', attributes: { player: { id: 'u-1' } } } }),
      await openGame(h(), 'x', { contentType: 'text/plain', sign: null }),
      await openGame(h(), openGameDocument({ id: 'u-1', email: 'zoe' }, { authType: 'token', lang: 'zz' })),
      await openGame(h(), openGameDocument({ id: 'u-2', nick: 'taken' })),
      await openGame(h(), openGameDocument({ id: 'u-1' }), { apiKey: key, clientId: null }),
      await openGame(h(), openGameDocument({ id: 'u-1' }), { apiKey: key, clientId: 'nobody' }),
    ];
    expect(posts.map((answer) => answer.statusCode)).toEqual([
      201, 400, 400, 401, 403, 404, 406, 409, 415, 422, 422, 422, 422,
    ]);
    const reads = [
      await getGameSession(h(), iri),
      await getGameSession(h(), iri, { apiKey: key, clientId: null }),
      await getGameSession(h(), iri, { sign: 'f'.repeat(64) }),
      await getGameSession(h(), iri, { apiKey: 'plk_nope', clientId: null }),
      await getGameSession(h(), iri, { apiKey: weakKey }),
      await getGameSession(h(), iri, { apiKey: weakKey, clientId: null }),
      await getGameSession(h(), iri, { apiKey: key, clientId: 'nobody' }),
    ];
    expect(reads.map((answer) => answer.statusCode)).toEqual([200, 200, 400, 401, 403, 404, 422]);
    const document = await reference();
    const broken = [
      ...posts.flatMap((answer) => brokenPromises(document, V3_OPEN_GAME_URL, 'post', answer)),
      ...reads.flatMap((answer) => brokenPromises(document, `${GAME_SESSIONS_PATH}/:id`, 'get', answer)),
    ];
    expect(broken).toEqual([]);
    expect(posts[1]?.json().meta.signature).toMatchObject({
      canonical: 'u-1OpenGame',
      acceptedAlternative: 'demou-1OpenGame',
    });
  });

  it('promises what an hmac signature error adds: the text the service signed, and the malformed-header hint', async () => {
    const client = await h().addClient({
      protection: { ...DEFAULT_REQUEST_PROTECTION, signature: 'both' },
    });
    const now = Math.floor(h().clock.now().getTime() / 1000);
    const answers = [
      // well formed, made with another secret: the service answers the text its HMAC covered
      await h().createSession(
        'u-1',
        {},
        { client, sign: `t=${now},n=${'a'.repeat(32)},hmac=${'0'.repeat(64)}` },
      ),
      // starts like an hmac header but is not one: the hint says so
      await h().createSession('u-1', {}, { client, sign: `t=${now},hmac=00` }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400]);
    expect(answers[0]?.json().meta.signature.hmacSigningText).toContain('hmac-sha256\nPOST\n');
    expect(answers[1]?.json().meta.signature.hints.map((hint: JsonObject) => hint.code)).toEqual([
      'hmac_header_malformed',
    ]);
    const document = await reference();
    expect(
      answers.flatMap((answer) => brokenPromises(document, V2_CREATE_SESSION_URL, 'post', answer)),
    ).toEqual([]);
    // Every member the service puts in meta.signature is one the reference describes.
    const errorDocument = ((document.components as JsonObject).schemas as Record<string, JsonObject>)
      .ErrorDocument as JsonObject;
    const meta = (errorDocument.properties as Record<string, JsonObject>).meta as JsonObject;
    const signature = (meta.properties as Record<string, JsonObject>).signature as JsonObject;
    const described = Object.keys(signature.properties as JsonObject);
    for (const answer of answers) {
      expect(described).toEqual(expect.arrayContaining(Object.keys(answer.json().meta.signature)));
    }
  });

  it('promises exactly what the token API answers', async () => {
    await h().activateCurrencies('EUR');
    const launched = await h().createSession('u-1', {
      nick: 'Ann',
      gameCode: 'casino',
      gameId: 'roulette',
      currency: 'EUR',
    });
    expect(launched.statusCode, launched.body).toBe(200);
    const { auth } = launched.json().data.attributes;
    const call = (method: 'GET' | 'DELETE', headers: Record<string, string> = {}) =>
      h().app.inject({
        method,
        url: TOKEN_API_URL,
        headers: { authorization: `Bearer ${auth}`, ...headers },
      });
    const answers: [string, Answer][] = [
      ['get', await call('GET')],
      ['get', await call('GET', { accept: 'text/html' })],
      ['get', await h().app.inject({ method: 'GET', url: TOKEN_API_URL })],
      ['get', await h().app.inject({ method: 'GET', url: `${TOKEN_API_URL}?access-token=${auth}x` })],
      ['delete', await call('DELETE', { 'content-type': 'text/plain' })],
      ['delete', await call('DELETE')],
      ['delete', await call('DELETE')],
    ];
    expect(answers.map(([, answer]) => answer.statusCode)).toEqual([200, 406, 401, 401, 415, 204, 401]);
    const document = await reference();
    const broken = answers.flatMap(([method, answer]) =>
      brokenPromises(document, TOKEN_API_URL, method, answer),
    );
    expect(broken).toEqual([]);
  });

  it('promises exactly what the home document answers', async () => {
    const answers = [
      await h().app.inject({ method: 'GET', url: HOME_URL }),
      await h().app.inject({ method: 'GET', url: HOME_URL, headers: { accept: 'text/html' } }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 406]);
    const document = await reference();
    expect(answers.flatMap((answer) => brokenPromises(document, HOME_URL, 'get', answer))).toEqual([]);
  });

  it('renders the reference at /docs, with the headers every response carries', async () => {
    const page = await h().app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger');
    expect(page.headers['x-request-id']).toBeTruthy();
    expect(page.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self';");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const json = await h().app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json()).toEqual(await reference());
  });
});
