import type { AuditRecord } from './audit.repository.js';

/**
 * The details whose null does not mean "none", by action: what it means instead. `webhook.add` records
 * the `--events` it was given, null when none was, and an endpoint added so takes every event.
 */
const NULL_MEANS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'webhook.add': { events: 'all' },
};

/**
 * A record's details as an operator reads them (the console's audit log, `audit list`): a null that
 * means something else than "none" replaced by what it means. The stored record is left as it is
 * (`audit list --json` prints it so).
 */
export function detailsAsRead(record: Pick<AuditRecord, 'action' | 'details'>): Record<string, unknown> {
  const meanings = Object.hasOwn(NULL_MEANS, record.action) ? NULL_MEANS[record.action] : undefined;
  if (meanings === undefined) return record.details;
  return Object.fromEntries(
    Object.entries(record.details).map(([name, value]) => [
      name,
      value === null && Object.hasOwn(meanings, name) ? meanings[name] : value,
    ]),
  );
}
