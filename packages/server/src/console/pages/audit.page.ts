import type { AppContext } from '../../app-context.js';
import {
  AUDIT_SEARCH_SCAN,
  type AuditRecord,
  auditRecordTime,
  listAuditRecords,
  searchAuditRecords,
  searchAuditRecordsUp,
} from '../../audit/audit.repository.js';
import { detailsAsRead } from '../../audit/audit-details-read.js';
import type { ConsoleRoute } from '../console-route.js';
import { type FormValues, formOf, idPageOf, PAGE_SIZE, pageNumber, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';
import { detailLines } from './audit-details.js';

/** An audit record's id in a link: 32 hex digits. */
const RECORD_ID = /^[0-9a-f]{32}$/;
/** At most this many places where a search page read on are kept in its links (`read`). */
const READ_ON_KEPT = 100;

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
        const shown = search ? await searchPage(context, query, search) : await listPage(context, query);
        return sendPage(reply, 'audit', {
          title: 'Audit log',
          section: 'audit',
          operator,
          csrf,
          search,
          records: shown.rows.map((record) => ({
            ...record,
            detailLines: detailLines(detailsAsRead(record)),
          })),
          readTo: shown.readTo ? auditRecordTime(shown.readTo) : undefined,
          readScan: AUDIT_SEARCH_SCAN.toLocaleString('en'),
          retentionDays: Math.floor(context.live.settings.AuditLogRetention / 86_400),
          pager: {
            page: shown.page,
            hasNext: shown.hasNext,
            newer: shown.newer,
            href: (n: number) => `/console/audit${queryString({ q: search, ...shown.linkTo(n) })}`,
          },
        });
      },
    },
  ];
}

interface AuditPage {
  rows: AuditRecord[];
  page: number;
  hasNext: boolean;
  /** Newer records above the first page shown (the "Previous page" of page 1 leads to the newest). */
  newer: boolean;
  /** The record a search page read back to, when it read on past its matches. */
  readTo: string | undefined;
  linkTo(n: number): Record<string, string | number | undefined>;
}

async function listPage(context: AppContext, query: FormValues): Promise<AuditPage> {
  const records = await idPageOf(query, (window) => listAuditRecords(context.db, window));
  return { ...records, readTo: undefined };
}

/**
 * A search reads a bounded span of the log per page, so its pages hold 50 matches or fewer (where it read
 * on). Each page is found from where it starts: `before` (the next page's link: older than that record)
 * or `from` (the previous page's link: that record and newer ones, the span its page read). The places
 * where earlier pages read on travel in `read`, so that going back a page after one that read on finds
 * where that one started (docs/console.md, "Audit log").
 */
async function searchPage(context: AppContext, query: FormValues, search: string): Promise<AuditPage> {
  const requested = pageNumber(query);
  const before = textField(query, 'before', 64);
  const from = textField(query, 'from', 64);
  const readOn = textField(query, 'read', READ_ON_KEPT * 33)
    .split(',')
    .filter((id) => RECORD_ID.test(id))
    .slice(-READ_ON_KEPT);
  const links = (page: number, top: string | undefined, next: string | undefined, kept: string[]) => ({
    linkTo: (n: number): Record<string, string | number | undefined> => {
      const read = kept.length > 0 ? kept.join(',') : undefined;
      if (n > page) return next === undefined ? {} : { page: n, before: next, read };
      // The page above starts at `top`; page 1 without one is the newest.
      if (n < 1 || top === undefined) return {};
      return { page: n, from: top, read: kept.filter((id) => id >= top).join(',') || undefined };
    },
  });

  if (RECORD_ID.test(from)) {
    const up = await searchAuditRecordsUp(context.db, { from, search, limit: PAGE_SIZE });
    // The page above starts where this one's newest match read on, or at the next match above.
    const readAbove = readOn.filter((id) => id > from).sort()[0];
    const top =
      readAbove !== undefined && (up.nextAbove === undefined || readAbove < up.nextAbove)
        ? readAbove
        : up.nextAbove;
    const page = Math.max(1, requested);
    const kept = readOn.filter((id) => id >= from);
    return {
      rows: up.records,
      page,
      hasNext: up.older,
      newer: page === 1 && top !== undefined,
      readTo: up.older && up.records.length < PAGE_SIZE ? from : undefined,
      ...links(page, page > 1 ? top : undefined, up.older ? from : undefined, kept),
    };
  }

  const bound = RECORD_ID.test(before) ? before : undefined;
  const found = await searchAuditRecords(context.db, { limit: PAGE_SIZE + 1, before: bound, search });
  const rows = found.records.slice(0, PAGE_SIZE);
  const full = found.records.length > PAGE_SIZE;
  const readTo = full ? undefined : found.readTo;
  const page = bound === undefined ? 1 : Math.max(2, requested);
  const kept = readOn.filter((id) => bound === undefined || id >= bound);
  return {
    rows,
    page,
    hasNext: full || readTo !== undefined,
    newer: false,
    readTo,
    ...links(page, bound, full ? rows.at(-1)?.id : readTo, readTo === undefined ? kept : [...kept, readTo]),
  };
}
