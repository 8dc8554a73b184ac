import { canonicalString, type SignableParams, sign } from '@poker-launch/sdk';
import { type Command, CommandError, UsageError } from '../command.js';

export const signCommand: Command = {
  name: 'sign',
  summary: 'Print the sign header for request parameters (and, with --explain, the canonical string).',
  usage: '--secret <s> [--explain] key=value…',
  help: [
    '',
    'Give every parameter of the request, path userId included, as key=value. A value holding a JSON',
    'object or array is signed as the decoded value; clientId and the other excluded keys are ignored.',
    '',
    'example: poker-launch sign --secret test_secret --explain userId=12345 nick=Player1 lang=en authType=external',
  ],
  options: { secret: { type: 'string' }, explain: { type: 'boolean' } },
  positionals: [0, Number.POSITIVE_INFINITY],
  async run({ values, positionals }, context) {
    if (typeof values.secret !== 'string') throw new UsageError('--secret <s> is required');
    const params: Record<string, string> = {};
    for (const pair of positionals) {
      const separator = pair.indexOf('=');
      if (separator <= 0) throw new UsageError(`expected key=value, got "${pair}"`);
      params[pair.slice(0, separator)] = pair.slice(separator + 1);
    }
    let canonical: string;
    try {
      canonical = canonicalString(params as SignableParams);
    } catch (error) {
      // The SDK's RangeError for parameters nested deeper than it signs: a refused value, not a crash.
      if (error instanceof RangeError) throw new CommandError(error.message);
      throw error;
    }
    if (values.explain) context.out(`canonical: ${canonical}`);
    const signature = await sign(params as SignableParams, values.secret);
    context.out(values.explain ? `sign:      ${signature}` : signature);
    return 0;
  },
};
