import {
  canonicalString,
  hmacSignHeader,
  hmacSigningText,
  newNonce,
  replayFields,
  sign,
  unixSeconds,
} from '@poker-launch/sdk';
import { isNonce, parseUnixSeconds, sha256Hex } from '@poker-launch/sdk/internal';
import { arrayReplace, type PhpArray } from '@poker-launch/sdk/php';
import { type Command, type CommandContext, CommandError, type ParsedArgs, UsageError } from '../command.js';
import { stringOption } from '../launch-command-support.js';
import { type BodyInput, readBody, readPairs } from '../sign-input.js';

const SCHEMES = ['legacy', 'hmac'] as const;
/** Options only one scheme takes, so that a mix-up is said, not silently ignored. */
const HMAC_ONLY = ['method', 'target', 'timestamp', 'nonce'] as const;

export const signCommand: Command = {
  usage: '[--secret <s>] [--scheme legacy|hmac] [--explain] [options] [key=value…]',
  help: [
    '',
    '  --secret <s>     the secret key of the client; or set POKER_LAUNCH_SECRET, which keeps it out of the',
    '                   process list and the shell history',
    '',
    "The spec's signature (--scheme legacy, the default): give every parameter of the request, path userId",
    'included. Each key=value is one pair, read as PHP reads a query string (extra[10]=ten nests, extra[]=x',
    'appends, integer keys sort as numbers), taken as written (no percent-decoding). A value holding a JSON',
    'object or array is signed as the decoded value; clientId and the other excluded keys are ignored.',
    '  --body <form>     a form body as sent (nick=Player1&lang=en), read as PHP reads it',
    '  --json <file|->   a JSON body (v3, or a JSON v2 request), read as json_decode reads it',
    '  --replay-fields   add ts (now) and nonce (random); prints them first, as ts=…&nonce=…, to send with',
    '                    the request (v2: query or body; v3: query)',
    '',
    'The hmac scheme (--scheme hmac) signs the request as it goes on the wire; prints t=…,n=…,hmac=…',
    '  --target <p>      path and query exactly as on the request line: /api/web/v2/app/users/1/session?clientId=demo',
    '  --method <M>      default POST',
    '  --body <text>     the body as sent, or --json <file|-> for a body in a file (its bytes as they are)',
    '  --timestamp <s>   Unix seconds to sign with (default: now); --nonce <n> (default: a random one)',
    '',
    'example: POKER_LAUNCH_SECRET=test_secret poker-launch sign --explain userId=12345 nick=Player1 lang=en authType=external',
    "example: POKER_LAUNCH_SECRET=test_secret poker-launch sign --scheme hmac --target '/api/web/v2/app/users/12345/session?clientId=demo' \\",
    "           --body 'nick=Player1&lang=en'",
  ],
  options: {
    secret: { type: 'string' },
    explain: { type: 'boolean' },
    scheme: { type: 'string' },
    'replay-fields': { type: 'boolean' },
    body: { type: 'string' },
    json: { type: 'string' },
    method: { type: 'string' },
    target: { type: 'string' },
    timestamp: { type: 'string' },
    nonce: { type: 'string' },
  },
  positionals: [0, Number.POSITIVE_INFINITY],
  async run({ values, positionals }, context) {
    // From POKER_LAUNCH_SECRET as session create and open-game take it: on the command line a secret is in
    // the process list while the command runs, and in the shell's history after (docs/cli.md, sign).
    const flag = stringOption(values, 'secret');
    const secret = flag ?? context.env.POKER_LAUNCH_SECRET;
    if (secret === undefined) throw new UsageError('--secret <s> is required, or set POKER_LAUNCH_SECRET');
    if (secret === '') {
      // An empty secret is a configuration slip (an unset variable in `--secret "$SECRET"`), not a choice.
      throw new UsageError(
        flag === undefined
          ? 'POKER_LAUNCH_SECRET is set but empty: set it to the secret key of the client'
          : '--secret is empty (an unset variable?): give the secret key of the client',
      );
    }
    const scheme = stringOption(values, 'scheme') ?? 'legacy';
    if (!SCHEMES.includes(scheme as (typeof SCHEMES)[number])) {
      throw new UsageError(`--scheme must be legacy or hmac, got "${scheme}"`);
    }
    const body = await readBody(values, context);
    if (scheme === 'hmac') return signHmac(values, positionals, body, secret, context);
    const misplaced = HMAC_ONLY.find((name) => values[name] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to --scheme hmac`);
    return signLegacy(values, positionals, body, secret, context);
  },
};

async function signLegacy(
  values: ParsedArgs['values'],
  positionals: readonly string[],
  body: BodyInput | undefined,
  secret: string,
  context: CommandContext,
): Promise<number> {
  const pairs = readPairs(positionals);
  let fields: string | undefined;
  if (values['replay-fields'] === true) {
    if (pairs.has('ts') || pairs.has('nonce')) {
      throw new UsageError('--replay-fields makes ts and nonce: leave out the ones given as key=value');
    }
    const made = replayFields();
    pairs.set('ts', made.ts).set('nonce', made.nonce);
    fields = `ts=${made.ts}&nonce=${made.nonce}`;
  } else {
    warnOnMalformedReplayFields(pairs, context);
  }
  const params = body === undefined ? pairs : arrayReplace(pairs, body.params());
  let canonical: string;
  try {
    canonical = canonicalString(params);
  } catch (error) {
    // The SDK's RangeError for parameters nested deeper than it signs: a refused value, not a crash.
    if (error instanceof RangeError) throw new CommandError(error.message);
    throw error;
  }
  if (canonical === '') {
    // `sign --secret "$SECRET"` with the parameters forgotten (or only clientId): a sign no request carries.
    context.err(
      'warning: no parameter is signed (none given, or only ones the signature leaves out, like clientId); give every parameter of the request, path userId included',
    );
  }
  const signature = await sign(params, secret);
  if (values.explain) {
    if (fields !== undefined) context.out(`fields:    ${fields}`);
    context.out(`canonical: ${canonical}`);
    context.out(`sign:      ${signature}`);
  } else {
    if (fields !== undefined) context.out(fields);
    context.out(signature);
  }
  return 0;
}

/** ts and nonce given by hand are ordinary parameters; a service that checks them refuses these forms. */
function warnOnMalformedReplayFields(pairs: PhpArray, context: CommandContext): void {
  const ts = pairs.get('ts');
  const nonce = pairs.get('nonce');
  if (ts !== undefined && parseUnixSeconds(ts) === undefined) {
    context.err(
      'warning: ts is not Unix seconds (decimal, no sign or leading zero); a service that checks it refuses it',
    );
  }
  if (nonce !== undefined && !isNonce(nonce)) {
    context.err(
      'warning: nonce is not 16–64 characters of A-Z a-z 0-9 _ -; a service that checks it refuses it',
    );
  }
}

async function signHmac(
  values: ParsedArgs['values'],
  positionals: readonly string[],
  body: BodyInput | undefined,
  secret: string,
  context: CommandContext,
): Promise<number> {
  if (positionals.length > 0) {
    throw new UsageError(
      '--scheme hmac signs the body as sent: give it with --body or --json, not as key=value',
    );
  }
  if (values['replay-fields'] !== undefined) {
    throw new UsageError(
      '--replay-fields belongs to the legacy scheme; hmac signs a time and nonce of its own',
    );
  }
  const target = stringOption(values, 'target');
  if (target === undefined)
    throw new UsageError('--scheme hmac needs --target <path?query>, as on the request line');
  const method = stringOption(values, 'method') ?? 'POST';
  const timestampText = stringOption(values, 'timestamp');
  const timestamp = timestampText === undefined ? unixSeconds() : parseUnixSeconds(timestampText);
  if (timestamp === undefined) {
    throw new UsageError(
      `--timestamp takes Unix seconds (decimal, no sign or leading zero), got "${timestampText}"`,
    );
  }
  const nonce = stringOption(values, 'nonce') ?? newNonce();
  if (!isNonce(nonce))
    throw new UsageError(`--nonce takes 16–64 characters of A-Z a-z 0-9 _ -, got "${nonce}"`);
  const request = { method, target, body: body?.bytes };
  let header: string;
  try {
    header = await hmacSignHeader(secret, request, { timestamp, nonce });
  } catch (error) {
    // The SDK names a part it cannot sign (a target with a space, a method that is not a token).
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  if (values.explain) {
    const text = hmacSigningText({
      method,
      target,
      timestamp,
      nonce,
      bodySha256: await sha256Hex(body?.bytes ?? ''),
    });
    const [first, ...rest] = text.split('\n');
    context.out(`signed:    ${first}`);
    for (const line of rest) context.out(`           ${line}`);
    context.out(`sign:      ${header}`);
  } else {
    context.out(header);
  }
  return 0;
}
