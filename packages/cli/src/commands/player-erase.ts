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
    'country, referrer, referral and bonus codes, avatar, tag and preferred currency, and the address',
    'and launch options its sessions recorded. What an audit needs stays: the player and session rows,',
    'their ids and times, its block, and the audit record of this erasure (which holds no erased value).',
    'A later launch for the same userId stores what it sends again.',
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
    context.out(
      `player ${userId} erased at ${report.erasedAt}: personal fields removed, ` +
        `${counted(report.endedSessions, 'live session')} ended, ${counted(report.scrubbedSessions, 'session')} scrubbed`,
    );
    return 0;
  },
};
