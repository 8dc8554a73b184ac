import {
  type ClientChanges,
  type LaunchTarget,
  REPLAY_PROTECTIONS,
  type ReplayProtection,
  readReplayWindow,
  SIGNATURE_SCHEMES,
  type SignatureSchemes,
} from '@poker-launch/server/admin';
import { type CommandContext, type OptionSpec, type ParsedArgs, UsageError } from './command.js';

/** Each --url-… flag and the target it configures. */
const URL_FLAGS = {
  'url-poker': 'poker',
  'url-casino-lobby': 'casinoLobby',
  'url-casino': 'casino',
  'url-sport': 'sport',
} as const satisfies Record<string, LaunchTarget>;
const PLAYER_ID_MODES = ['external', 'internal'] as const;

/** The flags of `client add`. */
export const CLIENT_OPTIONS = {
  secret: { type: 'string' },
  'no-secret': { type: 'boolean' },
  'currency-mandatory': { type: 'boolean' },
  'player-ids': { type: 'string' },
  'url-poker': { type: 'string' },
  'url-casino-lobby': { type: 'string' },
  'url-casino': { type: 'string' },
  'url-sport': { type: 'string' },
  'frame-origin': { type: 'string', multiple: true },
  'replay-protection': { type: 'string' },
  'replay-window': { type: 'string' },
  signature: { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  'no-allowed-addresses': { type: 'boolean' },
} as const satisfies OptionSpec;

/** The one client flag whose `--no-` form is meant: a mandatory currency made optional again. */
export const CLIENT_NEGATABLE = ['currency-mandatory'] as const;

/** `client update` takes the same flags, plus ways back: --enable, --no-url-…, --no-frame-origins. */
export const CLIENT_UPDATE_OPTIONS = {
  ...CLIENT_OPTIONS,
  enable: { type: 'boolean' },
  'no-url-poker': { type: 'boolean' },
  'no-url-casino-lobby': { type: 'boolean' },
  'no-url-casino': { type: 'boolean' },
  'no-url-sport': { type: 'boolean' },
  'no-frame-origins': { type: 'boolean' },
  'keep-previous-for': { type: 'string' },
  'rotate-secret': { type: 'boolean' },
} as const satisfies OptionSpec;

const DAY_MS = 86_400_000;
const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: DAY_MS };
/** The longest overlap of two secrets: a rotation is meant to end. */
const MAX_OVERLAP_MS = 90 * DAY_MS;

/**
 * `--keep-previous-for 24h` (also `90m`, `3s`, `7d`): how long the secret a rotation replaces still
 * signs, in milliseconds.
 */
export function parseOverlap(text: string): number {
  const match = /^(\d{1,7})([smhd])$/.exec(text);
  const ms = match ? Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? ''] ?? 0) : 0;
  if (ms <= 0 || ms > MAX_OVERLAP_MS) {
    throw new UsageError(
      `--keep-previous-for takes a duration such as 24h, 90m or 3s, from 1s to 90d, got "${text}"`,
    );
  }
  return ms;
}

/**
 * `--replay-window 5m` (also `300s`, `300`, `1h`): how far a signed time may be from the server's clock,
 * in whole seconds, 30 s to 1 h; read as the console reads its field.
 */
export function parseReplayWindow(text: string): number {
  const read = readReplayWindow(text);
  if (!read.ok) throw new UsageError(`--replay-window: ${read.problem}`);
  return read.seconds;
}

export const CLIENT_OPTIONS_USAGE =
  '[--secret <s> | --no-secret] [--currency-mandatory] [--player-ids external|internal] ' +
  '[--url-poker U] [--url-casino-lobby U] [--url-casino U] [--url-sport U] [--frame-origin <origin>]… ' +
  '[--replay-protection off|accept|require] [--replay-window <duration>] [--signature legacy|hmac|both] ' +
  '[--allow-address <cidr>… | --no-allowed-addresses]';

export const CLIENT_OPTIONS_HELP = [
  '',
  '  --secret <s>            the shared secret of the signature: 16 to 512 characters, no spaces;',
  '                          --secret - reads it from standard input (at a terminal: asked twice, not',
  '                          echoed), keeping it out of the process list and the shell history',
  '  --no-secret             no secret: the client may call unsigned',
  '  --currency-mandatory    requests must carry an active currency (--no-currency-mandatory: optional)',
  '  --player-ids <mode>     external: unknown userIds are registered (default);',
  '                          internal: userId must be a player id of this service (see player add)',
  '  --url-poker <U>         launch URL of gameCode poker (likewise --url-casino-lobby, --url-casino,',
  '                          --url-sport); without one, the built-in game page is used',
  '  --frame-origin <origin> an origin allowed to frame the game and host restoreSessionUrl, e.g.',
  '                          https://casino.example (repeat it for several)',
  '  --replay-protection <p> off: ts and nonce are plain parameters (default); accept: a request that',
  '                          carries them is good once, near its ts; require: every request must',
  '  --replay-window <d>     how far ts (or t= of an hmac sign) may be from the server clock, either',
  '                          way: 30s to 1h (default 5m)',
  "  --signature <scheme>    legacy: the API's sign (default); hmac: t=…,n=…,hmac=… only; both: either",
  "  --allow-address <cidr>  a range the client's calls may come from, e.g. 203.0.113.0/24 or",
  '                          2001:db8::/32 (repeat it for several; the list given replaces the old one)',
  '  --no-allowed-addresses  calls from any address (the default)',
];

