import type { FastifyReply } from 'fastify';
import type { AdminResult } from '../../admin/admin-result.js';
import { fail } from '../../admin/admin-result.js';
import type { ChangeCondition } from '../../admin/audited.js';
import {
  addWebhookEndpoint,
  changeWebhookEndpoint,
  redeliverWebhook,
  removeWebhookEndpoint,
} from '../../admin/operations.js';
import {
  lastAnswer,
  listWebhookDeliveries,
  PENDING_COUNT_CAP,
  toWebhookEndpointJson,
  type WebhookEndpointJson,
} from '../../admin/webhook-admin.js';
import type { AppContext } from '../../app-context.js';
import { hasAuditRecord } from '../../audit/audit.repository.js';
import { findClient, findClientForUpdate } from '../../clients/client.repository.js';
import { urlWithoutQuery } from '../../http/url-without-query.js';
import { countPendingDeliveries, findDelivery } from '../../webhooks/delivery.repository.js';
import {
  findWebhookEndpoint,
  findWebhookEndpointForUpdate,
  listWebhookEndpoints,
} from '../../webhooks/webhook-endpoint.repository.js';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/webhook-event.js';
import { ALREADY_ADDED, newOnce, onceOf, sendAlreadyAdded } from '../already-added.js';
import { sendAlreadyRotated } from '../already-rotated.js';
import { isConfirmed, sendConfirmation } from '../confirm.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import {
  CHANGED_MEANWHILE,
  changedSinceShown,
  fingerprintOf,
  formOf,
  idPageOf,
  ownEntry,
  pathParam,
  queryString,
  refusedAsChanged,
  textField,
  unchangedSinceShown,
} from '../form.js';
import { format, sendPage } from '../render.js';
import { sentence } from './client-form.js';
import { frame } from './clients.page.js';
import { eventFieldName, readWebhookForm, type WebhookForm, webhookChangesOf } from './webhook-form.js';

const CLIENTS = '/console/clients';
const WEBHOOKS = '/console/webhooks';

/** The notice of a change: `unchanged` when the endpoint was already so (nothing written or recorded). */
const doneOf = ({ changed }: { changed: object }, done: string): string =>
  Object.keys(changed).length === 0 ? 'unchanged' : done;

/** What a change just done says on the endpoint's page (`?done=…`). */
const DONE: Record<string, string> = {
  updated: 'Saved.',
  unchanged: 'Nothing changed: the endpoint was already so.',
  enabled: 'Enabled: new events are delivered to it again.',
  disabled: 'Disabled: no event is delivered to it, and its pending deliveries were marked failed.',
  redelivered: 'The delivery is sent again, from now, with the same webhook-id.',
};

/**
 * A client's webhook endpoints: the list, a new one (its secret shown once), each endpoint's URL and
 * events, its state, its secret's rotation, its removal, and its deliveries, failed ones sent again.
 * Changes through the operations the `webhook` CLI commands use (admin/operations.ts), so each is
 * recorded in the audit log; admin only. Support reads everything here but a secret, which no page
 * shows again anyway.
 */
