import type { AppContext } from '../../app-context.js';
import { listAuditRecords } from '../../audit/audit.repository.js';
import type { ConsoleRoute } from '../console-route.js';
import { formOf, idPageOf, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

/** The audit log: who changed what, when and from where, newest first; search by action or target. */
export function auditRoutes(context: AppContext): ConsoleRoute[] {
  return [
    {
      method: 'GET',
      url: '/audit',
      role: 'support',
      async handler(request, reply, { operator, csrf }) {
        const query = formOf(request.query);
        const search = textField(query, 'q', 100);
        const records = await idPageOf(query, (window) =>
          listAuditRecords(context.db, { search: search || undefined, ...window }),
        );
        return sendPage(reply, 'audit', {
          title: 'Audit log',
          section: 'audit',
          operator,
          csrf,
          search,
          records: records.rows.map((record) => ({ ...record, detailText: JSON.stringify(record.details) })),
          retentionDays: Math.floor(context.live.settings.AuditLogRetention / 86_400),
          pager: {
            page: records.page,
            hasNext: records.hasNext,
            href: (n: number) => `/console/audit${queryString({ q: search, ...records.linkTo(n) })}`,
          },
        });
      },
    },
  ];
}
