import type { FastifyReply } from 'fastify';
import { fail } from '../../admin/admin-result.js';
import { toClientJson } from '../../admin/client.serializer.js';
import { findClientOrFail, generateClientSecret } from '../../admin/client-admin.js';
import { checkClientId } from '../../admin/client-changes.js';
import {
  addClient,
  disableClient,
  enableClient,
  protectClient,
  rotateClientSecret,
  updateClient,
} from '../../admin/operations.js';
import type { AppContext } from '../../app-context.js';
import { requestProtection } from '../../clients/client.js';
import { findClientForUpdate, listClientsWindow } from '../../clients/client.repository.js';
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
  savedMeanwhile,
  textField,
  unchangedSinceShown,
} from '../form.js';
import { format, sendPage } from '../render.js';
import { activityRoutes } from './activity.page.js';
import {
  type ClientForm,
  clientChangesOf,
  clientFieldShown,
  clientFieldsOf,
  clientFormOf,
  readClientForm,
  sentence,
  TARGET_LABELS,
} from './client-form.js';
import {
  ADDRESSES_MAX,
  type ProtectionForm,
  protectionChangesOf,
  protectionFormOf,
  readProtectionForm,
  WINDOW_MAX,
} from './protection-form.js';

const CLIENTS = '/console/clients';
/** The longest overlap a rotation may keep the previous secret for, as the CLI allows: 90 days. */
const MAX_OVERLAP_HOURS = 90 * 24;

