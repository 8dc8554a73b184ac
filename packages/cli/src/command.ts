import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** What a command may touch: its streams and the environment (for DATABASE_URL and friends). */
export interface CommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  out(line: string): void;
  err(line: string): void;
  /** All of standard input, as bytes (for `-` given in place of a file). */
  readStdin(): Promise<Uint8Array>;
  /**
   * A password (or a client's secret, `--secret -`): asked twice at a terminal, without echo; else the
   * first line of standard input (`undefined` when there is none).
   */
  readPassword(what?: 'password' | 'secret'): Promise<string | undefined>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/**
 * One CLI command; each lives in its own file under commands/ and is listed, with the words that select
 * it and its one-line summary, in commands/index.ts.
 */
export interface Command {
  /** Usage after the command name, e.g. `<id> [--secret <s> | --no-secret]`. */
  readonly usage: string;
  /** Extra help lines shown by --help. */
  readonly help?: readonly string[];
  readonly options?: OptionSpec;
  /**
   * Boolean flags whose `--no-` form means something (`--no-currency-mandatory`). Any other `--no-x` is
   * refused as unknown, though node's parser would read it as `x: false`: `client update --no-enable`
   * disabled a client without ending its sessions, where `client disable` ends them.
   */
  readonly negatable?: readonly string[];
  /** Positional arguments it takes: [min, max] (max Infinity for "any number"). */
  readonly positionals?: readonly [number, number];
  /** Exit code: 0 (or nothing) on success. */
  run(args: ParsedArgs, context: CommandContext): Promise<number | undefined>;
}

/** A mistake in how the command was called: one line on stderr and exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on (unknown client, value out of range): one line on stderr and exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}