/**
 * `--secret -`: the secret from standard input, as `operator add` reads a password (its first line; at a
 * terminal, typed twice without echo), so that it never stands on the command line, where the process
 * list shows it while the command runs and the shell's history keeps it (docs/cli.md, Clients). A secret
 * of `-` itself is too short to be one.
 */
export async function readSecretFromInput(changes: ClientChanges, context: CommandContext): Promise<void> {
  if (changes.secretKey !== '-') return;
  const secret = await context.readPassword('secret');
  if (secret === undefined) throw new UsageError('--secret -: no secret on standard input');
  changes.secretKey = secret;
}

/** What the flags ask to change; a flag left out changes nothing. */
export function readClientChanges(values: ParsedArgs['values']): ClientChanges {
  const changes: ClientChanges = {};
  if (negated(values, 'secret')) changes.secretKey = null;
  else if (typeof values.secret === 'string') changes.secretKey = values.secret;
  if (typeof values['currency-mandatory'] === 'boolean')
    changes.currencyMandatory = values['currency-mandatory'];
  if (values.enable === true) changes.active = true;
  const mode = values['player-ids'];
  if (mode !== undefined) {
    if (!PLAYER_ID_MODES.includes(mode as (typeof PLAYER_ID_MODES)[number])) {
      throw new UsageError(`--player-ids must be external or internal, got "${mode}"`);
    }
    changes.playerIdMode = mode as (typeof PLAYER_ID_MODES)[number];
  }
  for (const [flag, target] of Object.entries(URL_FLAGS)) {
    const url = values[flag];
    if (negated(values, flag)) changes.launchUrls = { ...changes.launchUrls, [target]: null };
    else if (typeof url === 'string') changes.launchUrls = { ...changes.launchUrls, [target]: url };
  }
  const origins = values['frame-origin'];
  if (Array.isArray(origins)) changes.frameOrigins = origins.filter((origin) => typeof origin === 'string');
  else if (negated(values, 'frame-origins')) changes.frameOrigins = [];
  return { ...changes, ...readProtectionChanges(values) };
}

/** The flags of replay protection, signature schemes and the allow-list (docs/security.md). */
function readProtectionChanges(values: ParsedArgs['values']): ClientChanges {
  const changes: ClientChanges = {};
  const protection = values['replay-protection'];
  if (protection !== undefined) {
    if (!REPLAY_PROTECTIONS.includes(protection as ReplayProtection)) {
      throw new UsageError(`--replay-protection must be off, accept or require, got "${protection}"`);
    }
    changes.replayProtection = protection as ReplayProtection;
  }
  const window = values['replay-window'];
  if (typeof window === 'string') changes.replayWindowSeconds = parseReplayWindow(window);
  const scheme = values.signature;
  if (scheme !== undefined) {
    if (!SIGNATURE_SCHEMES.includes(scheme as SignatureSchemes)) {
      throw new UsageError(`--signature must be legacy, hmac or both, got "${scheme}"`);
    }
    changes.signature = scheme as SignatureSchemes;
  }
  const ranges = values['allow-address'];
  const none = negated(values, 'allowed-addresses');
  if (Array.isArray(ranges) && none) {
    throw new UsageError('--allow-address and --no-allowed-addresses contradict each other');
  }
  if (Array.isArray(ranges)) changes.allowedAddresses = ranges.filter((range) => typeof range === 'string');
  else if (none) changes.allowedAddresses = [];
  return changes;
}

/**
 * `--no-<name>`, declared as its own boolean so that strict parsing accepts it. Node's parseArgs
 * (allowNegative) stores it as `<name>: false`, the last of --x/--no-x winning; read `no-<name>` too,
 * so the flag keeps working should it ever be stored under its own name.
 */
function negated(values: ParsedArgs['values'], name: string): boolean {
  return values[name] === false || values[`no-${name}`] === true;
}

/**
 * Said on stderr whenever a command leaves a client without a secret: nothing then proves a request is the
 * integrator's, and any request launches any of its players (docs/security.md).
 */
export function noSecretWarning(id: string): string {
  return (
    `warning: client ${id} has no secret: its requests need no signature, so anyone who can reach the API ` +
    `launches any of its players; set one with: poker-launch client update ${id} --rotate-secret`
  );
}

/**
 * What `client add` and `client update` say they did, on stdout. With a secret they generated, that secret
 * alone is stdout, so `SECRET=$(…)` captures it (as `user add` prints a key and `webhook update` a secret),
 * and what they did goes to stderr, with where the secret is found again: unlike a key, the service keeps
 * it to check signatures.
 */
export function reportClientChange(
  context: CommandContext,
  id: string,
  lines: readonly string[],
  generated: string | undefined,
): void {
  if (generated === undefined) {
    for (const line of lines) context.out(line);
    return;
  }
  context.out(generated);
  for (const line of lines) context.err(line);
  context.err(`store the secret above now; poker-launch client show ${id} --show-secret prints it again`);
}
