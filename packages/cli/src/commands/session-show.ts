import { quotedSessionId, type SessionRecordJson, showSession } from '@poker-launch/server/admin';
import type { Command, CommandContext } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printFields, printJson, valueOrFail, yesNo } from '../output.js';

export const sessionShowCommand: Command = {
  usage: '<sessionId> [--json]',
  help: [
    '',
    "The session is named by v2's data.id, or by v3's GameSession IRI (or its last part), as an integrator",
    'quotes it in a support request. Reads only; never shows the token (only its hash is stored).',
    '',
    'example: poker-launch session show 0193a1b2c3d4e5f60718293a4b5c6d7e',
  ],
  options: { ...JSON_OPTION },
  positionals: [1, 1],
  async run({ values, positionals: [quoted = ''] }, context) {
    const id = quotedSessionId(quoted);
    const session = await withDatabase(context, async (db) =>
      valueOrFail(await showSession(db, id, new Date())),
    );
    if (values.json) printJson(context, session);
    else printSession(context, session);
    return 0;
  },
};

const shown = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '-' : String(value);

function printSession(context: CommandContext, session: SessionRecordJson): void {
  const { player, target } = session;
  printFields(context, [
    ['session', `${session.id} (${session.apiVersion})`],
    ['client', session.clientId],
    ['player', `${player.userId} (nick ${shown(player.nick)}, id ${player.id})`],
    ['session id', session.sessionId],
    ['target', targetText(target)],
    ['lang', session.lang],
    ['currency', shown(session.currency)],
    ['auth type', session.authType],
    ['long life', yesNo(session.longLife)],
    ['restore url', shown(session.launchOptions?.restoreSessionUrl)],
    ['state', session.state],
    ['created', session.createdAt],
    ['expires', session.expiresAt],
    ['opened', shown(session.openedAt)],
    [
      'ended',
      session.revokedAt === null ? '-' : `${session.revokedAt} (${session.revokeReason ?? 'logout'})`,
    ],
    ['api user', shown(session.apiUser)],
    ['address', shown(session.userIp)],
  ]);
}

function targetText(target: SessionRecordJson['target']): string {
  if ('tableId' in target) return `${target.gameCode}, table ${target.tableId}`;
  if ('gameId' in target) return `${target.gameCode}, game ${target.gameId}`;
  return target.gameCode;
}
