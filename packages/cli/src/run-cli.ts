import { parseArgs } from 'node:util';
import { closestName } from '@poker-launch/server/closest-name';
import { SERVICE_VERSION } from '@poker-launch/server/version';
import { type Command, type CommandContext, CommandError, UsageError } from './command.js';
import { COMMANDS, type CommandEntry } from './commands/index.js';
import { printable } from './output.js';

const PROGRAM = 'poker-launch';

/** Runs one command line; returns the exit code. */
export async function runCli(argv: readonly string[], context: CommandContext): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    context.out(`${PROGRAM} ${SERVICE_VERSION}`);
    return 0;
  }
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const entry = findCommand(argv);
  if (!entry) {
    if (wantsHelp && argv[0]?.startsWith('-')) {
      context.out(overview());
      return 0;
    }
    if (argv.length === 0) {
      // A usage mistake (exit 2): the list on stderr, as every other one's message, none on stdout.
      context.err(overview());
      return 2;
    }
    const prefix = argv
      .filter((word) => !word.startsWith('-'))
      .slice(0, 2)
      .join(' ');
    const group = COMMANDS.filter((candidate) => candidate.name.startsWith(`${argv[0]} `));
    if (wantsHelp && group.length > 0) {
      const usages = await Promise.all(group.map(async (c) => (await c.load()).usage));
      context.out(
        group.map((c, index) => `  ${PROGRAM} ${c.name} ${usages[index]}\n      ${c.summary}`).join('\n'),
      );
      return 0;
    }
    if (group.length > 0) {
      // `poker-launch client`: a group's name alone, or with a subcommand it does not have.
      const subcommands = group.map((c) => c.name.slice(`${argv[0]} `.length)).join(', ');
      // The group alone is no mistyped command: it lacks the one it groups.
      const what =
        prefix === argv[0]
          ? `"${printable(prefix)}" needs a command`
          : `unknown command "${printable(prefix)}"`;
      context.err(
        `${PROGRAM}: ${what}; ${didYouMean(subcommandLike(argv[1], group))}` +
          `${argv[0]} takes one of: ${subcommands} (${PROGRAM} ${argv[0]} --help explains them)`,
      );
      return 2;
    }
    const first = argv[0] ?? '';
    context.err(
      first.startsWith('-')
        ? `${PROGRAM}: unknown flag ${printable(first)} before the command; run ${PROGRAM} --help for the list`
        : `${PROGRAM}: unknown command "${printable(prefix)}"; ${didYouMean(commandLike(prefix))}` +
            `run ${PROGRAM} --help for the list`,
    );
    return 2;
  }
  const command = await entry.load();
  if (wantsHelp) {
    context.out(commandHelp(entry, command));
    return 0;
  }
  const words = entry.name.split(' ').length;
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv.slice(words) as string[],
      options: command.options ?? {},
      allowPositionals: true,
      allowNegative: true,
      strict: true,
      tokens: true,
    });
    refuseRepeatedFlags(tokens, command);
    refuseUndeclaredNegations(tokens, command, entry);
    const [min, max] = command.positionals ?? [0, 0];
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(`usage: ${PROGRAM} ${entry.name} ${command.usage}`.trimEnd());
    }
    return (await command.run({ values, positionals }, context)) ?? 0;
  } catch (error) {
    // Our own messages are one line, whatever they quote: a line break in a value given is shown as \x0A,
    // not taken for the end of the message.
    if (error instanceof UsageError) {
      context.err(`${PROGRAM} ${entry.name}: ${printable(error.message)}`);
      return 2;
    }
    if (isParseArgsError(error)) {
      context.err(`${PROGRAM} ${entry.name}: ${printable(usageProblem(error, command, entry))}`);
      return 2;
    }
    if (error instanceof CommandError) {
      context.err(`${PROGRAM} ${entry.name}: ${printable(error.message)}`);
      return 1;
    }
    if (error instanceof Error && error.name === 'ConfigError') {
      context.err(`${PROGRAM} ${entry.name}: ${printable(firstLine(error))}`);
      return 1;
    }
    // Nothing a command expects (a table dropped by hand, a bug): one line, not node's stack trace of the
    // driver; the trace only when asked for, for a bug report (docs/cli.md, "Exit codes").
    const problem = error instanceof Error ? firstLine(error) : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    context.err(
      `${PROGRAM} ${entry.name}: unexpected error: ${printable(problem)}${typeof code === 'string' ? ` (${printable(code)})` : ''}; ` +
        'a damaged database or a bug: LOG_LEVEL=debug prints where it happened',
    );
    const level = context.env.LOG_LEVEL;
    if ((level === 'debug' || level === 'trace') && error instanceof Error && error.stack) {
      context.err(error.stack.split('\n').slice(1).join('\n'));
    }
    return 1;
  }
}

/** The command whose words start argv, longest name first (`client add` before `client`). */
function findCommand(argv: readonly string[]): CommandEntry | undefined {
  const sorted = [...COMMANDS].sort((a, b) => b.name.length - a.name.length);
  return sorted.find((command) => command.name.split(' ').every((word, index) => argv[index] === word));
}