/** Clients: the list, a new client (its secret shown once), a client's settings, its secret, its state. */
export function clientRoutes(context: AppContext): ConsoleRoute[] {
  const clientPage = async (
    reply: FastifyReply,
    signedIn: SignedIn,
    id: string,
    extra: {
      form?: ClientForm;
      errors?: Record<string, string>;
      rotation?: { overlapHours: string; error?: string };
      protection?: { form: ProtectionForm; errors: Record<string, string> };
      notice?: string;
    } = {},
    status = 200,
  ) => {
    const found = await findClientOrFail(context.db, id);
    if (!found.ok)
      return sendPage(
        reply,
        'message',
        { title: 'No such client', message: sentence(found.reason), ...frame(signedIn), back: CLIENTS },
        404,
      );
    const client = found.value;
    return sendPage(
      reply,
      'client',
      {
        title: `Client ${client.id}`,
        ...frame(signedIn),
        client,
        previousSecretUntil:
          client.previousSecret && Date.parse(client.previousSecret.until) > context.clock().getTime()
            ? client.previousSecret.until
            : null,
        form: extra.form ?? clientFormOf(client),
        shown: fingerprintOf(clientFormOf(client)),
        errors: {
          ...extra.errors,
          // Refused as saved meanwhile: what is stored now, under each field it differs in.
          ...(extra.form && extra.errors?.form === CHANGED_MEANWHILE
            ? savedMeanwhile(
                clientFieldsOf(extra.form),
                clientFieldsOf(clientFormOf(client)),
                clientFieldShown,
              )
            : {}),
        },
        rotation: {
          overlapHours: '24',
          ...extra.rotation,
          shown: fingerprintOf(signedIn.secretVersion(client.secretKey)),
        },
        protection: {
          current: requestProtection(client),
          widening: toClientJson(client, context.clock()).replayWidening,
          form: extra.protection?.form ?? protectionFormOf(client),
          shown: fingerprintOf(protectionFormOf(client)),
          errors: extra.protection?.errors ?? {},
          limits: { window: WINDOW_MAX, addresses: ADDRESSES_MAX },
        },
        notice: extra.notice,
        targets: TARGET_LABELS,
      },
      status,
    );
  };

  return [
    {
      method: 'GET',
      url: '/clients',
      role: 'support',
      async handler(request, reply, signedIn) {
        const query = formOf(request.query);
        const search = textField(query, 'q', 64);
        // From the id beside the link, as the sessions page pages: all of them were read for each page.
        const shown = await idPageOf(query, (window) =>
          listClientsWindow(context.db, { search: search || undefined, ...window }),
        );
        return sendPage(reply, 'clients', {
          title: 'Clients',
          ...frame(signedIn),
          clients: shown.rows,
          search,
          pager: {
            page: shown.page,
            hasNext: shown.hasNext,
            newer: shown.newer,
            href: (n: number) => `${CLIENTS}${queryString({ q: search, ...shown.linkTo(n) })}`,
          },
        });
      },
    },
    {
      method: 'GET',
      url: '/clients/new',
      role: 'admin',
      handler: async (_request, reply, signedIn) =>
        newClientPage(reply, signedIn, blankForm(), '', 'generate', {}),
    },
    {
      method: 'POST',
      url: '/clients',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const values = formOf(request.body);
        const id = textField(values, 'id', 64);
        const signing = textField(values, 'signing', 8) === 'none' ? 'none' : 'generate';
        const form = readClientForm(values);
        const checked = clientChangesOf(form);
        const errors = checked.ok ? {} : { ...checked.errors };
        const idCheck = checkClientId(id);
        if (!idCheck.ok) errors.id = sentence(idCheck.reason);
        if (!checked.ok || Object.keys(errors).length > 0)
          return newClientPage(reply, signedIn, form, id, signing, errors, 422);
        const secret = signing === 'generate' ? generateClientSecret() : null;
        const added = await addClient(signedIn.admin, {
          id,
          changes: { ...checked.changes, secretKey: secret },
        });
        if (!added.ok)
          return newClientPage(reply, signedIn, form, id, signing, { id: sentence(added.reason) }, 422);
        return secretPage(reply, signedIn, id, secret, `Client ${id} created.`, 201);
      },
    },
    {
      method: 'GET',
      url: '/clients/:id',
      role: 'support',
      handler: async (request, reply, signedIn) =>
        clientPage(reply, signedIn, pathParam(request.params, 'id'), {
          notice: ownEntry(DONE, textField(formOf(request.query), 'done', 16)),
        }),
    },
    {
      method: 'POST',
      url: '/clients/:id',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const values = formOf(request.body);
        const form = readClientForm(values);
        const found = await findClientOrFail(context.db, id);
        if (found.ok && changedSinceShown(values, clientFormOf(found.value))) {
          return clientPage(reply, signedIn, id, { form, errors: { form: CHANGED_MEANWHILE } }, 409);
        }
        const checked = clientChangesOf(form);
        if (!checked.ok) return clientPage(reply, signedIn, id, { form, errors: checked.errors }, 422);
        const updated = await updateClient(
          signedIn.admin,
          { id, changes: checked.changes },
          unchangedSinceShown(values, async (trx) =>
            mapped(await findClientForUpdate(trx, id), clientFormOf),
          ),
        );
        if (refusedAsChanged(updated)) {
          return clientPage(reply, signedIn, id, { form, errors: { form: CHANGED_MEANWHILE } }, 409);
        }
        if (!updated.ok)
          return clientPage(reply, signedIn, id, { form, errors: { form: sentence(updated.reason) } }, 422);
        // A form saved as shown changes nothing, and the audit log records nothing: said so.
        const done = Object.keys(updated.value.changed).length === 0 ? 'same' : 'updated';
        return reply.redirect(signedIn.withNotice(`${CLIENTS}/${encodeURIComponent(id)}?done=${done}`), 303);
      },
    },
    {
      // Launch security (docs/security.md): the CLI's `client update --replay-protection …`, through the
      // same audited operation (client.protection) and the same rules.
      method: 'POST',
      url: '/clients/:id/protection',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const found = await findClientOrFail(context.db, id);
        if (!found.ok) return clientPage(reply, signedIn, id);
        const values = formOf(request.body);
        const form = readProtectionForm(values);
        if (changedSinceShown(values, protectionFormOf(found.value))) {
          return clientPage(
            reply,
            signedIn,
            id,
            { protection: { form, errors: { protection: CHANGED_MEANWHILE } } },
            409,
          );
        }
        const checked = protectionChangesOf(form, found.value);
        if (!checked.ok)
          return clientPage(reply, signedIn, id, { protection: { form, errors: checked.errors } }, 422);
        // The changes were judged from the settings read above; the save's transaction holds them as they
        // were read, or refuses (a save committed since would be undone, or called "nothing changed"), and
        // judges there whether anything changes, so "Nothing changed" is true when it is said
        // (docs/console.md, "Two operators at once").
        const read = fingerprintOf(protectionFormOf(found.value));
        const changed = await protectClient(signedIn.admin, { id, changes: checked.changes }, async (trx) => {
          const stored = mapped(await findClientForUpdate(trx, id), protectionFormOf);
          if (stored === undefined) return undefined;
          if (changedSinceShown(values, stored) || fingerprintOf(stored) !== read)
            return fail(CHANGED_MEANWHILE);
          return Object.keys(checked.changes).length === 0 ? fail(UNCHANGED) : undefined;
        });
        if (!changed.ok && changed.reason === UNCHANGED) {
          return reply.redirect(
            signedIn.withNotice(`${CLIENTS}/${encodeURIComponent(id)}?done=unchanged`),
            303,
          );
        }
        if (refusedAsChanged(changed)) {
          return clientPage(
            reply,
            signedIn,
            id,
            { protection: { form, errors: { protection: CHANGED_MEANWHILE } } },
            409,
          );
        }
        if (!changed.ok) {
          return clientPage(
            reply,
            signedIn,
            id,
            { protection: { form, errors: { protection: sentence(changed.reason) } } },
            422,
          );
        }
        return reply.redirect(
          signedIn.withNotice(`${CLIENTS}/${encodeURIComponent(id)}?done=protected`),
          303,
        );
      },
    },
    {
      method: 'POST',
      url: '/clients/:id/rotate',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const values = formOf(request.body);
        // A form shown before the secret last changed, most often the page that showed the new secret
        // reloaded (its POST sent again): rotating again would replace the secret just shown, never to be
        // shown again (docs/console.md, "Two operators at once").
        // Checked before the confirmation too, so a stale form is not asked about first.
        const secretNow = (client: { secretKey: string | null }) => signedIn.secretVersion(client.secretKey);
        const alreadyRotated = () =>
          sendAlreadyRotated(reply, frame(signedIn), {
            secret: `the secret of ${id}`,
            owner: 'client',
            back: `${CLIENTS}/${encodeURIComponent(id)}`,
          });
        const found = await findClientOrFail(context.db, id);
        if (found.ok && changedSinceShown(values, secretNow(found.value))) return alreadyRotated();
        const overlapHours = textField(values, 'overlap-hours', 5);
        const hours = Number(overlapHours);
        if (!/^\d{1,4}$/.test(overlapHours) || hours > MAX_OVERLAP_HOURS) {
          return clientPage(
            reply,
            signedIn,
            id,
            { rotation: { overlapHours, error: `A whole number of hours from 0 to ${MAX_OVERLAP_HOURS}.` } },
            422,
          );
        }
        if (hours === 0 && !isConfirmed(values)) {
          // Without an overlap the current secret dies at once: every launch the integrator signs with it
          // is refused until it has the new one. With one, nothing breaks, and no confirmation is asked.
          if (!found.ok) return clientPage(reply, signedIn, id);
          const kept = found.value.previousSecret;
          const keptStillSigns = !!kept && Date.parse(kept.until) > context.clock().getTime();
          return sendConfirmation(reply, frame(signedIn), values, {
            question: `Rotate the secret of ${id} with no overlap?`,
            consequences: [
              [
                `The current secret stops signing at once${keptStillSigns ? ', and so does the previous one it still kept' : ''}: `,
                `every launch ${id} signs with it is refused (invalid_signature) until the integrator uses the new secret, shown once on the next page.`,
              ],
              [
                'To let the integrator switch without a refused launch, cancel and rotate with an overlap of some hours.',
              ],
            ],
            button: `Rotate the secret of ${id} now`,
            action: `${CLIENTS}/${encodeURIComponent(id)}/rotate`,
            cancel: `${CLIENTS}/${encodeURIComponent(id)}`,
          });
        }
        const secret = generateClientSecret();
        const now = signedIn.admin.clock();
        const rotated = await rotateClientSecret(
          signedIn.admin,
          {
            id,
            changes: {
              secretKey: secret,
              ...(hours > 0
                ? { keepPreviousSecretUntil: new Date(now.getTime() + hours * 3600_000).toISOString() }
                : {}),
            },
          },
          unchangedSinceShown(values, async (trx) => mapped(await findClientForUpdate(trx, id), secretNow)),
        );
        if (refusedAsChanged(rotated)) return alreadyRotated();
        if (!rotated.ok)
          return clientPage(
            reply,
            signedIn,
            id,
            { rotation: { overlapHours, error: sentence(rotated.reason) } },
            422,
          );
        const kept = rotated.value.client.previousSecret;
        const notice =
          hours > 0 && kept
            ? `The secret of ${id} was replaced; the previous one still signs until ${format.time(kept.until)}.`
            : `The secret of ${id} was replaced; the previous one no longer signs.`;
        return secretPage(reply, signedIn, id, secret, notice, 200);
      },
    },
    {
      method: 'POST',
      url: '/clients/:id/disable',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const values = formOf(request.body);
        const found = await findClientOrFail(context.db, id);
        if (!found.ok) return clientPage(reply, signedIn, id);
        // Disabled already: nothing to ask about (the disable below still ends any session left open).
        if (!isConfirmed(values) && found.value.active) {
          // No count of the live sessions it ends: sessions have no index by client (docs/design.md), so
          // counting them would read every live session, as the disable itself does.
          return sendConfirmation(reply, frame(signedIn), values, {
            question: `Disable client ${id}?`,
            consequences: [
              [
                `Every live session of its players ends now, on every instance, and every request of ${id} is refused until it is enabled again.`,
              ],
              ['Enabling it later does not bring the ended sessions back: its players launch again.'],
            ],
            button: `Disable ${id}`,
            action: `${CLIENTS}/${encodeURIComponent(id)}/disable`,
            cancel: `${CLIENTS}/${encodeURIComponent(id)}`,
          });
        }
        const disabled = await disableClient(signedIn.admin, { id });
        if (!disabled.ok) return clientPage(reply, signedIn, id, { notice: sentence(disabled.reason) }, 404);
        const { wasDisabled, revokedSessions } = disabled.value;
        const done = wasDisabled && revokedSessions === 0 ? 'already-disabled' : 'disabled';
        return reply.redirect(signedIn.withNotice(`${CLIENTS}/${encodeURIComponent(id)}?done=${done}`), 303);
      },
    },
    {
      method: 'POST',
      url: '/clients/:id/enable',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const enabled = await enableClient(signedIn.admin, { id });
        if (!enabled.ok) return clientPage(reply, signedIn, id, { notice: sentence(enabled.reason) }, 404);
        const done = Object.keys(enabled.value.changed).length === 0 ? 'already-enabled' : 'enabled';
        return reply.redirect(signedIn.withNotice(`${CLIENTS}/${encodeURIComponent(id)}?done=${done}`), 303);
      },
    },
    ...activityRoutes(context),
  ];
}

