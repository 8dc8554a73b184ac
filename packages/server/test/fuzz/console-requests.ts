import fc from 'fast-check';
import { CONSOLE_PATH } from '../../src/console/console-session.js';
import { eventFieldName } from '../../src/console/pages/webhook-form.js';
import { defaultSettings, SETTING_NAMES } from '../../src/settings/settings.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/webhook-event.js';
import { consoleBrokenPromises } from './answer-checks.js';
import { encode, hostileJson, hostileText, remoteAddresses, requestIds } from './arbitraries.js';
import { type FuzzEndpoint, type FuzzRequest, fuzzHeaders, pick } from './fuzz-requests.js';
import type { FuzzWorld } from './fuzz-world.js';

/** What a form's field carries: its value, twice, nested (`name[x]=`), or nothing. */
type Sent = string | string[] | { x: string } | undefined;
interface FieldPlan {
  sent: Sent;
  /** Whether it is what the console's own form would send. */
  valid: boolean;
}

/** A field: what the form sends most of the time, else hostile text, the field twice, nested or absent. */
const field = (valid: fc.Arbitrary<string>): fc.Arbitrary<FieldPlan> =>
  fc.oneof(
    { weight: 12, arbitrary: valid.map((sent) => ({ sent, valid: true })) },
    { weight: 2, arbitrary: hostileText.map((sent) => ({ sent, valid: false })) },
    { weight: 1, arbitrary: fc.tuple(valid, hostileText).map((pair) => ({ sent: [...pair], valid: false })) },
    { weight: 1, arbitrary: valid.map((text) => ({ sent: { x: text }, valid: false })) },
    { weight: 1, arbitrary: fc.constant({ sent: undefined, valid: false }) },
  );
/** A field the form may leave out (a checkbox, an optional text). */
const optional = (valid: fc.Arbitrary<string>): fc.Arbitrary<FieldPlan> =>
  fc.oneof(
    { weight: 3, arbitrary: field(valid) },
    { weight: 1, arbitrary: fc.constant({ sent: undefined, valid: true }) },
  );

/**
 * `shown`, the fingerprint of what a form was filled from (form.ts): absent, as a form posted by hand
 * sends it, or one of no stored state (a 409 that saves nothing), or hostile.
 */
const shown: fc.Arbitrary<FieldPlan> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ sent: undefined, valid: true }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/).map((sent) => ({ sent, valid: false })) },
  { weight: 1, arbitrary: hostileText.map((sent) => ({ sent, valid: false })) },
);

/**
 * `once`, the add-endpoint form's one-time value (already-added.ts): absent, as a form posted by hand sends
 * it; one of two, so a case may send a form again (a 409 "Already added" that adds nothing); or hostile.
 */
const once: fc.Arbitrary<FieldPlan> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ sent: undefined, valid: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('0'.repeat(32), 'f'.repeat(32)).map((sent) => ({ sent, valid: false })),
  },
  { weight: 1, arbitrary: hostileText.map((sent) => ({ sent, valid: false })) },
);

const urls = fc.constantFrom('https://casino.example/poker', 'https://casino.example/r?x=1', '');
const lines = (arbitrary: fc.Arbitrary<string>) =>
  fc.array(arbitrary, { maxLength: 3 }).map((items) => items.join('\r\n'));

/** What each form names: a client, an endpoint, a player, a session, an API user, or nothing. */
type Target = 'client' | 'webhook' | 'player' | 'session' | 'api-user' | 'delivery' | 'none';

interface ConsoleForm {
  target: Target;
  /** The role the form needs (console-route.ts): admin, unless support may too. */
  role?: 'support';
  path(id: string, second: string): string;
  fields: Record<string, fc.Arbitrary<FieldPlan>>;
  /** Whether its well-formed request may still be refused (a key revoked before, a delivery not failed). */
  mayRefuse?: boolean;
}

const CLIENT_FIELDS = {
  'url-poker': optional(urls),
  'url-casinoLobby': optional(urls),
  'url-casino': optional(urls),
  'url-sport': optional(urls),
  'frame-origins': optional(
    lines(fc.constantFrom('https://casino.example', 'https://b.casino.example:8443')),
  ),
  'currency-mandatory': optional(fc.constantFrom('yes', 'no')),
};
const EVENT_FIELDS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [eventFieldName(type), optional(fc.constant('on'))]),
);
const SETTINGS = defaultSettings();