export function webhookRoutes(context: AppContext): ConsoleRoute[] {
  const rules = context.config;
  const now = () => context.clock();

  const clientWebhooksPage = async (
    reply: FastifyReply,
    signedIn: SignedIn,
    clientId: string,
    extra: { form?: WebhookForm; errors?: Record<string, string>; notice?: string | undefined } = {},
    status = 200,
  ) => {
    const client = await findClient(context.db, clientId);
    if (!client) return notFound(reply, signedIn, `No client "${clientId}".`, CLIENTS);
    const endpoints = (await listWebhookEndpoints(context.db, clientId)).map((endpoint) =>
      asSeenBy(signedIn, toWebhookEndpointJson(endpoint, now())),
    );
    return sendPage(
      reply,
      'webhooks',
      {
        title: `Webhook endpoints of ${clientId}`,
        ...frame(signedIn),
        client,
        endpoints,
        form: extra.form ?? { url: '', events: [...WEBHOOK_EVENT_TYPES] },
        // The add form's one-time value: sent again, it adds nothing (already-added.ts).
        once: newOnce(),
        errors: extra.errors ?? {},
        notice: extra.notice,
        eventTypes: WEBHOOK_EVENT_TYPES,
        eventFieldName,
      },
      status,
    );
  };

  const endpointPage = async (
    reply: FastifyReply,
    signedIn: SignedIn,
    query: Record<string, unknown>,
    endpointId: string,
    extra: { form?: WebhookForm; errors?: Record<string, string>; notice?: string | undefined } = {},
    status = 200,
  ) => {
    const stored = await findWebhookEndpoint(context.db, endpointId);
    if (!stored) return notFound(reply, signedIn, `No webhook endpoint "${endpointId}".`, CLIENTS);
    const endpoint = toWebhookEndpointJson(stored, now());
    const failedOnly = textField(query, 'failed', 3) === 'yes';
    const deliveries = await idPageOf(query, async (window) => {
      const listed = await listWebhookDeliveries(context.db, endpoint.id, failedOnly, window);
      return listed.ok ? listed.value : [];
    });
    const base = `${WEBHOOKS}/${encodeURIComponent(endpoint.id)}`;
    return sendPage(
      reply,
      'webhook',
      {
        title: `Webhook endpoint ${endpoint.id}`,
        ...frame(signedIn),
        endpoint: asSeenBy(signedIn, endpoint),
        base,
        form: extra.form ?? storedForm(endpoint),
        shown: fingerprintOf(storedForm(endpoint)),
        // What the rotate form carries: a rotation sent again (a reload of the new secret's page) is refused.
        secretShown: fingerprintOf(signedIn.secretVersion(stored.secret)),
        errors: extra.errors ?? {},
        notice: extra.notice,
        eventTypes: WEBHOOK_EVENT_TYPES,
        eventFieldName,
        deliveries: deliveries.rows.map((delivery) => ({ ...delivery, lastAnswer: lastAnswer(delivery) })),
        failedOnly,
        pager: {
          page: deliveries.page,
          hasNext: deliveries.hasNext,
          newer: deliveries.newer,
          href: (n: number) =>
            `${base}${queryString({ failed: failedOnly ? 'yes' : undefined, ...deliveries.linkTo(n) })}`,
        },
      },
      status,
    );
  };

  /**
   * The add and save forms: the form read and checked, then `save` run with its URL and events; a
   * problem beside its field, or what `save` refused above the form, shows on the page `again`, with
   * everything typed kept (422); else `saved`.
   */
  const submitWebhookForm = async <T>(
    body: unknown,
    again: (
      shown: { form: WebhookForm; errors: Record<string, string> },
      status?: number,
    ) => Promise<unknown>,
    save: (checked: { url: string; events: string }) => Promise<AdminResult<T>>,
    saved: (value: T) => unknown,
    alreadyAdded?: () => Promise<unknown>,
  ) => {
    const form = readWebhookForm(formOf(body));
    const checked = webhookChangesOf(form, rules);
    if (!checked.ok) return again({ form, errors: checked.errors });
    const done = await save(checked);
    if (refusedAsChanged(done)) return again({ form, errors: { form: CHANGED_MEANWHILE } }, 409);
    if (!done.ok && done.reason === ALREADY_ADDED && alreadyAdded) return alreadyAdded();
    if (!done.ok) return again({ form, errors: { form: sentence(done.reason) } });
    return saved(done.value);
  };

  /** Runs an endpoint change and goes back to its page saying what was done, or shows why not. */
  const changeAndReturn = async (
    reply: FastifyReply,
    signedIn: SignedIn,
    endpointId: string,
    changes: { enabled: boolean },
    done: string,
  ) => {
    const changed = await changeWebhookEndpoint(signedIn.admin, { rules, id: endpointId, changes });
    if (!changed.ok) return notFound(reply, signedIn, sentence(changed.reason), CLIENTS);
    return reply.redirect(
      signedIn.withNotice(
        `${WEBHOOKS}/${encodeURIComponent(endpointId)}?done=${doneOf(changed.value, done)}`,
      ),
      303,
    );
  };

  return [
    {
      method: 'GET',
      url: '/clients/:id/webhooks',
      role: 'support',
      handler: async (request, reply, signedIn) => {
        const removed = textField(formOf(request.query), 'removed', 64);
        return clientWebhooksPage(reply, signedIn, pathParam(request.params, 'id'), {
          notice: /^ep_[0-9a-f]{24}$/.test(removed)
            ? `Endpoint ${removed} removed, with its deliveries.`
            : undefined,
        });
      },
    },
    {
      method: 'POST',
      url: '/clients/:id/webhooks',
      role: 'admin',
      handler(request, reply, signedIn) {
        const clientId = pathParam(request.params, 'id');
        // The endpoint is named after the form's one-time value: the same form sent again finds it.
        const once = onceOf(formOf(request.body));
        const id = once === undefined ? undefined : `ep_${signedIn.onceId(clientId, once)}`;
        return submitWebhookForm(
          request.body,
          (again) => clientWebhooksPage(reply, signedIn, clientId, again, 422),
          ({ url, events }) =>
            addWebhookEndpoint(
              signedIn.admin,
              { rules, clientId, url, events, id },
              id === undefined ? undefined : notAddedYet(clientId, id),
            ),
          ({ endpoint, secret }) => secretPage(reply, signedIn, endpoint, secret, 'Endpoint added.', 201),
          async () => {
            const added = id === undefined ? undefined : await findWebhookEndpoint(context.db, id);
            return sendAlreadyAdded(reply, frame(signedIn), {
              what: 'endpoint',
              it: added
                ? `It added ${added.id}, which sends ${added.eventTypes.length === WEBHOOK_EVENT_TYPES.length ? 'every event' : added.eventTypes.join(', ')} to ${added.url}.`
                : `It added ${id}, which has been removed since.`,
              back: added
                ? `${WEBHOOKS}/${encodeURIComponent(added.id)}`
                : `${CLIENTS}/${encodeURIComponent(clientId)}/webhooks`,
            });
          },
        );
      },
    },
    {
      method: 'GET',
      url: '/webhooks/:id',
      role: 'support',
      handler: async (request, reply, signedIn) => {
        const query = formOf(request.query);
        return endpointPage(reply, signedIn, query, pathParam(request.params, 'id'), {
          notice: ownEntry(DONE, textField(query, 'done', 16)),
        });
      },
    },
    {
      method: 'POST',
      url: '/webhooks/:id',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const stored = await findWebhookEndpoint(context.db, id);
        if (
          stored &&
          changedSinceShown(formOf(request.body), storedForm(toWebhookEndpointJson(stored, now())))
        ) {
          const form = readWebhookForm(formOf(request.body));
          return endpointPage(reply, signedIn, {}, id, { form, errors: { form: CHANGED_MEANWHILE } }, 409);
        }
        return submitWebhookForm(
          request.body,
          (again, status = 422) => endpointPage(reply, signedIn, {}, id, again, status),
          ({ url, events }) =>
            changeWebhookEndpoint(
              signedIn.admin,
              { rules, id, changes: { url, events } },
              unchangedSinceShown(formOf(request.body), async (trx) => {
                const locked = await findWebhookEndpointForUpdate(trx, id);
                return locked && storedForm(toWebhookEndpointJson(locked, now()));
              }),
            ),
          (saved) =>
            reply.redirect(
              signedIn.withNotice(`${WEBHOOKS}/${encodeURIComponent(id)}?done=${doneOf(saved, 'updated')}`),
              303,
            ),
        );
      },
    },
    {
      method: 'POST',
      url: '/webhooks/:id/disable',
      role: 'admin',
      handler: (request, reply, signedIn) =>
        changeAndReturn(reply, signedIn, pathParam(request.params, 'id'), { enabled: false }, 'disabled'),
    },
    {
      method: 'POST',
      url: '/webhooks/:id/enable',
      role: 'admin',
      handler: (request, reply, signedIn) =>
        changeAndReturn(reply, signedIn, pathParam(request.params, 'id'), { enabled: true }, 'enabled'),
    },
    {
      method: 'POST',
      url: '/webhooks/:id/rotate',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const values = formOf(request.body);
        // As a client's rotation (clients.page.ts): a form shown before the secret last changed rotates
        // nothing, so the secret just shown once stays the one that signs. Judged in the rotation's own
        // transaction, the endpoint locked: no form to show again, so no check before it.
        const secretNow = (endpoint: { secret: string }) => signedIn.secretVersion(endpoint.secret);
        const rotated = await changeWebhookEndpoint(
          signedIn.admin,
          { rules, id, changes: { rotateSecret: true } },
          unchangedSinceShown(values, async (trx) => {
            const locked = await findWebhookEndpointForUpdate(trx, id);
            return locked && secretNow(locked);
          }),
        );
        if (refusedAsChanged(rotated)) {
          return sendAlreadyRotated(reply, frame(signedIn), {
            secret: `the signing secret of ${id}`,
            owner: 'endpoint',
            back: `${WEBHOOKS}/${encodeURIComponent(id)}`,
          });
        }
        if (!rotated.ok || rotated.value.secret === undefined)
          return notFound(
            reply,
            signedIn,
            sentence(rotated.ok ? 'no secret was made' : rotated.reason),
            CLIENTS,
          );
        const { endpoint, secret } = rotated.value;
        return secretPage(
          reply,
          signedIn,
          endpoint,
          secret,
          `The secret was replaced; until ${format.time(endpoint.previousSecretUntil)} every delivery is signed with the previous one too.`,
          200,
        );
      },
    },
    {
      method: 'POST',
      url: '/webhooks/:id/remove',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const endpoint = await findWebhookEndpoint(context.db, id);
        const values = formOf(request.body);
        if (!endpoint) return notFound(reply, signedIn, `No webhook endpoint "${id}".`, CLIENTS);
        if (!isConfirmed(values)) {
          // The pending ones counted up to a cap: a dead endpoint's backlog can be millions of rows.
          const pending = await countPendingDeliveries(context.db, id, PENDING_COUNT_CAP);
          return sendConfirmation(reply, frame(signedIn), values, {
            question: `Remove webhook endpoint ${id}?`,
            consequences: [
              [
                `The endpoint of ${endpoint.clientId} at `,
                { typed: endpoint.url },
                ' is deleted, with all its deliveries: pending ones are never sent, and none can be sent again.',
              ],
              [
                pending === 0
                  ? 'None of its deliveries is pending.'
                  : pending >= PENDING_COUNT_CAP
                    ? `At least ${PENDING_COUNT_CAP.toLocaleString('en')} of its deliveries are pending.`
                    : `${pending === 1 ? '1 of its deliveries is' : `${pending} of its deliveries are`} pending.`,
              ],
              ['To stop deliveries for a while, cancel and disable it instead: that can be undone.'],
            ],
            button: `Remove ${id}`,
            action: `${WEBHOOKS}/${encodeURIComponent(id)}/remove`,
            cancel: `${WEBHOOKS}/${encodeURIComponent(id)}`,
          });
        }
        const removed = await removeWebhookEndpoint(signedIn.admin, { id });
        if (!endpoint || !removed.ok)
          return notFound(reply, signedIn, `No webhook endpoint "${id}".`, CLIENTS);
        return reply.redirect(
          signedIn.withNotice(
            `${CLIENTS}/${encodeURIComponent(endpoint.clientId)}/webhooks?removed=${encodeURIComponent(id)}`,
          ),
          303,
        );
      },
    },
    {
      method: 'POST',
      url: '/webhooks/:id/deliveries/:delivery/redeliver',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const deliveryId = pathParam(request.params, 'delivery');
        const delivery = await findDelivery(context.db, deliveryId);
        if (!delivery || delivery.endpoint_id !== id)
          return notFound(reply, signedIn, `Endpoint ${id} has no delivery "${deliveryId}".`, CLIENTS);
        const sent = await redeliverWebhook(signedIn.admin, { id: deliveryId });
        if (!sent.ok) return endpointPage(reply, signedIn, {}, id, { notice: sentence(sent.reason) }, 409);
        return reply.redirect(
          signedIn.withNotice(`${WEBHOOKS}/${encodeURIComponent(id)}?done=redelivered`),
          303,
        );
      },
    },
  ];
}

