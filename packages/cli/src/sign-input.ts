import { readFile } from 'node:fs/promises';
import { NOT_JSON, PhpArray, PhpInputError, parseStr, phpJsonDecode } from '@poker-launch/sdk/php';
import { type CommandContext, CommandError, type ParsedArgs, UsageError } from './command.js';
import { stringOption } from './launch-command-support.js';

/**
 * `key=value` words read as PHP reads a query string, each word one pair taken as written (no
 * percent-decoding): `extra[10]=ten` nests, `extra[]=next` appends at the next free integer key, `10`
 * is an integer key, `.` and space in a top-level name become `_`, a repeated name keeps its first place
 * and its last value. The SDK's parse_str does the reading, the very reader of the service.
 *
 * @example readPairs(['extra[10]=ten', 'extra[9]=nine', 'extra[]=next']) // extra => [10 => ten, 9 => nine, 11 => next]
 */
export function readPairs(words: readonly string[]): PhpArray {
  const query = words.map((word) => {
    const separator = word.indexOf('=');
    if (separator <= 0) throw new UsageError(`expected key=value, got "${word}"`);
    return `${encodeURIComponent(word.slice(0, separator))}=${encodeURIComponent(word.slice(separator + 1))}`;
  });
  try {
    return parseStr(query.join('&'));
  } catch (error) {
    if (error instanceof PhpInputError) throw new UsageError(error.message);
    throw error;
  }
}

/** The request body given with --body (form text, as sent) or --json (a file, or - for stdin). */
export interface BodyInput {
  kind: 'form' | 'json';
  bytes: Uint8Array;
  /** How the spec's signature reads it: parse_str for a form, json_decode for JSON. */
  params(): PhpArray;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function readBody(
  values: ParsedArgs['values'],
  context: CommandContext,
): Promise<BodyInput | undefined> {
  const form = stringOption(values, 'body');
  const json = stringOption(values, 'json');
  if (form !== undefined && json !== undefined)
    throw new UsageError('give the body once: --body or --json, not both');
  if (form !== undefined) {
    return { kind: 'form', bytes: new TextEncoder().encode(form), params: () => parseStr(form) };
  }
  if (json === undefined) return undefined;
  const bytes = await readJsonFile(json, context);
  return {
    kind: 'json',
    bytes,
    params: () => {
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        throw new CommandError(`--json ${json}: not UTF-8 text`);
      }
      const decoded = phpJsonDecode(text);
      if (decoded === NOT_JSON || !(decoded instanceof PhpArray)) {
        throw new CommandError(`--json ${json}: not a JSON object or array, as PHP's json_decode reads it`);
      }
      return decoded;
    },
  };
}

async function readJsonFile(path: string, context: CommandContext): Promise<Uint8Array> {
  if (path === '-') return context.readStdin();
  try {
    return await readFile(path);
  } catch (error) {
    throw new CommandError(`--json ${path}: ${readProblem(error as NodeJS.ErrnoException)}`);
  }
}

/** Why a file could not be read, in words and with what to do (not the errno alone). */
function readProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'no such file; give a JSON file, or - for standard input';
  if (error.code === 'EISDIR') return 'a directory, not a file; give a JSON file, or - for standard input';
  if (error.code === 'EACCES') return 'not readable by this user (permission denied)';
  return `cannot read it (${error.code ?? error.message})`;
}
