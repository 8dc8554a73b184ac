import { type ParsedArgs, UsageError } from '../command.js';

/** The --client every player command needs: a player belongs to a client. */
export function requiredClient(values: ParsedArgs['values']): string {
  if (typeof values.client !== 'string') throw new UsageError('--client <id> is required');
  return values.client;
}