/** The launch security save's refusal when its transaction finds nothing to change: it records nothing. */
const UNCHANGED = 'nothing changed';

const DONE: Record<string, string> = {
  updated: 'Saved.',
  same: 'Nothing changed: the client was already so.',
  protected: 'Launch security saved: every instance checks launches this way within a second.',
  unchanged: 'Nothing changed: the launch security was already so.',
  disabled: "Disabled: its requests are refused and its players' live sessions were ended.",
  enabled: 'Enabled: its signed requests are accepted again.',
  'already-enabled': 'Nothing changed: the client was already enabled.',
  'already-disabled': 'Nothing changed: the client was already disabled.',
};

export function frame(signedIn: SignedIn) {
  return { operator: signedIn.operator, csrf: signedIn.csrf, section: 'clients' };
}

/** `f` of the value, if there is one. */
function mapped<T, U>(value: T | undefined, f: (value: T) => U): U | undefined {
  return value === undefined ? undefined : f(value);
}

function blankForm(): ClientForm {
  return {
    urls: { poker: '', casinoLobby: '', casino: '', sport: '' },
    frameOrigins: '',
    currencyMandatory: 'no',
    playerIds: 'external',
  };
}

function newClientPage(
  reply: FastifyReply,
  signedIn: SignedIn,
  form: ClientForm,
  id: string,
  signing: string,
  errors: Record<string, string>,
  status = 200,
) {
  return sendPage(
    reply,
    'client-new',
    { title: 'New client', ...frame(signedIn), form, id, signing, errors, targets: TARGET_LABELS },
    status,
  );
}

/** The one page that shows a secret: not cached, never in a URL, never again. */
function secretPage(
  reply: FastifyReply,
  signedIn: SignedIn,
  id: string,
  secret: string | null,
  notice: string,
  status: number,
) {
  return sendPage(
    reply,
    'client-secret',
    { title: `Client ${id}`, ...frame(signedIn), id, secret, notice },
    status,
  );
}
