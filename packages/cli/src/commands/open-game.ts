import { createLaunchClient, type OpenGameParams } from '@poker-launch/sdk';
import { type Command, UsageError } from '../command.js';
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  parseKeyValues,
  printLaunch,
  printLaunchError,
  readConnection,
  stringOption,
} from '../launch-command-support.js';

/** OpenGame fields that are JSON numbers or booleans; every other field is a string. */
const INTEGER_FIELDS = new Set(['session.tableId', 'player.avatar', 'player.trustedLevel']);
const BOOLEAN_FIELDS = new Set(['session.longLifeLoginToken', 'player.active', 'player.verified']);

export const openGameCommand: Command = {
  usage:
    '--url <base> --client <id> [--secret <s> | --api-key <k>] [--scheme legacy|hmac] [--replay-fields] --player-id <id> [--json] [key=value…]',
  help: [
    '',
    ...CONNECTION_HELP,
    '  --api-key <k>    an operator-issued API key (Authorization: Bearer), instead of a secret;',
    '                   or set POKER_LAUNCH_API_KEY',
    "  --player-id <id> the player's external id (data.attributes.player.id)",
    '',
    'Each key=value sets a member of the OpenGame document under data.attributes: session.<field> or',
    'player.<field>, dotted deeper for launchOptions (session.launchOptions.restoreSessionUrl=https://…).',
    'session.tableId, player.avatar and player.trustedLevel are sent as integers; session.longLifeLoginToken,',
    'player.active and player.verified as true/false; every other value as a string.',
    '',
    'example: POKER_LAUNCH_SECRET=s3cr3t poker-launch open-game --url http://127.0.0.1:8080 --client demo \\',
    '           --player-id u-1 session.tableId=7 player.nick=Bob',
  ],
  options: { ...CONNECTION_OPTIONS, 'api-key': { type: 'string' }, 'player-id': { type: 'string' } },
  positionals: [0, Number.POSITIVE_INFINITY],
  async run({ values, positionals }, context) {
    const connection = readConnection(values, context);
    const keyFlag = stringOption(values, 'api-key');
    const apiKey = keyFlag ?? context.env.POKER_LAUNCH_API_KEY;
    if (apiKey === '') {
      // As an empty secret (readConnection): an unset variable, not a choice to call without a key.
      throw new UsageError(
        keyFlag === undefined
          ? 'POKER_LAUNCH_API_KEY is set but empty: set it to your API key, or unset it to sign with a secret'
          : '--api-key is empty (an unset variable?): give your API key, or --secret to sign instead',
      );
    }
    if (keyFlag !== undefined && stringOption(values, 'secret') !== undefined) {
      throw new UsageError('give --secret or --api-key, not both');
    }
    const playerId = stringOption(values, 'player-id');
    if (playerId === undefined || playerId === '') throw new UsageError('--player-id <id> is required');
    const { session, player, ...other } = parseKeyValues(positionals, openGameValue);
    const stray = Object.keys(other)[0];
    if (stray !== undefined) throw new UsageError(`"${stray}…" must start with session. or player.`);
    if (typeof player === 'object' && Object.hasOwn(player, 'id')) {
      throw new UsageError('give the player id with --player-id, not player.id');
    }
    const params = {
      ...(session === undefined ? {} : { session }),
      player: { ...(player as object), id: playerId },
    } as OpenGameParams;
    try {
      const client = createLaunchClient({ ...connection, ...(apiKey ? { apiKey } : {}) });
      const result = await client.openGame(params);
      return printLaunch(context, values.json === true, result, result.url);
    } catch (error) {
      return printLaunchError(context, 'open-game', error, connection);
    }
  },
};

function openGameValue(path: readonly string[], text: string): string | number | boolean {
  const key = path.join('.');
  if (path.length === 1) throw new UsageError(`"${key}" must be session.<field> or player.<field>`);
  if (INTEGER_FIELDS.has(key)) {
    if (!/^-?\d{1,15}$/.test(text)) throw new UsageError(`${key} must be an integer, got "${text}"`);
    return Number(text);
  }
  if (BOOLEAN_FIELDS.has(key)) {
    if (text !== 'true' && text !== 'false')
      throw new UsageError(`${key} must be true or false, got "${text}"`);
    return text === 'true';
  }
  return text;
}
