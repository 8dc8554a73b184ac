import {
  AUDIT_SEARCH_SCAN,
  type AuditRecord,
  auditRecordTime,
  listAuditRecords,
  searchAuditRecords,
} from '@poker-launch/server/admin';
import { type Command, type CommandContext, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { DEFAULT_LIMIT, limitOf, MAX_LIMIT } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';

const MAX_SEARCH_LENGTH = 100;

export const auditListCommand: Command = {
  usage: '[--search <text>] [--limit <n>] [--json]',
  help: [
    '',
    `The newest first, ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}): when, who (cli: the user at a host;`,
    'console: the operator from an address), the action, its target and what changed (secrets only as',
    `"(set)"). --search: the records whose action or target contains the text, among the latest ${AUDIT_SEARCH_SCAN.toLocaleString('en')}.`,
    'Reads only.',
    '',
    'example: poker-launch audit list --search casino-1',
  ],
  options: { ...JSON_OPTION, search: { type: 'string' }, limit: { type: 'string' } },
  positionals: [0, 0],
  async run({ values }, context) {
    const limit = limitOf(values.limit);
    const search = searchOf(values.search);
    const { records, readTo } = await withDatabase(context, async (db) =>
      search === undefined
        ? { records: await listAuditRecords(db, { limit }), readTo: undefined }
        : searchAuditRecords(db, { limit, search }),
    );
    if (values.json) printJson(context, records);
    else if (records.length === 0) context.out(search === undefined ? 'no records' : 'no record matches');
    else printRecords(context, records);
    if (readTo !== undefined && records.length < limit) {
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
      JSON.stringify(record.details),
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