function commandHelp(entry: CommandEntry, command: Command): string {
  return [
    `usage: ${PROGRAM} ${entry.name} ${command.usage}`.trimEnd(),
    '',
    entry.summary,
    ...(command.help ?? []),
  ].join('\n');
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    `usage: ${PROGRAM} <command> [options]   (${PROGRAM} <command> --help for more)`,
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    `${PROGRAM} --version prints the version of the service.`,
  ].join('\n');
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/**
 * parseArgs keeps the last of a flag given twice, so `--secret A --secret B` (a script that sets it twice)
 * would silently use B. A repeatable flag is kept whole; the same flag with the same value twice is
 * harmless. The values are never echoed: one may be a secret.
 */
function refuseRepeatedFlags(tokens: readonly Token[], command: Command): void {
  const seen = new Map<string, Extract<Token, { kind: 'option' }>>();
  for (const token of tokens) {
    if (token.kind !== 'option' || command.options?.[token.name]?.multiple) continue;
    const first = seen.get(token.name);
    if (first === undefined) {
      seen.set(token.name, token);
    } else if (first.rawName !== token.rawName) {
      throw new UsageError(`${first.rawName} and ${token.rawName} both given; give one`);
    } else if (first.value !== token.value) {
      throw new UsageError(`${token.rawName} given twice, with different values; give it once`);
    }
  }
}

/** A `--no-x` the command neither declares as a flag of its own nor lists as negatable (command.ts). */
function refuseUndeclaredNegations(tokens: readonly Token[], command: Command, entry: CommandEntry): void {
  for (const token of tokens) {
    if (token.kind !== 'option' || token.rawName !== `--no-${token.name}`) continue;
    if (command.options?.[`no-${token.name}`] || command.negatable?.includes(token.name)) continue;
    throw new UsageError(unknownFlag(token.rawName, command, entry));
  }
}

/** An unknown flag's message, naming the command's flag it most likely stands for. */
function unknownFlag(flag: string, command: Command, entry: CommandEntry): string {
  return `unknown flag ${flag}; ${didYouMean(flagLike(flag, command))}"${PROGRAM} ${entry.name} --help" lists its flags`;
}

/** The command of a group whose last word is closest to the subcommand typed (`session revok`). */
function subcommandLike(typed: string | undefined, group: readonly CommandEntry[]): string | undefined {
  if (typed === undefined || typed.startsWith('-')) return undefined;
  const lastWord = (name: string) => name.slice(name.indexOf(' ') + 1);
  const subcommand = closestName(
    typed,
    group.map((command) => lastWord(command.name)),
  );
  return group.find((command) => lastWord(command.name) === subcommand)?.name;
}

/** The command whose name is closest to the words typed (as many words as its name has). */
function commandLike(typed: string): string | undefined {
  const words = typed.split(' ');
  const close = (count: number) =>
    closestName(
      words.slice(0, count).join(' '),
      COMMANDS.map((command) => command.name).filter((name) => name.split(' ').length === count),
    );
  return (words.length > 1 ? close(2) : undefined) ?? close(1);
}

/** The command's long flag closest to a mistyped one (`--no-…` forms included where it takes them). */
function flagLike(flag: string, command: Command): string | undefined {
  if (!flag.startsWith('--')) return undefined;
  const names = Object.keys(command.options ?? {});
  const negations = (command.negatable ?? []).map((name) => `no-${name}`);
  const name = closestName(flag.slice(2), [...names, ...negations]);
  return name === undefined ? undefined : `--${name}`;
}

function didYouMean(name: string | undefined): string {
  return name === undefined ? '' : `did you mean ${name.startsWith('-') ? name : `"${name}"`}? `;
}

function isParseArgsError(error: unknown): error is Error {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/**
 * What was wrong with the command line. node's own words for an unknown flag advise putting it after
 * `--` as a positional argument (and leave a quote open), which is never what an operator meant.
 */
function usageProblem(error: Error, command: Command, entry: CommandEntry): string {
  const code = (error as Error & { code?: unknown }).code;
  const flag = /^Unknown option '([^']*)'/.exec(error.message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    // `setting set NickMaxLength -1`: a value, not a flag; `--` ends the flags (docs/cli.md, "Exit codes").
    if (/^-\d/.test(flag)) {
      return `unknown flag ${flag}; an argument that starts with "-" goes after --, as in "-- ${flag}"`;
    }
    return unknownFlag(flag, command, entry);
  }
  // `--secret` last, or followed by another flag: node's first line says "argument missing" or "is
  // ambiguous", its advice is on the lines after it.
  const valueless = /^Option '(-[^' ]+)(?: <value>)?' argument (missing|is ambiguous)/.exec(error.message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && valueless) {
    const [, name, problem] = valueless;
    return problem === 'missing'
      ? `${name} needs a value`
      : `${name} needs a value, not the flag after it; give a value that starts with "-" as ${name}=<value>`;
  }
  const valued = /^Option '(--[^' ]+)' does not take an argument/.exec(error.message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && valued) return `${valued[1]} takes no value`;
  return firstLine(error);
}

function firstLine(error: Error): string {
  return error.message.split('\n')[0] ?? error.message;
}
