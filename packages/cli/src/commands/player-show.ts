import { type PlayerRecordJson, SHOWN_SESSIONS, showPlayer } from '@poker-launch/server/admin';
import type { Command, CommandContext } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printFields, printJson, printTable, valueOrFail, yesNo } from '../output.js';
import { requiredClient } from './player-shared.js';

export const playerShowCommand: Command = {
  usage: '<userId> --client <id> [--json]',
  help: [
    '',
    `Lists the latest ${SHOWN_SESSIONS} sessions (with --json too), and how many there are in all. Reads only.`,
    '',
    'example: poker-launch player show user-42 --client casino-1',
  ],
  options: { ...JSON_OPTION, client: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    const clientId = requiredClient(values);
    const player = await withDatabase(context, async (db) =>
      valueOrFail(await showPlayer(db, clientId, userId, new Date())),
    );
    if (values.json) printJson(context, player);
    else printPlayer(context, player);
    return 0;
  },
};

const shown = (value: string | number | null) => (value === null ? '-' : String(value));

function printPlayer(context: CommandContext, player: PlayerRecordJson): void {
  const { profile, block, sessions } = player;
  printFields(context, [
    ['player', `${player.userId} of client ${player.clientId}`],
    ['id', player.id],
    ['nick', shown(profile.nick)],
    ['name', shown(profile.name)],
    ['email', shown(profile.email)],
    ['phone number', shown(profile.phoneNumber)],
    ['country', shown(profile.country)],
    ['referred by', shown(profile.referredBy)],
    ['referral code', shown(profile.referralCode)],
    ['bonus code', shown(profile.bonusCode)],
    ['avatar', shown(profile.avatar)],
    ['tag', shown(profile.tag)],
    ['active', yesNo(profile.active)],
    ['verified', yesNo(profile.verified)],
    ['trusted level', shown(profile.trustedLevel)],
    ['currency', shown(profile.currency)],
    ['preferred currency', shown(profile.preferredCurrency)],
    ['created', player.createdAt],
    ['updated', player.updatedAt],
    ['erased', player.erasedAt ?? 'no'],
    [
      'block',
      block === null
        ? 'none'
        : `${block.holds ? 'blocked' : 'ended'} since ${block.since}, ${
            block.until === null ? 'until unblocked' : `until ${block.until}`
          }${block.reason === null ? '' : ` (${block.reason})`}`,
    ],
    ['sessions', `${sessions.total} (${sessions.active} active)`],
  ]);
  if (sessions.latest.length === 0) return;
  context.out('');
  printTable(
    context,
    ['id', 'api', 'target', 'state', 'created', 'expires', 'ended', 'api user', 'session id'],
    sessions.latest.map((session) => [
      session.id,
      session.apiVersion,
      session.gameCode,
      session.state,
      session.createdAt,
      session.expiresAt,
      session.revokedAt === null ? '-' : `${session.revokedAt} ${session.revokeReason ?? 'logout'}`,
      session.apiUser ?? '-',
      session.sessionId,
    ]),
  );
}
