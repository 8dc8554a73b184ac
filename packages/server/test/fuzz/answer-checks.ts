import { ERROR_CODES } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { V2_CREATE_SESSION_URL } from '../../src/launch/v2/v2.routes.js';
import type { FuzzRequest } from './fuzz-requests.js';
import { type FuzzWorld, SECRETS } from './fuzz-world.js';

/** The spec's two v2 business errors: the only 5xx the service may answer (docs/design.md §4, §9). */
const BUSINESS_500 = new Set(['username_exists', 'username_too_long']);
const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** What no body may show: a stack frame, a file of ours or a package's, SQL or a driver's words. */
const INTERNALS = [
  /\bat [\w.<>]+ \(/,
  /node_modules/,
  /\.[tj]s:\d+/,
  /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/,
  /SQLITE_|sqlite3?|postgres|pg_|syntax error at|relation "|violates .* constraint|invalid input syntax/i,
];

/** The titles of the console's message pages (console.routes.ts and its pages): each says what went wrong. */
const CONSOLE_MESSAGES =
  /<h1>(Refused|Not understood|Not allowed|Not found|No such client|No such player|Unavailable|Already added|Already rotated)<\/h1>\s*<p>[^<]{10,}/;

/**
 * Every way a console answer breaks its promises (docs/console.md): X-Request-Id; no 5xx; a redirect
 * within the console, or an HTML page with the console's policy whose error, if it is one, is said on
 * the page (a message page, or a form's error beside its field or at its top); what was typed shown
 * escaped, never run; no client secret of the world's and no API key; no internals.
 */
export function consoleBrokenPromises(
  world: FuzzWorld,
  request: FuzzRequest,
  answer: LightMyRequestResponse,
): string[] {
  const problems: string[] = requestIdProblems(answer);
  if (answer.statusCode >= 500) problems.push(`undocumented ${answer.statusCode}`);
  for (const pattern of INTERNALS.slice(0, 3))
    if (pattern.test(answer.body)) problems.push(`body shows internals: ${pattern}`);
  for (const secret of [...Object.values(SECRETS), ...Object.values(world.apiKeys)]) {
    if (answer.body.includes(secret)) problems.push('body shows a secret or API key');
  }
  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    const location = String(answer.headers.location ?? '');
    if (!location.startsWith('/console')) problems.push(`redirect out of the console: ${location}`);
    if (request.wellFormed && location.startsWith('/console/sign-in'))
      problems.push('a well-formed form signed out');
    return problems;
  }
  if (!String(answer.headers['content-type']).startsWith('text/html')) {
    problems.push(`answer is ${String(answer.headers['content-type'])}, not a page`);
  }
  if (answer.headers['content-security-policy'] === undefined) problems.push('page without its policy');
  if (/<script|<img/i.test(answer.body)) problems.push('page shows markup it was sent');
  if ((answer.statusCode === 413 || answer.statusCode === 415) && answer.body.includes('could not be read')) {
    problems.push(`a ${answer.statusCode} page that does not say why the form could not be read`);
  }
  if (
    answer.statusCode >= 400 &&
    !CONSOLE_MESSAGES.test(answer.body) &&
    !/class="(error|notice)"/.test(answer.body)
  ) {
    problems.push(`error ${answer.statusCode} without a message: ${answer.body.match(/<h1>[^<]*/)?.[0]}`);
  }
  return problems;
}

/** Errors raised before a route is chosen: documented for the API as a whole, not per operation. */
function answeredBeforeRoute(document: { errors?: { code?: string; detail?: string }[] }): boolean {
  const [first] = document.errors ?? [];
  return (
    first?.code === 'method_not_allowed' ||
    first?.code === 'uri_too_long' ||
    (first?.code === 'not_found' && first.detail?.startsWith('No route for') === true) ||
    (first?.code === 'bad_request' && /percent-encoding|Host header|query string/.test(first.detail ?? ''))
  );
}

/**
 * Every way `answer` breaks the service's promises for `request`; empty when it keeps them all:
 * X-Request-Id, no undocumented 5xx, every error a JSON:API document with its request id and known codes,
 * nothing internal or secret in the body, and the OpenAPI contract of the operation.
 */
