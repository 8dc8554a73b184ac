import { purgeEndedSessions } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';

export const sessionPurgeCommand: Command = {
  name: 'session purge',
  summary: 'Delete now the sessions that ended more than ExpiredSessionRetention ago; print how many.',
  usage: '',
  help: [
    '',
    'Every running instance does the same in the background, in small batches, once a minute. A purged',
    'token answers like an expired one (token_expired). Change the retention with',
    '"poker-launch setting set ExpiredSessionRetention <seconds>".',
    '',
    'example: poker-launch session purge',
  ],
  async run(_args, context) {
    const report = await withDatabase(context, (db) => purgeEndedSessions(db, new Date()));
    const noun = report.removed === 1 ? 'session' : 'sessions';
    context.out(
      `removed ${report.removed} ${noun} that ended before ${report.endedBefore.toISOString()} (ExpiredSessionRetention ${report.retentionSeconds} s)`,
    );
    return 0;
  },
};
