import {
  AUDIT_SEARCH_SCAN,
  type AuditRecord,
  auditRecordTime,
  detailsAsRead,
  isAuditRecordId,
  listAuditRecords,
  searchAuditRecords,
} from '@poker-launch/server/admin';
import { type Command, type CommandContext, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { beforeOf, DEFAULT_LIMIT, limitOf, MAX_LIMIT, olderRowsNotice } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';

const MAX_SEARCH_LENGTH = 100;
const AUDIT_RECORD_IDS = { isId: isAuditRecordId, name: 'an audit record', form: '32 lowercase hex digits' };

export const auditListCommand: Command = {
  usage: '[--search <text>] [--limit <n>] [--before <id>] [--json]',
  help: [
    '',
    `The newest first, ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}): when, who (cli: the user at a host;`,
    'console: the operator from an address), the action, its target and what changed (secrets only as',
    `"(set)"). --search: the records whose action or target contains the text, among the latest ${AUDIT_SEARCH_SCAN.toLocaleString('en')}.`,
    '--before <id>: the records older than that one (an id from --json): the next page. When more',
    'records exist than were printed, it says so on stderr, with the --before that reads on. Reads only.',
    '',
    'example: poker-launch audit list --search casino-1',
    'example: poker-launch audit list --json --limit 1000 --before <id of the last record printed>',
  ],
  options: {
    ...JSON_OPTION,
    search: { type: 'string' },
    limit: { type: 'string' },
    before: { type: 'string' },
  },
  positionals: [0, 0],
  async run({ values }, context) {
    const limit = limitOf(values.limit);
    const search = searchOf(values.search);
    const before = beforeOf(values.before, AUDIT_RECORD_IDS);
    // One more than printed: whether older records exist, said on stderr (a page of 50 is not the log).
    const { records: read, readTo } = await withDatabase(context, async (db) =>
      search === undefined
        ? { records: await listAuditRecords(db, { limit: limit + 1, before }), readTo: undefined }
        : searchAuditRecords(db, { limit: limit + 1, search, before }),
    );
    const records = read.slice(0, limit);
    if (values.json) printJson(context, records);
    else if (records.length === 0) context.out(search === undefined ? 'no records' : 'no record matches');
    else printRecords(context, records);
    const last = records.at(-1);
    if (read.length > limit && last !== undefined) {
      const searching = search === undefined ? [] : ['--search', search];
      context.err(olderRowsNotice(['audit', 'list', ...searching], limit, last.id));
    } else if (readTo !== undefined) {
      context.err(
        `searched the latest ${AUDIT_SEARCH_SCAN.toLocaleString('en')} records, back to ${auditRecordTime(readTo)}; older ones were not read`,
      );
    }
    return 0;
  },
};

function printRecords(context: CommandContext, records: readonly AuditRecord[]): void {
  printTable(
    context,
    ['at', 'by', 'action', 'target', 'details'],
    records.map((record) => [
      record.at,
      `${record.actor.via} ${record.actor.name}${record.actor.address === null ? '' : ` at ${record.actor.address}`}`,
      record.action,
      record.target ?? '-',
      JSON.stringify(detailsAsRead(record)),
    ]),
  );
}

function searchOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text === '' || text.length > MAX_SEARCH_LENGTH) {
    throw new UsageError(`--search takes 1 to ${MAX_SEARCH_LENGTH} characters, got ${text.length}`);
  }
  return text;
}
