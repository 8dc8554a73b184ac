import { type CreateSessionParams, createLaunchClient } from '@poker-launch/sdk';
import { type Command, UsageError } from '../command.js';
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  parseKeyValues,
  printLaunch,
  printLaunchError,
  readConnection,
} from '../launch-command-support.js';

export const sessionCreateCommand: Command = {
  usage:
    '--url <base> --client <id> [--secret <s>] [--scheme legacy|hmac] [--replay-fields] [--json] <userId> [key=value…]',
  help: [
    '',
    ...CONNECTION_HELP,
    '',
    'Each key=value is a body parameter of v2 create session, sent as the form sends it: nick, lang,',
    'authType, currency, sessionId, userIp, gameCode, tableId, gameId, longLifeLoginToken, launchOptions.',
    'A dotted key nests: launchOptions.restoreSessionUrl=https://… (or give launchOptions a JSON object).',
    'The request is built, signed and retried by @poker-launch/sdk. A refused request prints status,',
    'code and detail of each error on stderr and exits with 1.',
    '',
    'example: POKER_LAUNCH_SECRET=s3cr3t poker-launch session create --url http://127.0.0.1:8080 --client demo 12345 \\',
    '           nick=Player1 gameCode=poker tableId=42',
  ],
  options: CONNECTION_OPTIONS,
  positionals: [1, Number.POSITIVE_INFINITY],
  async run({ values, positionals }, context) {
    const connection = readConnection(values, context);
    const [userId = '', ...pairs] = positionals;
    if (userId === '') throw new UsageError('the userId is empty (an unset variable?)');
    // The service validates every value with the spec's messages; the CLI passes them on as text.
    const params = parseKeyValues(pairs) as CreateSessionParams;
    try {
      const result = await createLaunchClient(connection).createSession(userId, params);
      return printLaunch(context, values.json === true, result, result.redirectUrl);
    } catch (error) {
      return printLaunchError(context, 'session create', error, connection);
    }
  },
};
