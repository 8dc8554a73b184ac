import { counted, erasePlayer } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { requiredClient } from './player-shared.js';

export const playerEraseCommand: Command = {
  usage: '<userId> --client <id>',
  help: [
    '',
    'Ends its live sessions and empties its nick (freed for others), name, e-mail, phone number,',
    "country, referrer, referral and bonus codes, avatar, tag, preferred currency and block's reason,",
    'and the address and launch options its sessions recorded. What an audit needs stays: the player',
    'and session rows, their ids and times, its block, and the audit records of what was done to it,',
    'whose nick and block reason read "(erased)"; the record of this erasure holds no erased value.',
    'A later launch for the same userId stores what it sends again; erased again, a player keeps its',
    'first erasure time, and one with nothing left to erase is left as it is ("nothing changed").',
    '',
    'example: poker-launch player erase user-42 --client casino-1',
  ],
  options: { client: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    const clientId = requiredClient(values);
    const report = await withAdmin(context, async (admin) =>
      valueOrFail(await erasePlayer(admin, { clientId, userId })),
    );
    if (!report.changed) {
      context.out(`nothing changed: player ${userId} was erased already at ${report.erasedAt}`);
      return 0;
    }
    context.out(
      `player ${userId} ${report.erasedBefore ? `erased again (first at ${report.erasedAt})` : `erased at ${report.erasedAt}`}: ` +
        `personal fields removed, ${counted(report.endedSessions, 'live session')} ended, ` +
        `${counted(report.scrubbedSessions, 'session')} and ${counted(report.scrubbedAuditRecords, 'audit record')} scrubbed`,
    );
    return 0;
  },
};