/** The console's state-changing forms (docs/console.md), by the routes of src/console/pages/. */
const FORMS: Record<string, ConsoleForm> = {
  'client create': {
    target: 'none',
    path: () => '/clients',
    fields: {
      id: field(fc.stringMatching(/^[a-z0-9]{10}$/).map((id) => `fz-${id}`)),
      signing: optional(fc.constantFrom('none', 'generate')),
      'player-ids': optional(fc.constantFrom('internal', 'external')),
      ...CLIENT_FIELDS,
    },
  },
  'client update': { target: 'client', path: (id) => `/clients/${id}`, fields: { ...CLIENT_FIELDS, shown } },
  'client protection': {
    target: 'client',
    path: (id) => `/clients/${id}/protection`,
    fields: {
      'replay-protection': field(fc.constantFrom('off', 'accept')),
      'replay-window': field(fc.constantFrom('300', '60', '3600')),
      signature: field(fc.constantFrom('legacy', 'both')),
      'allowed-addresses': optional(lines(fc.constantFrom('203.0.113.0/24', '2001:db8::/32', '127.0.0.1'))),
      shown,
    },
  },
  'client rotate': {
    target: 'client',
    path: (id) => `/clients/${id}/rotate`,
    fields: { 'overlap-hours': field(fc.constantFrom('0', '1', '24')) },
  },
  'client disable': { target: 'client', path: (id) => `/clients/${id}/disable`, fields: {} },
  'client enable': { target: 'client', path: (id) => `/clients/${id}/enable`, fields: {} },
  'webhook add': {
    target: 'client',
    path: (id) => `/clients/${id}/webhooks`,
    fields: {
      url: field(
        fc.constantFrom('https://hooks.casino.example/a', 'https://hooks.casino.example:8443/b?t=1'),
      ),
      ...EVENT_FIELDS,
      once,
    },
  },
  'webhook update': {
    target: 'webhook',
    path: (id) => `/webhooks/${id}`,
    fields: { url: field(fc.constantFrom('https://hooks.casino.example/c')), ...EVENT_FIELDS, shown },
  },
  'webhook disable': { target: 'webhook', path: (id) => `/webhooks/${id}/disable`, fields: {} },
  'webhook enable': { target: 'webhook', path: (id) => `/webhooks/${id}/enable`, fields: {} },
  'webhook rotate': { target: 'webhook', path: (id) => `/webhooks/${id}/rotate`, fields: {} },
  'webhook remove': { target: 'webhook', path: (id) => `/webhooks/${id}/remove`, fields: {} },
  'webhook redeliver': {
    target: 'delivery',
    path: (id, delivery) => `/webhooks/${id}/deliveries/${delivery}/redeliver`,
    fields: {},
    mayRefuse: true,
  },
  'player block': {
    target: 'player',
    path: (id) => `/players/${id}/block`,
    fields: {
      until: optional(fc.constantFrom('2099-01-01T00:00:00Z', '2099-06-30T12:00:00+02:00')),
      reason: optional(fc.constantFrom('self-exclusion', 'Zoë asked', 'x'.repeat(200))),
    },
  },
  'player unblock': { target: 'player', path: (id) => `/players/${id}/unblock`, fields: {} },
  'player end sessions': {
    target: 'player',
    role: 'support',
    path: (id) => `/players/${id}/end-sessions`,
    fields: {},
  },
  'session end': {
    target: 'session',
    role: 'support',
    path: (id) => `/sessions/${id}/end`,
    fields: { back: optional(fc.constantFrom('/console/sessions', '/console/sessions?client=demo')) },
  },
  currency: {
    target: 'none',
    path: () => '/currencies',
    fields: {
      code: field(fc.constantFrom('USD', 'GBP', 'jpy')),
      action: optional(fc.constantFrom('activate', 'deactivate')),
    },
  },
  settings: {
    target: 'none',
    path: () => '/settings',
    fields: {
      ...Object.fromEntries(SETTING_NAMES.map((name) => [name, field(fc.constant(String(SETTINGS[name])))])),
      shown,
    },
  },
  'api user add': {
    target: 'none',
    path: () => '/api-users',
    fields: {
      name: field(fc.stringMatching(/^[a-z0-9]{10}$/).map((name) => `fz-${name}`)),
      access: optional(fc.constantFrom('admin', 'create')),
      clients: field(fc.constantFrom('demo', 'demo, strict')),
    },
  },
  'api user revoke': {
    target: 'api-user',
    path: (name) => `/api-users/${name}/revoke`,
    fields: {},
    mayRefuse: true,
  },
};

const formPlans = fc.oneof(
  ...Object.entries(FORMS).map(([name, form]) =>
    fc.record({ form: fc.constant(name), fields: fc.record(form.fields) }),
  ),
);

