import { generateClientSecret, toClientJson, updateClient } from '@poker-launch/server/admin';
import {
  CLIENT_NEGATABLE,
  CLIENT_OPTIONS_HELP,
  CLIENT_OPTIONS_USAGE,
  CLIENT_UPDATE_OPTIONS,
  noSecretWarning,
  parseOverlap,
  readClientChanges,
  readSecretFromInput,
  reportClientChange,
} from '../client-options.js';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const clientUpdateCommand: Command = {
  usage: `<id> ${CLIENT_OPTIONS_USAGE} [--rotate-secret] [--keep-previous-for <duration>] [--enable] [--no-url-poker …] [--no-frame-origins]`,
  help: [
    ...CLIENT_OPTIONS_HELP,
    '  --rotate-secret         a new random secret, which it prints alone on stdout (a secret given with',
    '                          --secret is seen by every user of the host in the process list while the',
    '                          command runs)',
    '  --keep-previous-for <d> with --secret or --rotate-secret: the secret it replaces still signs for',
    '                          this long (24h, 90m, 3s, 7d; at most 90d), so integrators can switch',
    '                          without a failed request',
    '  --enable                enable a disabled client',
    '  --no-url-poker          back to the built-in page (likewise --no-url-casino-lobby, …)',
    '  --no-frame-origins      allow no origin to frame the game',
    '',
    'Only the flags given change; --frame-origin and --allow-address replace the whole list. Running',
    'servers use the change within a second.',
    '',
    'example: poker-launch client update casino-1 --rotate-secret --keep-previous-for 24h',
    'example: poker-launch client update casino-1 --signature hmac --allow-address 203.0.113.0/24',
  ],
  options: CLIENT_UPDATE_OPTIONS,
  negatable: CLIENT_NEGATABLE,
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const changes = readClientChanges(values);
    const generated = values['rotate-secret'] === true ? generateClientSecret() : undefined;
    if (generated !== undefined) {
      if (changes.secretKey !== undefined)
        throw new UsageError('--rotate-secret makes a new secret: give it without --secret or --no-secret');
      changes.secretKey = generated;
    }
    await readSecretFromInput(changes, context);
    const overlap = values['keep-previous-for'];
    // Before "nothing to change": given alone, it is the flag that is wrong, not the lack of one.
    if (typeof overlap === 'string' && typeof changes.secretKey !== 'string')
      throw new UsageError('--keep-previous-for needs --secret <new> or --rotate-secret');
    if (Object.keys(changes).length === 0)
      throw new UsageError('nothing to change; see --help for the flags');
    const now = new Date();
    if (typeof overlap === 'string') {
      changes.keepPreviousSecretUntil = new Date(now.getTime() + parseOverlap(overlap)).toISOString();
    }
    // Recorded by the kinds of change made, as the console records each (client.enable, client.rotate-secret,
    // client.protection, client.update): one record of each kind, in one transaction (docs/cli.md, "Clients").
    const { client, changed } = await withAdmin(context, async (admin) =>
      valueOrFail(await updateClient({ ...admin, clock: () => now }, { id, changes })),
    );
    if (Object.keys(changed).length === 0) {
      // Nothing written and nothing recorded in the audit log (docs/design.md, "Administrative changes").
      const only = Object.keys(changes);
      context.out(
        only.length === 1 && only[0] === 'active'
          ? `nothing changed: client ${id} was already enabled`
          : `nothing changed: client ${id} was already so`,
      );
      if (changes.secretKey === null) context.err(noSecretWarning(id));
      return 0;
    }
    const said: string[] = [];
    const widening = toClientJson(client, now).replayWidening;
    if (changes.replayWindowSeconds !== undefined && widening !== null)
      said.push(
        `the replay window is wider: requests signed before ${widening.signedNotBefore} stay refused until ${widening.until} (docs/security.md)`,
      );
    if (changes.keepPreviousSecretUntil === undefined) said.push(`client ${id} updated`);
    else if (client.previousSecret === undefined) said.push(`client ${id} updated; it had no secret to keep`);
    else
      said.push(`client ${id} updated; its previous secret stays valid until ${client.previousSecret.until}`);
    reportClientChange(context, id, said, generated);
    if (changes.secretKey === null) context.err(noSecretWarning(id));
    return 0;
  },
};
