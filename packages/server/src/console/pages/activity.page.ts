import {
  findClientAttemptsByRequestId,
  listClientAttempts,
  REQUEST_ID_SCAN,
} from '../../activity/activity.repository.js';
import type { AppContext } from '../../app-context.js';
import { findClient } from '../../clients/client.repository.js';
import { isRequestId } from '../../http/request-id.js';
import type { ConsoleRoute } from '../console-route.js';
import { formOf, idPageOf, PAGE_SIZE, pathParam, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

/**
 * A client's integration activity: its launch attempts, newest first, with their outcome, error codes
 * and pointers, request ids, and in staging the signature hints, so an operator can tell an integrator
 * why its launches fail without a shell or SQL; `?request=<id>` finds the attempt an integrator quotes.
 * What is kept: ActivityRetention (at least a day).
 */
export function activityRoutes(context: AppContext): ConsoleRoute[] {
  return [
    {
      method: 'GET',
      url: '/clients/:id/activity',
      role: 'support',
      async handler(request, reply, { operator, csrf }) {
        const id = pathParam(request.params, 'id');
        const client = await findClient(context.db, id);
        if (!client) {
          return sendPage(
            reply,
            'message',
            {
              title: 'No such client',
              message: `No client "${id}".`,
              operator,
              csrf,
              section: 'clients',
              back: '/console/clients',
            },
            404,
          );
        }
        // This instance's latest attempts are written first, so the page shows them.
        await context.activity?.flush();
        const query = formOf(request.query);
        const page = {
          title: `Activity of ${id}`,
          section: 'clients',
          operator,
          csrf,
          client,
          retentionDays: Math.floor(context.live.settings.ActivityRetention / 86_400),
          staging: context.config.deployment === 'staging',
          scanned: REQUEST_ID_SCAN.toLocaleString('en'),
        };
        const requestId = textField(query, 'request', 64);
        if (requestId !== '') {
          if (!isRequestId(requestId)) {
            const error =
              'A request id is a UUID, as X-Request-Id gives it: 5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70.';
            return sendPage(
              reply,
              'activity',
              { ...page, requestId, requestError: error, attempts: [] },
              422,
            );
          }
          const found = await findClientAttemptsByRequestId(context.db, id, requestId, PAGE_SIZE);
          return sendPage(reply, 'activity', { ...page, requestId, attempts: found });
        }
        const refusedOnly = textField(query, 'refused', 3) === 'yes';
        const attempts = await idPageOf(query, (window) =>
          listClientAttempts(context.db, id, { ...window, refusedOnly }),
        );
        const base = `/console/clients/${encodeURIComponent(id)}/activity`;
        return sendPage(reply, 'activity', {
          ...page,
          attempts: attempts.rows,
          refusedOnly,
          pager: {
            page: attempts.page,
            hasNext: attempts.hasNext,
            newer: attempts.newer,
            href: (n: number) =>
              `${base}${queryString({ refused: refusedOnly ? 'yes' : undefined, ...attempts.linkTo(n) })}`,
          },
        });
      },
    },
  ];
}
