import { findPlayers, type PlayerFoundJson } from '@poker-launch/server/admin';
import { type Command, type CommandContext, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { DEFAULT_LIMIT, limitOf, MAX_LIMIT } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

/** As the console's player search takes it: longer than any player id or nick it could match. */
const MAX_TEXT_LENGTH = 128;

export const playerFindCommand: Command = {
  usage: '<userId or nick> [--client <id>] [--limit <n>] [--json]',
  help: [
    '',
    "Finds players as the console's player search does: by the integrator's id or the nick, exactly (a nick",
    "in any case, as nicks compare), or by the service's own player id; in every client, or in --client's.",
    `By client, then id; ${DEFAULT_LIMIT} at most by default (--limit: 1 to ${MAX_LIMIT}). Reads only; player show`,
    'prints the profile, the block and the sessions of one.',
    '',
    'example: poker-launch player find Ace42',
  ],
  options: { ...JSON_OPTION, client: { type: 'string' }, limit: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [text = ''] }, context) {
    if (text === '' || text.length > MAX_TEXT_LENGTH) {
      throw new UsageError(`a player id or nick has 1 to ${MAX_TEXT_LENGTH} characters, got ${text.length}`);
    }
    const limit = limitOf(values.limit);
    const clientId = typeof values.client === 'string' ? values.client : undefined;
    const players = await withDatabase(context, async (db) =>
      valueOrFail(await findPlayers(db, { text, clientId, limit })),
    );
    if (values.json) printJson(context, players);
    else if (players.length === 0) context.out('no player has this id or nick');
    else printPlayers(context, players);
    return 0;
  },
};

function printPlayers(context: CommandContext, players: readonly PlayerFoundJson[]): void {
  printTable(
    context,
    ['client', 'user id', 'nick', 'id', 'created'],
    players.map((player) => [
      player.clientId,
      player.userId,
      player.nick ?? '-',
      player.id,
      player.createdAt,
    ]),
  );
}
