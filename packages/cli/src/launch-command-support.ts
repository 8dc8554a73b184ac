import { LaunchApiError, type SignatureOptions } from '@poker-launch/sdk';
import { type CommandContext, type OptionSpec, type ParsedArgs, UsageError } from './command.js';

/** Options both integrator commands (session create, open-game) take. */
export const CONNECTION_OPTIONS: OptionSpec = {
  url: { type: 'string' },
  client: { type: 'string' },
  secret: { type: 'string' },
  scheme: { type: 'string' },
  'replay-fields': { type: 'boolean' },
  json: { type: 'boolean' },
};

export const CONNECTION_HELP = [
  '  --url <base>     the service root, e.g. https://poker.example.com',
  '  --client <id>    your client id',
  '  --secret <s>     your secret key; or set POKER_LAUNCH_SECRET, which keeps it out of the process list',
  '                   (leave both out for a client that has no secret)',
  "  --scheme <s>     legacy (default): the spec's signature; hmac: sign t=…,n=…,hmac=… over the",
  '                   method, path and query, time, nonce and body (the client must accept hmac)',
  '  --replay-fields  legacy only: send ts (now) and nonce (random) in the query, signed with the rest',
  '  --json           print the whole response document instead of the launch URL',
];

export interface Connection {
  baseUrl: string;
  clientId: string;
  secretKey?: string;
  signature?: SignatureOptions;
}

export function readConnection(values: ParsedArgs['values'], context: CommandContext): Connection {
  const baseUrl = stringOption(values, 'url');
  const clientId = stringOption(values, 'client');
  if (baseUrl === undefined)
    throw new UsageError('--url <base> is required: the http(s) address of the service');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new UsageError(
      `--url must be the http(s) address of the service, e.g. http://127.0.0.1:8080, got "${baseUrl}"`,
    );
  }
  // A user name or password in the URL: fetch refuses it, after three attempts, quoting the password.
  if (/^https?:\/\/[^/?#]*@/.test(baseUrl)) {
    throw new UsageError('--url must be the address of the service without a user name or password');
  }
  if (clientId === undefined) throw new UsageError('--client <id> is required');
  if (clientId === '') throw new UsageError('--client is empty (an unset variable?): give your client id');
  const flag = stringOption(values, 'secret');
  const secretKey = flag ?? context.env.POKER_LAUNCH_SECRET;
  if (secretKey === '') {
    // An empty secret is a configuration slip (an unset variable in `--secret "$SECRET"`), not a choice.
    throw new UsageError(
      flag === undefined
        ? 'POKER_LAUNCH_SECRET is set but empty: set it to your secret key, or unset it for a client that has no secret'
        : '--secret is empty (an unset variable?): give your secret key, or leave --secret out for a client that has no secret',
    );
  }
  const signature = readSignature(values);
  if (signature !== undefined && secretKey === undefined) {
    throw new UsageError(
      '--scheme and --replay-fields sign with a secret: give --secret or set POKER_LAUNCH_SECRET',
    );
  }
  return {
    baseUrl,
    clientId,
    ...(secretKey === undefined ? {} : { secretKey }),
    ...(signature === undefined ? {} : { signature }),
  };
}

/** --scheme and --replay-fields as the SDK's signature option; undefined when neither is given. */
function readSignature(values: ParsedArgs['values']): SignatureOptions | undefined {
  const scheme = stringOption(values, 'scheme');
  const replayFields = values['replay-fields'];
  if (scheme !== undefined && scheme !== 'legacy' && scheme !== 'hmac') {
    throw new UsageError(`--scheme must be legacy or hmac, got "${scheme}"`);
  }
  if (scheme === 'hmac') {
    if (replayFields !== undefined) {
      throw new UsageError(
        '--replay-fields belongs to the legacy scheme; hmac signs a time and nonce of its own',
      );
    }
    return { scheme };
  }
  if (scheme === undefined && replayFields === undefined) return undefined;
  return { scheme: 'legacy', replayFields: replayFields === true };
}

export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export type Params = { [key: string]: string | number | boolean | Params };

/**
 * `key=value` words as parameters; a dotted key nests (`launchOptions.restoreSessionUrl=…` gives
 * `{ launchOptions: { restoreSessionUrl: … } }`). `convert` turns the text of a path into its value.
 */
export function parseKeyValues(
  words: readonly string[],
  convert: (path: readonly string[], text: string) => string | number | boolean = (_path, text) => text,
): Params {
  const params: Params = {};
  for (const word of words) {
    const separator = word.indexOf('=');
    if (separator <= 0) throw new UsageError(`expected key=value, got "${word}"`);
    const key = word.slice(0, separator);
    const path = key.split('.');
    if (path.some((segment) => segment === '' || segment === '__proto__')) {
      throw new UsageError(`"${key}" is not a parameter name`);
    }
    let container = params;
    for (const segment of path.slice(0, -1)) {
      const next = Object.hasOwn(container, segment) ? container[segment] : {};
      if (typeof next !== 'object') throw new UsageError(`${key} is given twice`);
      container[segment] = next;
      container = next;
    }
    const last = path.at(-1) ?? key;
    if (Object.hasOwn(container, last)) throw new UsageError(`${key} is given twice`);
    container[last] = convert(path, word.slice(separator + 1));
  }
  return params;
}

/** Prints the launch URL (or the document with --json) and any warnings; exit code 0. */
export function printLaunch(
  context: CommandContext,
  json: boolean,
  result: { warnings: readonly string[]; document: unknown },
  url: string,
): number {
  context.out(json ? JSON.stringify(result.document, null, 2) : url);
  if (!json) for (const warning of result.warnings) context.err(`warning: ${warning}`);
  return 0;
}

/** A refused launch on stderr: status, code and detail of every error (and the signature hint); exit 1. */
export function printLaunchError(
  context: CommandContext,
  command: string,
  error: unknown,
  connection?: Connection,
): number {
  if (!(error instanceof LaunchApiError)) throw error;
  const [first = '', ...rest] = error.message.split('\n');
  context.err(`poker-launch ${command}: ${first}`);
  for (const line of rest) context.err(`  ${line}`);
  if (error.code === 'invalid_signature' && connection?.secretKey === undefined) {
    context.err('  no secret was configured: pass --secret <s> or set POKER_LAUNCH_SECRET');
  }
  const sendsReplayFields =
    connection?.signature?.scheme === 'hmac' || connection?.signature?.replayFields === true;
  if (error.code === 'replay_fields_required' && !sendsReplayFields) {
    context.err('  with this command: pass --replay-fields (or --scheme hmac, where the client accepts it)');
  }
  return 1;
}