/** How the request proves it comes from the console's own page, and who sends it. */
const csrfChoice = fc.oneof(
  { weight: 10, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('missing', 'wrong', 'twice', 'upper', 'hostile') },
);
const originChoice = fc.oneof(
  { weight: 10, arbitrary: fc.constant('public') },
  { weight: 1, arbitrary: fc.constantFrom('host', 'missing', 'null', 'evil', 'hostile') },
);
const cookieChoice = fc.oneof(
  { weight: 14, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('none', 'made-up', 'twice', 'hostile') },
);
const encodingChoice = fc.oneof(
  { weight: 12, arbitrary: fc.constant('form') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'json',
      'text',
      'multipart',
      'raw',
      'none',
      'form-as-json',
      'bad-escape',
      'deep',
      'huge',
      'many',
      'charset',
    ),
  },
);
const targetChoice = fc.oneof(
  { weight: 8, arbitrary: fc.constant('known') },
  { weight: 1, arbitrary: fc.constantFrom('made-up', 'hostile', 'foreign') },
);

/** The rows a form can name, as the store has them now (the fuzz adds and removes some). */
async function targetsOf(world: FuzzWorld, target: Target): Promise<[string, string][]> {
  const { db } = world;
  switch (target) {
    case 'client':
      // Not `open`: the suite's last test launches with it.
      return (
        await db.selectFrom('clients').select('id').where('id', '!=', 'open').orderBy('id').execute()
      ).map((row) => [row.id, '']);
    case 'webhook':
      return (await db.selectFrom('webhook_endpoints').select('id').orderBy('id').execute()).map((row) => [
        row.id,
        '',
      ]);
    case 'player':
      return world.players.map((player) => [player.id, '']);
    case 'session':
      return (await db.selectFrom('sessions').select('id').orderBy('id').limit(40).execute()).map((row) => [
        row.id,
        '',
      ]);
    case 'api-user':
      return (await db.selectFrom('api_users').select('name').orderBy('name').execute()).map((row) => [
        row.name,
        '',
      ]);
    case 'delivery':
      return (
        await db
          .selectFrom('webhook_deliveries')
          .select(['endpoint_id', 'id'])
          .orderBy('id')
          .limit(40)
          .execute()
      ).map((row) => [row.endpoint_id, row.id]);
    default:
      return [['', '']];
  }
}

/** The form as `application/x-www-form-urlencoded`, a field twice or nested as a browser never sends. */
function formBody(values: Record<string, Sent>): string {
  const pairs: string[] = [];
  for (const [name, sent] of Object.entries(values)) {
    if (sent === undefined) continue;
    if (typeof sent === 'string') pairs.push(`${encode(name)}=${encode(sent)}`);
    else if (Array.isArray(sent)) for (const value of sent) pairs.push(`${encode(name)}=${encode(value)}`);
    else pairs.push(`${encode(name)}%5Bx%5D=${encode(sent.x)}`);
  }
  return pairs.join('&');
}

/**
 * The console's state-changing forms, posted by a signed-in admin (or support, whose admin forms must all
 * be refused): the fields as the page sends them or
 * hostile, twice or nested; the CSRF token, Origin and session cookie right or wrong; another media type,
 * or none; and rows that exist, do not, or are named by hostile text.
 */