export function brokenPromises(
  world: FuzzWorld,
  request: FuzzRequest,
  answer: LightMyRequestResponse,
): string[] {
  const problems: string[] = requestIdProblems(answer);
  for (const pattern of INTERNALS)
    if (pattern.test(answer.body)) problems.push(`body shows internals: ${pattern}`);
  for (const secret of [...Object.values(SECRETS), ...Object.values(world.apiKeys)]) {
    if (answer.body.includes(secret)) problems.push('body shows a secret or API key');
  }
  if (answer.statusCode < 400 || request.method === 'HEAD') {
    if (request.route) problems.push(...world.contract.violations(request.method, request.route, answer));
    return problems;
  }

  let document: {
    errors?: { status?: unknown; code?: string; detail?: string }[];
    meta?: { requestId?: unknown };
  };
  try {
    document = JSON.parse(answer.body);
  } catch {
    return [...problems, `error ${answer.statusCode} is not JSON: ${answer.body.slice(0, 80)}`];
  }
  if (answer.headers['content-type'] !== 'application/vnd.api+json') {
    problems.push(`error ${answer.statusCode} is ${String(answer.headers['content-type'])}`);
  }
  const codes = (document.errors ?? []).map((error) => error.code ?? '');
  if (codes.length === 0) problems.push('error document without errors');
  for (const code of codes) if (!KNOWN_CODES.has(code)) problems.push(`unknown error code ${code}`);
  if (document.meta?.requestId !== answer.headers['x-request-id'])
    problems.push('meta.requestId differs from X-Request-Id');
  if (answer.statusCode >= 500) {
    const business =
      request.route === V2_CREATE_SESSION_URL &&
      answer.statusCode === 500 &&
      codes.every((code) => BUSINESS_500.has(code));
    if (!business) problems.push(`undocumented ${answer.statusCode}: ${codes.join(', ')}`);
  }
  problems.push(
    ...(request.route && !answeredBeforeRoute(document)
      ? world.contract.violations(request.method, request.route, answer)
      : world.contract.schemaViolations(
          `${request.method} ${answer.statusCode}`,
          { $ref: '#/components/schemas/ErrorDocument' },
          answer.body,
        )),
  );
  return problems;
}

/** Remembers what a successful answer handed out, for later cases to use (and misuse). */
export function collectHandouts(world: FuzzWorld, answer: LightMyRequestResponse): void {
  if (answer.statusCode !== 200 && answer.statusCode !== 201) return;
  if (answer.headers['content-type'] !== 'application/vnd.api+json') return;
  // A HEAD's answer has the GET's headers and no body.
  if (answer.body === '') return;
  const data = (JSON.parse(answer.body) as { data?: { id?: unknown; attributes?: { auth?: unknown } } }).data;
  if (typeof data?.attributes?.auth === 'string') world.tokens.push(data.attributes.auth);
  if (typeof data?.id === 'string' && data.id.startsWith('/apiweb/')) {
    world.gameSessionIds.push(data.id.split('/').pop() ?? '');
  } else if (typeof data?.id === 'string' && /^[0-9a-f]{32}$/.test(data.id)) {
    // v2's data.id: the read-back answers it 404, session control ends it (docs/integration.md).
    world.gameSessionIds.push(data.id);
  }
}

/**
 * What a refused request must leave as it was: the sessions ended, the players' blocks, the webhook
 * deliveries waiting, the audit log (every change of the console is audited), the clients, webhook
 * endpoints, API users and settings. Counts and latest times: cheap on a store of thousands of rows.
 */
export async function storeDigest(world: FuzzWorld): Promise<string> {
  const { db } = world;
  const [sessions, players, deliveries, audit, clients, endpoints, users, settings] = await Promise.all([
    db
      .selectFrom('sessions')
      .select((eb) => [eb.fn.count('revoked_at').as('n'), eb.fn.max('revoked_at').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('players')
      .select((eb) => [eb.fn.count('blocked_at').as('n'), eb.fn.max('updated_at').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('clients')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('webhook_endpoints')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('api_users')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('revoked_at').as('revoked')])
      .executeTakeFirst(),
    db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute(),
  ]);
  // Counts come back as numbers from SQLite and as strings from PostgreSQL.
  return JSON.stringify(
    [sessions, players, deliveries, audit, clients, endpoints, users, settings],
    (_key, value) => (typeof value === 'bigint' || typeof value === 'number' ? String(value) : value),
  );
}

/** Every answer carries an X-Request-Id of the documented form. */
function requestIdProblems(answer: LightMyRequestResponse): string[] {
  const requestId = answer.headers['x-request-id'];
  return typeof requestId === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(requestId)
    ? []
    : [`X-Request-Id missing or malformed: ${String(requestId)}`];
}