/**
 * An endpoint as the operator's role may see it: `support`, which reads everything but secrets and changes
 * no endpoint, gets its URL without the query, as the audit log keeps it (`?…`): an integrator may have
 * put a token there (docs/security.md). The admin's page shows it whole, in the form that edits it.
 */
function asSeenBy(signedIn: SignedIn, endpoint: WebhookEndpointJson): WebhookEndpointJson {
  return signedIn.operator.role === 'admin' ? endpoint : { ...endpoint, url: urlWithoutQuery(endpoint.url) };
}

function notFound(reply: FastifyReply, signedIn: SignedIn, message: string, back: string) {
  return sendPage(reply, 'message', { title: 'Not found', message, ...frame(signedIn), back }, 404);
}

/** The one page that shows an endpoint's secret: not cached, never in a URL, never again. */
function secretPage(
  reply: FastifyReply,
  signedIn: SignedIn,
  endpoint: WebhookEndpointJson,
  secret: string,
  notice: string,
  status: number,
) {
  return sendPage(
    reply,
    'webhook-secret',
    { title: `Webhook endpoint ${endpoint.id}`, ...frame(signedIn), endpoint, secret, notice },
    status,
  );
}

/**
 * The add form's condition, judged in the add's transaction, the client locked so that of two posts of
 * one form sent at once the second waits for the first: no endpoint of that name made before, kept or
 * removed since (its `webhook.add` record says so).
 */
function notAddedYet(clientId: string, id: string): ChangeCondition {
  return async (trx) => {
    await findClientForUpdate(trx, clientId);
    const made = (await findWebhookEndpoint(trx, id)) ?? (await hasAuditRecord(trx, 'webhook.add', id));
    return made ? fail(ALREADY_ADDED) : undefined;
  };
}

/** What an endpoint's form is filled from: its stored URL and events. */
function storedForm(endpoint: { url: string; events: readonly string[] }): { url: string; events: string[] } {
  return { url: endpoint.url, events: [...endpoint.events] };
}
