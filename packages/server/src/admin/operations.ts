import { urlWithoutQuery } from '../http/url-without-query.js';
import type { AdminResult } from './admin-result.js';
import {
  addApiUserChange,
  bindApiUserClientsChange,
  describeBinding,
  revokeApiUserChange,
} from './api-user-admin.js';
import {
  type Admin,
  type AuditDescription,
  audited,
  describeInput,
  NOTHING_CHANGED,
  recordDone,
} from './audited.js';
import {
  addClient as addClientChange,
  changeClient,
  disableClient as disableClientChange,
} from './client-admin.js';
import {
  type ClientChanges,
  type ClientProtectionChanges,
  isProtectionOnly,
  pickProtection,
} from './client-changes.js';
import {
  disableCurrencies as disableCurrenciesChange,
  enableCurrencies as enableCurrenciesChange,
} from './currency-admin.js';
import {
  addOperatorChange,
  changeOperatorPasswordChange,
  disableOperatorChange,
  enableOperatorChange,
} from './operator-admin.js';
import { registerPlayer } from './player-admin.js';
import { erasePlayer as erasePlayerChange, PERSONAL_COLUMNS } from './player-erase.js';
import * as control from './session-control-admin.js';
import { changeSettings as changeSettingsChange } from './setting-admin.js';
import * as webhooks from './webhook-admin.js';

/**
 * Every administrative change the CLI and the console make, each recorded in the audit log with the
 * change (admin/audited.ts). The admin entry (`@poker-launch/server/admin`) offers changes only from
 * here, so neither front end can make one unrecorded.
 */

export interface ClientChangeInput {
  id: string;
  changes: ClientChanges;
}

export const addClient = audited('client.add', (db, { id, changes }: ClientChangeInput, now) =>
  addClientChange(db, id, changes, now),
);
/**
 * A client change's records: none when no field differed from the stored client; else one for each kind of
 * change it made, under the action that names that kind whichever tool made it, so that a search or a SIEM
 * rule for one action finds every change of its kind (docs/design.md, "Administrative changes"): an
 * enabling is `client.enable` (the console's Enable, `client update --enable`); a new secret is
 * `client.rotate-secret`, with whatever else changed with it; protection fields alone are
 * `client.protection`; anything else `client.update`. `client update --enable --url-poker …` writes
 * `client.enable` and `client.update`, in the one transaction of the change.
 */
function describeClientChange(
  { id }: { id: string },
  { changed }: { changed: ClientChanges },
): AuditDescription[] | typeof NOTHING_CHANGED {
  const { active, ...others } = changed;
  const records: AuditDescription[] = [];
  if (active !== undefined)
    records.push({ action: 'client.enable', ...describeInput({ id, changes: { active } }) });
  if (Object.keys(others).length > 0)
    records.push({ action: clientChangeAction(others), ...describeInput({ id, changes: others }) });
  return records.length === 0 ? NOTHING_CHANGED : records;
}

function clientChangeAction(changes: ClientChanges): string {
  if (typeof changes.secretKey === 'string') return 'client.rotate-secret';
  return isProtectionOnly(changes) ? 'client.protection' : 'client.update';
}

/**
 * Any change of a client but disabling, recorded by the kinds of change it made (describeClientChange):
 * the CLI's `client update`, whatever flags it is given, and the console's client form.
 */
export const updateClient = audited(
  'client.update',
  (db, { id, changes }: ClientChangeInput, now) => changeClient(db, id, changes, now),
  describeClientChange,
);
/**
 * Replay protection, signature schemes and the address allow-list alone (docs/design.md §11): how a
 * client's requests are checked, recorded apart from other updates. The console's launch-security form.
 */
