import { purgeEndedSessions, recordDone } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';

export const sessionPurgeCommand: Command = {
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
    const report = await withAdmin(context, async (admin) => {
      const done = await purgeEndedSessions(admin.db, admin.clock());
      await recordDone(admin, 'session.purge', {
        target: null,
        details: { removed: done.removed, endedBefore: done.endedBefore.toISOString() },
      });
      return done;
    });
    const noun = report.removed === 1 ? 'session' : 'sessions';
    context.out(
      `removed ${report.removed} ${noun} that ended before ${report.endedBefore.toISOString()} (ExpiredSessionRetention ${report.retentionSeconds} s)`,
    );
    return 0;
  },
};
