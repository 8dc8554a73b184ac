import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OpenApiContract } from '../openapi/test-support/openapi-contract.js';
import { openApiPath } from '../openapi/test-support/reference-gaps.js';
import {
  blockDocument,
  blockRequest,
  endPlayerSessionsRequest,
  endSessionRequest,
} from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { apiKeyFor, keyWithoutRights } from '../test-support/v3-requests.js';
import { ROLE_ADMIN } from '../users/api-user.js';

type JsonObject = Record<string, unknown>;

describe.each(DIALECTS)('the API reference of session control on %s', (dialect) => {
  const h = useHarness(dialect);

  /** Where an answer breaks the reference: its status, body or an error code none of its examples has. */
  const broken = (document: JsonObject, method: string, url: string, answer: LightMyRequestResponse) => {
    const violations = new OpenApiContract(document).violations(method, url, answer);
    if (answer.body === '' || !answer.json().errors) return violations;
    const item = (document.paths as JsonObject)[openApiPath(url)] as JsonObject;
    const response = ((item[method] as JsonObject).responses as JsonObject)[
      String(answer.statusCode)
    ] as JsonObject;
    const examples = Object.values(
      ((response.content as JsonObject)['application/vnd.api+json'] as JsonObject).examples as JsonObject,
    ) as { value: { errors: { code: string }[] } }[];
    const documented = new Set(
      examples.flatMap((example) => example.value.errors.map((error) => error.code)),
    );
    const codes = (answer.json().errors as { code: string }[]).map((error) => error.code);
    return [
      ...violations,
      ...codes.filter((code) => !documented.has(code)).map((code) => `${method} ${url} ${code}`),
    ];
  };

  it('promises exactly what the routes answer, success and every error', async () => {
    const launched = await h().createSession('u-1', {});
    const id = launched.json().data.id as string;
    const { key } = await apiKeyFor(h(), { role: ROLE_ADMIN });
    const weak = await keyWithoutRights(h());
    const sessionAnswers = [
      await endSessionRequest(h(), id),
      await endSessionRequest(h(), id, { sign: 'f'.repeat(64) }),
      await endSessionRequest(h(), id, { apiKey: 'plk_nope' }),
      await endSessionRequest(h(), id, { apiKey: weak }),
      await endSessionRequest(h(), '0'.repeat(32)),
      await endSessionRequest(h(), id, { apiKey: key, clientId: null }),
      await endSessionRequest(h(), id, { body: 'x', contentType: 'text/plain' }),
    ];
    expect(sessionAnswers.map((answer) => answer.statusCode)).toEqual([204, 400, 401, 403, 404, 422, 415]);
    const playerAnswers = [
      await endPlayerSessionsRequest(h(), 'u-1'),
      await endPlayerSessionsRequest(h(), 'u-2'),
      await endPlayerSessionsRequest(h(), 'x'.repeat(65)),
      await endPlayerSessionsRequest(h(), 'u-1', { body: 'x', contentType: 'text/plain' }),
    ];
    expect(playerAnswers.map((answer) => answer.statusCode)).toEqual([200, 404, 422, 415]);
    const put = (body: unknown, options = {}) => blockRequest(h(), 'PUT', 'u-1', { body, ...options });
    const blockAnswers = [
      await put(blockDocument({ until: '2027-01-01T00:00:00Z', reason: 'fraud' })),
      await put({ x: 1 }),
      await put({ data: { type: 'Block' } }),
      await put('data=1', { contentType: 'application/x-www-form-urlencoded', sign: null }),
      await put(blockDocument({ until: 'soon' })),
      await blockRequest(h(), 'PUT', 'u-2', { body: blockDocument() }),
    ];
    expect(blockAnswers.map((answer) => answer.statusCode)).toEqual([200, 400, 409, 415, 422, 404]);
    const reads = [await blockRequest(h(), 'GET', 'u-1'), await blockRequest(h(), 'GET', 'u-2')];
    const lifts = [
      await blockRequest(h(), 'DELETE', 'u-1'),
      await blockRequest(h(), 'DELETE', 'u-2'),
      await blockRequest(h(), 'DELETE', 'u-1', { body: 'x', contentType: 'text/plain' }),
    ];
    expect(lifts.map((answer) => answer.statusCode)).toEqual([204, 404, 415]);
    const document = (await h().app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const problems = [
      ...sessionAnswers.flatMap((answer) =>
        broken(document, 'delete', '/apiweb/v3/game-sessions/:id', answer),
      ),
      ...playerAnswers.flatMap((answer) =>
        broken(document, 'delete', '/apiweb/v3/players/:playerId/sessions', answer),
      ),
      ...blockAnswers.flatMap((answer) =>
        broken(document, 'put', '/apiweb/v3/players/:playerId/block', answer),
      ),
      ...reads.flatMap((answer) => broken(document, 'get', '/apiweb/v3/players/:playerId/block', answer)),
      ...lifts.flatMap((answer) => broken(document, 'delete', '/apiweb/v3/players/:playerId/block', answer)),
    ];
    expect(problems).toEqual([]);
  });

  it('takes, in its reference, every block document the service takes: an until of null too', async () => {
    await h().createSession('u-1', {});
    const document = (await h().app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = (
      (document.paths as JsonObject)[openApiPath('/apiweb/v3/players/:playerId/block')] as JsonObject
    ).put as JsonObject;
    const content = (operation.requestBody as { content: Record<string, { schema: unknown }> }).content;
    const contract = new OpenApiContract(document);
    for (const attributes of [{ until: null, reason: 'fraud' }, { until: '2099-01-01T00:00:00Z' }, {}]) {
      const body = blockDocument(attributes);
      const answer = await blockRequest(h(), 'PUT', 'u-1', { body });
      expect(answer.statusCode, JSON.stringify(attributes)).toBe(200);
      for (const [mediaType, media] of Object.entries(content)) {
        expect(contract.schemaViolations(mediaType, media.schema, JSON.stringify(body))).toEqual([]);
      }
    }
  });
});