export const protectClient = audited(
  'client.protection',
  (db, { id, changes }: { id: string; changes: ClientProtectionChanges }, now) =>
    changeClient(db, id, pickProtection(changes), now),
  describeClientChange,
);
/** A new secret, the one it replaces kept for an overlap: recorded apart from other updates. */
export const rotateClientSecret = audited(
  'client.rotate-secret',
  (db, { id, changes }: ClientChangeInput, now) => changeClient(db, id, changes, now),
  describeClientChange,
);
export const enableClient = audited(
  'client.enable',
  (db, { id }: { id: string }, now) => changeClient(db, id, { active: true }, now),
  describeClientChange,
);
export const disableClient = audited(
  'client.disable',
  (db, { id }: { id: string }, now) => disableClientChange(db, id, now),
  // Disabled already: recorded only when it ended live sessions still open.
  (input, { wasDisabled, revokedSessions }) =>
    wasDisabled && revokedSessions === 0 ? NOTHING_CHANGED : describeInput(input),
);

/** The currencies whose state changed; none (all were so already): no record. */
const describeCurrencies = (_input: unknown, { changed }: { changed: string[] }) =>
  changed.length === 0 ? NOTHING_CHANGED : { target: changed.join(' '), details: { codes: changed } };
export const enableCurrencies = audited('currency.enable', enableCurrenciesChange, describeCurrencies);
export const disableCurrencies = audited('currency.disable', disableCurrenciesChange, describeCurrencies);

export const changeSettings = audited('setting.change', changeSettingsChange, ({ values }) => ({
  target: Object.keys(values).join(' '),
  details: { values },
}));

export const addPlayer = audited('player.add', registerPlayer, (registration, player) => ({
  target: `${registration.clientId}/${registration.userId}`,
  details: {
    clientId: registration.clientId,
    userId: registration.userId,
    nick: registration.nick ?? null,
    playerId: player.id,
  },
}));

/**
 * Recorded with the clients and permissions as stored, each once and sorted as checkedBindings keeps them
 * (`--client demo --client demo` binds demo once), as `api-user.bind-clients` records them.
 */
export const addApiUser = audited('api-user.add', addApiUserChange, (input, { user }) =>
  describeInput({ ...input, permissions: user.permissions, clients: user.clients }),
);
// Revoked already: the first revocation stands, and nothing is recorded again.
export const revokeApiUser = audited('api-user.revoke', revokeApiUserChange, (input, { revokedBefore }) =>
  revokedBefore === null ? describeInput(input) : NOTHING_CHANGED,
);
/** Sets the clients a key may act for (replacing those it had): the CLI's `user update`, the console's API users page. */
export const bindApiUserClients = audited('api-user.bind-clients', bindApiUserClientsChange, describeBinding);

export const addOperator = audited('operator.add', addOperatorChange);
// Disabled (or enabled) already: recorded only when it ended console sessions still open.
export const disableOperator = audited('operator.disable', disableOperatorChange, (input, result) =>
  result.wasDisabled && result.endedSessions === 0 ? NOTHING_CHANGED : describeInput(input),
);
export const enableOperator = audited('operator.enable', enableOperatorChange, (input, { wasEnabled }) =>
  wasEnabled ? NOTHING_CHANGED : describeInput(input),
);
export const changeOperatorPassword = audited('operator.password', changeOperatorPasswordChange);

/** A client's player: the integrator's id (or ours, in internal player-id mode). */
export interface PlayerRef {
  clientId: string;
  userId: string;
}
const playerTarget = (input: PlayerRef) => `${input.clientId}/${input.userId}`;