export const consoleRequests: FuzzEndpoint<ConsolePlan> = {
  checksStore: true,
  answerCheck: consoleBrokenPromises,
  plans: fc.record({
    form: formPlans,
    known: fc.nat(),
    target: targetChoice,
    madeUp: hostileText,
    csrf: csrfChoice,
    origin: originChoice,
    cookie: cookieChoice,
    support: fc.oneof(
      { weight: 8, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    encoding: encodingChoice,
    raw: fc.oneof(
      hostileText,
      hostileJson.map((value) => JSON.stringify(value) ?? ''),
    ),
    requestId: requestIds,
    remoteAddress: remoteAddresses,
  }) as fc.Arbitrary<ConsolePlan>,
  async build(plan, world): Promise<FuzzRequest> {
    const form = FORMS[plan.form.form] as ConsoleForm;
    // Mostly the admin; sometimes support, whose every admin form must be refused.
    const role = plan.support ? 'support' : 'admin';
    const session = world.console[role] ?? (await world.signInToConsole(role));
    const nobody: [string, string] = ['fz-nobody', 'msg_nobody'];
    let ids = nobody;
    if (plan.target === 'known' || plan.target === 'foreign') {
      const rows = await targetsOf(world, form.target);
      // Foreign: a row of another kind (a client's id where an endpoint's goes, a session's for a player).
      const other =
        plan.target === 'foreign'
          ? await targetsOf(world, form.target === 'client' ? 'session' : 'client')
          : rows;
      ids = pick(other, plan.known) ?? ids;
    } else if (plan.target === 'hostile') {
      ids = [plan.madeUp, plan.madeUp];
    }
    const values: Record<string, Sent> = {};
    for (const [name, sent] of Object.entries(plan.form.fields)) values[name] = sent.sent;
    const csrf = {
      valid: session.csrf,
      missing: undefined,
      wrong: 'f'.repeat(64),
      twice: [session.csrf, session.csrf],
      upper: session.csrf.toUpperCase(),
      hostile: plan.madeUp,
    }[plan.csrf];
    const body = formBody({ _csrf: csrf, ...values });
    const cookie = {
      valid: session.cookie,
      none: undefined,
      'made-up': 'A'.repeat(43),
      twice: `${session.cookie}; poker_launch_console=${'B'.repeat(43)}`,
      hostile: encode(plan.madeUp),
    }[plan.cookie];
    const origin = {
      public: 'https://poker.test',
      host: 'http://localhost:80',
      missing: undefined,
      null: 'null',
      evil: 'https://poker.test.evil.example',
      hostile: plan.madeUp,
    }[plan.origin];
    const [contentType, payload] = {
      form: ['application/x-www-form-urlencoded', body],
      json: ['application/json', JSON.stringify({ _csrf: csrf, ...values })],
      'form-as-json': ['application/json', body],
      text: ['text/plain', body],
      multipart: ['multipart/form-data; boundary=x', body],
      raw: ['application/x-www-form-urlencoded', plan.raw],
      none: [undefined, undefined],
      // A byte that is not UTF-8 once decoded, a truncated escape.
      'bad-escape': ['application/x-www-form-urlencoded', `${body}&reason=%FF%FE&until=%E0%A4%A`],
      deep: ['application/x-www-form-urlencoded', `${body}&a${'[a]'.repeat(40)}=1`],
      // Over the body limit (64 KiB), and more fields than a form may carry (1000).
      huge: ['application/x-www-form-urlencoded', `${body}&reason=${'x'.repeat(70_000)}`],
      many: ['application/x-www-form-urlencoded', `${body}${'&f=1'.repeat(1001)}`],
      charset: ['application/x-www-form-urlencoded; charset=utf-16le', body],
    }[plan.encoding] as [string | undefined, string | undefined];
    const wellFormed =
      !form.mayRefuse &&
      plan.target === 'known' &&
      // A row to name: the fuzz may have removed every endpoint.
      (form.target === 'none' || ids !== nobody) &&
      plan.csrf === 'valid' &&
      plan.origin === 'public' &&
      plan.cookie === 'valid' &&
      plan.encoding === 'form' &&
      Object.values(plan.form.fields).every((sent) => sent.valid) &&
      (!plan.support || form.role === 'support');
    return {
      method: 'POST',
      url: `${CONSOLE_PATH}${form.path(encode(ids[0]), encode(ids[1]))}`,
      wellFormed,
      // Support signed in, an admin's form: a 403, whatever else the request holds.
      mustRefuse: plan.support && form.role === undefined && plan.cookie === 'valid',
      headers: fuzzHeaders({
        'content-type': contentType,
        cookie: cookie === undefined ? undefined : `poker_launch_console=${cookie}`,
        origin,
        'x-request-id': plan.requestId,
      }),
      payload,
      // A well-formed request from the proxy's address: pages count against the caller's address.
      remoteAddress: wellFormed ? '127.0.0.1' : plan.remoteAddress,
    };
  },
};

interface ConsolePlan {
  form: { form: string; fields: Record<string, FieldPlan> };
  known: number;
  target: string;
  madeUp: string;
  csrf: 'valid' | 'missing' | 'wrong' | 'twice' | 'upper' | 'hostile';
  origin: 'public' | 'host' | 'missing' | 'null' | 'evil' | 'hostile';
  cookie: 'valid' | 'none' | 'made-up' | 'twice' | 'hostile';
  support: boolean;
  encoding:
    | 'form'
    | 'json'
    | 'text'
    | 'multipart'
    | 'raw'
    | 'none'
    | 'form-as-json'
    | 'bad-escape'
    | 'deep'
    | 'huge'
    | 'many'
    | 'charset';
  raw: string;
  requestId: string | undefined;
  remoteAddress: string;
}
