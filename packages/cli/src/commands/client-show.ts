import { type ClientJson, findClientOrFail, LAUNCH_TARGETS, toClientJson } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printFields, printJson, valueOrFail, yesNo } from '../output.js';

export const clientShowCommand: Command = {
  usage: '<id> [--show-secret] [--json]',
  help: ['', 'example: poker-launch client show demo --show-secret'],
  options: { ...JSON_OPTION, 'show-secret': { type: 'boolean' } },
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const client = await withDatabase(context, async (db) => valueOrFail(await findClientOrFail(db, id)));
    const json = toClientJson(client, new Date());
    const showSecret = values['show-secret'] === true;
    if (values.json) {
      printJson(context, showSecret ? { ...json, secret: client.secretKey } : json);
      return 0;
    }
    const secret =
      client.secretKey === null ? 'none (requests need no sign)' : 'set (--show-secret prints it)';
    printFields(context, [
      ['id', json.id],
      ['active', yesNo(json.active)],
      ['secret', showSecret && client.secretKey !== null ? client.secretKey : secret],
      [
        'previous secret',
        json.previousSecretUntil === null ? 'none' : `still valid until ${json.previousSecretUntil}`,
      ],
      ['currency mandatory', yesNo(json.currencyMandatory)],
      ['player ids', json.playerIds],
      ...LAUNCH_TARGETS.map(
        (target) => [`${target} URL`, json.launchUrls[target] ?? 'built-in page'] as const,
      ),
      ['frame origins', json.frameOrigins.join(' ') || 'none'],
      ['replay protection', json.replayProtection],
      ['replay window', `${json.replayWindowSeconds}s${wideningNote(json.replayWidening)}`],
      ['signature', json.signature],
      ['allowed addresses', json.allowedAddresses.join(' ') || 'any'],
      ['created', json.createdAt],
    ]);
    return 0;
  },
};

/** A widened window's bound, while it refuses anything (docs/security.md). */
function wideningNote(widening: ClientJson['replayWidening']): string {
  return widening === null
    ? ''
    : ` (widened: requests signed before ${widening.signedNotBefore} are refused until ${widening.until})`;
}
