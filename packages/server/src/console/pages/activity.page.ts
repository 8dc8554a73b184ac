import { listClientAttempts } from '../../activity/activity.repository.js';
import type { AppContext } from '../../app-context.js';
import { findClient } from '../../clients/client.repository.js';
import type { ConsoleRoute } from '../console-route.js';
import { formOf, idPageOf, pathParam, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

/**
 * A client's integration activity: its launch attempts, newest first, with their outcome, error codes
 * and pointers, and in staging the signature hints, so an operator can tell an integrator why its
 * launches fail without a shell or SQL. What is kept: ActivityRetention (at least a day).
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
        const refusedOnly = textField(query, 'refused', 3) === 'yes';
        const attempts = await idPageOf(query, (window) =>
          listClientAttempts(context.db, id, { ...window, refusedOnly }),
        );
        const base = `/console/clients/${encodeURIComponent(id)}/activity`;
        return sendPage(reply, 'activity', {
          title: `Activity of ${id}`,
          section: 'clients',
          operator,
          csrf,
          client,
          attempts: attempts.rows,
          refusedOnly,
          retentionDays: Math.floor(context.live.settings.ActivityRetention / 86_400),
          staging: context.config.deployment === 'staging',
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
