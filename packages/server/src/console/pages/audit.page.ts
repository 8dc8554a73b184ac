import type { AppContext } from '../../app-context.js';
import { AUDIT_SEARCH_SCAN, listAuditRecords, searchAuditRecords } from '../../audit/audit.repository.js';
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
        // A search reads a bounded span of the log per page; where it stopped, the next page goes on.
        let readTo: string | undefined;
        const records = await idPageOf(query, async (window) => {
          if (!search) return listAuditRecords(context.db, window);
          const found = await searchAuditRecords(context.db, { ...window, search });
          if (window.after === undefined) readTo = found.readTo;
          return found.records;
        });
        const readOn = !records.hasNext && readTo !== undefined;
        return sendPage(reply, 'audit', {
          title: 'Audit log',
          section: 'audit',
          operator,
          csrf,
          search,
          records: records.rows.map((record) => ({ ...record, detailText: JSON.stringify(record.details) })),
          readTo:
            readOn && readTo ? new Date(Number.parseInt(readTo.slice(0, 12), 16)).toISOString() : undefined,
          readScan: AUDIT_SEARCH_SCAN.toLocaleString('en'),
          retentionDays: Math.floor(context.live.settings.AuditLogRetention / 86_400),
          pager: {
            page: records.page,
            hasNext: records.hasNext || readOn,
            href: (n: number) =>
              `/console/audit${queryString({
                q: search,
                ...(readOn && n > records.page ? { page: n, before: readTo } : records.linkTo(n)),
              })}`,
          },
        });
      },
    },
  ];
}
