import { addApiUser, revokeApiUser } from '../../admin/operations.js';
import type { AppContext } from '../../app-context.js';
import { API_USER_NAME_PATTERN, PERMISSION_CREATE_OPEN_GAME, ROLE_ADMIN } from '../../users/api-user.js';
import { findApiUserByName, listApiUsers } from '../../users/api-user.repository.js';
import { isConfirmed, sendConfirmation } from '../confirm.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import { formOf, pathParam, textField } from '../form.js';
import { sendPage } from '../render.js';
import { sentence } from './client-form.js';

const API_USERS = '/console/api-users';

const frame = (signedIn: SignedIn) => ({
  operator: signedIn.operator,
  csrf: signedIn.csrf,
  section: 'api-users',
});

/** API users of v3: the list (never a key), a new user (its key shown once), revocation. */
export function apiUserRoutes(context: AppContext): ConsoleRoute[] {
  const page = async (
    reply: Parameters<typeof sendPage>[0],
    signedIn: SignedIn,
    extra: {
      name?: string;
      access?: string;
      clients?: string;
      errors?: Record<string, string>;
      notice?: string;
      key?: string;
      /** The API user the new key is for. */
      keyOf?: string;
    } = {},
    status = 200,
  ) =>
    sendPage(
      reply,
      'api-users',
      {
        title: 'API users',
        ...frame(signedIn),
        users: await listApiUsers(context.db),
        name: extra.name ?? '',
        access: extra.access ?? 'create',
        clients: extra.clients ?? '',
        errors: extra.errors ?? {},
        notice: extra.notice,
        key: extra.key,
        keyOf: extra.keyOf,
      },
      status,
    );
  return [
    {
      method: 'GET',
      url: '/api-users',
      role: 'support',
      async handler(request, reply, signedIn) {
        const revoked = textField(formOf(request.query), 'revoked', 64);
        return page(reply, signedIn, {
          notice: API_USER_NAME_PATTERN.test(revoked)
            ? `The key of ${revoked} is revoked: it answers 401 from now on.`
            : undefined,
        });
      },
    },
    {
      method: 'POST',
      url: '/api-users',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const form = formOf(request.body);
        const name = textField(form, 'name', 64);
        const access = textField(form, 'access', 8) === 'admin' ? 'admin' : 'create';
        const clients = textField(form, 'clients', 1000);
        const created = await addApiUser(signedIn.admin, {
          name,
          role: access === 'admin' ? ROLE_ADMIN : null,
          permissions: access === 'admin' ? [] : [PERMISSION_CREATE_OPEN_GAME],
          clients: clients.split(/[\s,]+/).filter((id) => id !== ''),
        });
        if (!created.ok) {
          const field = /client/.test(created.reason) ? 'clients' : 'name';
          const errors = { [field]: sentence(created.reason) };
          return page(reply, signedIn, { name, access, clients, errors }, 422);
        }
        return page(
          reply,
          signedIn,
          { notice: `API user ${name} created.`, key: created.value.key, keyOf: name, name: '' },
          201,
        );
      },
    },
    {
      method: 'POST',
      url: '/api-users/:name/revoke',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const name = pathParam(request.params, 'name');
        const values = formOf(request.body);
        if (!isConfirmed(values)) {
          const user = await findApiUserByName(context.db, name);
          // Nothing to confirm: no such user, or its key revoked already. Said, and nothing done.
          if (!user) return page(reply, signedIn, { notice: sentence(`no API user named "${name}"`) }, 404);
          if (user.revokedAt !== null)
            return page(reply, signedIn, { notice: `The key of ${name} was revoked already.` });
          const acting = user.clients.length > 0 ? ` (it acts for ${user.clients.join(', ')})` : '';
          return sendConfirmation(reply, frame(signedIn), values, {
            question: `Revoke the key of API user ${name}?`,
            consequences: [
              [`Every call made with its key${acting} answers 401 from now on, on every instance.`],
              ['A key cannot be restored: the caller needs a new API user and its new key.'],
            ],
            button: `Revoke ${name}`,
            action: `${API_USERS}/${encodeURIComponent(name)}/revoke`,
            cancel: API_USERS,
          });
        }
        const revoked = await revokeApiUser(signedIn.admin, { name });
        if (!revoked.ok) return page(reply, signedIn, { notice: sentence(revoked.reason) }, 404);
        return reply.redirect(signedIn.withNotice(`${API_USERS}?revoked=${encodeURIComponent(name)}`), 303);
      },
    },
  ];
}