export const revokeSession = audited('session.revoke', (db, { sessionId }: { sessionId: string }, now) =>
  control.revokeSession(db, sessionId, now),
);
export const revokePlayerSessions = audited(
  'player.revoke-sessions',
  (db, { clientId, userId }: PlayerRef, now) => control.revokePlayerSessions(db, clientId, userId, now),
  (input) => ({ target: playerTarget(input), details: { ...input } }),
);
export const blockPlayerAsOperator = audited(
  'player.block',
  (db, { clientId, userId, block }: PlayerRef & { block: control.OperatorBlock }, now) =>
    control.blockPlayerAsOperator(db, clientId, userId, block, now),
  // Blocked already, with the same end and reason: nothing written, nothing recorded.
  (input, { changed }) =>
    changed ? { target: playerTarget(input), details: { ...input } } : NOTHING_CHANGED,
);
export const unblockPlayerAsOperator = audited(
  'player.unblock',
  (db, { clientId, userId }: PlayerRef, now) => control.unblockPlayerAsOperator(db, clientId, userId, now),
  // Not blocked: nothing lifted, nothing recorded.
  (input, lifted) => (lifted ? { target: playerTarget(input), details: { ...input } } : NOTHING_CHANGED),
);

/**
 * An erasure request answered: recorded with what was removed, never the values removed. Erased already,
 * with nothing come back since: nothing written, nothing recorded.
 */
export const erasePlayer = audited('player.erase', erasePlayerChange, (input: PlayerRef, report) =>
  report.changed
    ? {
        target: playerTarget(input),
        details: {
          ...input,
          endedSessions: report.endedSessions,
          erasedColumns: [...PERSONAL_COLUMNS],
          scrubbedAuditRecords: report.scrubbedAuditRecords,
        },
      }
    : NOTHING_CHANGED,
);

type WebhookRules = Parameters<typeof webhooks.addWebhookEndpoint>[1];

export const addWebhookEndpoint = audited(
  'webhook.add',
  (
    db,
    {
      rules,
      ...input
    }: {
      rules: WebhookRules;
      clientId: string;
      url: string;
      events?: string | undefined;
      id?: string | undefined;
    },
    now,
  ) => webhooks.addWebhookEndpoint(db, rules, input, now),
  ({ clientId, url, events }, { endpoint }) => ({
    target: endpoint.id,
    details: { clientId, url: urlWithoutQuery(url), events: events ?? null },
  }),
);
export const changeWebhookEndpoint = audited(
  'webhook.update',
  (db, { rules, id, changes }: { rules: WebhookRules; id: string; changes: webhooks.WebhookChanges }, now) =>
    webhooks.changeWebhookEndpoint(db, rules, id, changes, now),
  ({ id }, { changed }) =>
    Object.keys(changed).length === 0
      ? NOTHING_CHANGED
      : {
          target: id,
          details: {
            ...changed,
            ...(changed.url === undefined ? {} : { url: urlWithoutQuery(changed.url) }),
          },
        },
);
/** Recorded with whose endpoint it was and where it sent (the URL without its query, as webhook.add). */
export const removeWebhookEndpoint = audited(
  'webhook.remove',
  (db, { id }: { id: string }) => webhooks.removeWebhookEndpoint(db, id),
  ({ id }, { clientId, url, pendingDropped }) => ({
    target: id,
    details: { id, clientId, url: urlWithoutQuery(url), pendingDropped },
  }),
);
export const redeliverWebhook = audited('webhook.redeliver', (db, { id }: { id: string }, now) =>
  webhooks.redeliverWebhook(db, id, now),
);

/**
 * Every failed delivery of an endpoint sent again, made since `since` if given: many short transactions
 * (webhook-admin.ts), recorded once when done, with the endpoint, the count and the since; nothing queued,
 * nothing recorded (docs/design.md, "Administrative changes").
 */
export async function redeliverFailedWebhooks(
  admin: Admin,
  { endpointId, since }: { endpointId: string; since?: Date | undefined },
): Promise<AdminResult<number>> {
  const queued = await webhooks.redeliverFailedWebhooks(admin.db, endpointId, since, admin.clock());
  if (queued.ok && queued.value > 0) {
    await recordDone(admin, 'webhook.redeliver', {
      target: endpointId,
      details: { endpointId, failed: true, redelivered: queued.value, since: since?.toISOString() ?? null },
    });
  }
  return queued;
}
