import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult, runPokerLaunch } from '../test-support/run-poker-launch.js';
import { COMMANDS } from './index.js';

const HELP_RUNS_AT_ONCE = Math.max(2, availableParallelism());

/** `poker-launch <command> --help` of every command, run once for the tests below that read them. */
let everyHelp: Promise<CliResult[]> | undefined;
function helpOfEveryCommand(): Promise<CliResult[]> {
  everyHelp ??= (async () => {
    // A few at a time: dozens of node processes at once would only make each slower on a small machine.
    const help: CliResult[] = [];
    for (let start = 0; start < COMMANDS.length; start += HELP_RUNS_AT_ONCE) {
      const batch = COMMANDS.slice(start, start + HELP_RUNS_AT_ONCE);
      help.push(
        ...(await Promise.all(
          batch.map((command) => runPokerLaunch([...command.name.split(' '), '--help'])),
        )),
      );
    }
    return help;
  })();
  return everyHelp;
}

describe('poker-launch --help', () => {
  it('lists every command, and explains each one with its usage and an example', async () => {
    const overview = await runPokerLaunch(['--help']);
    expect(overview.code).toBe(0);
    const help = await helpOfEveryCommand();
    COMMANDS.forEach((command, index) => {
      expect(overview.stdout).toContain(`  ${command.name} `);
      expect(help[index]?.code).toBe(0);
      expect(help[index]?.stdout).toContain(`usage: poker-launch ${command.name}`);
      expect(help[index]?.stdout).toMatch(new RegExp(`^example: .*poker-launch ${command.name}( |$)`, 'm'));
    });
  });
});

describe('the examples of --help', () => {
  // An example must work as written for years: "player block … --until 2026-12-31T00:00:00Z" started to
  // fail ("until must be in the future") the day after.
  it('hold no date that will soon be in the past', async () => {
    const help = await helpOfEveryCommand();
    const helps = help.filter((_, index) => COMMANDS[index]?.name.startsWith('player '));
    const dates = helps.flatMap((help) =>
      [...help.stdout.matchAll(/\b\d{4}-\d{2}-\d{2}T[\d:.]+Z\b/g)].map(String),
    );
    expect(dates.length).toBeGreaterThan(0);
    const inFiveYears = Date.now() + 5 * 365 * 24 * 3600 * 1000;
    for (const date of dates) expect(Date.parse(date), date).toBeGreaterThan(inFiveYears);
  });
});

describe('poker-launch serve --help', () => {
  it('names every environment variable of the configuration table of the operations guide, and TRUST_PROXY', async () => {
    const guide = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const table = guide.slice(guide.indexOf('## Configuration'), guide.indexOf('## Settings'));
    const variables = [...table.matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1] ?? '');
    expect(variables).toContain('RATE_LIMIT_PER_MINUTE');

    const help = await runPokerLaunch(['serve', '--help']);
    for (const variable of [...variables, 'TRUST_PROXY']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${variable} `, 'm'));
    }
  });
});

describe('standard output that cannot be written', () => {
  // A full disk: node's stack trace of the failed write, from the stream's error handler.
  it.runIf(existsSync('/dev/full'))('says so in one line, with exit code 1', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = spawnSync(process.execPath, [BIN, '--help'], {
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
      });
      expect({ code: result.status, stderr: result.stderr }).toEqual({
        code: 1,
        stderr: 'poker-launch: cannot write to standard output: ENOSPC: no space left on device, write\n',
      });
    } finally {
      closeSync(full);
    }
  });
});

describe('a mistyped command line', () => {
  it("names a group's commands when one is missing or unknown, and an unknown flag without node's advice", async () => {
    const missing =
      'poker-launch: "client" needs a command; client takes one of: add, update, list, show, activity, disable (poker-launch client --help explains them)\n';
    expect(await runPokerLaunch(['client'])).toMatchObject({ code: 2, stdout: '', stderr: missing });
    expect(await runPokerLaunch(['player', 'ban', 'u-1'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^poker-launch: unknown command "player ban"; player takes one of: add, find, show, .*\n$/,
      ),
    });
    expect(await runPokerLaunch(['sign', '--secret', 's', '--bogus', 'a=1'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'poker-launch sign: unknown flag --bogus; "poker-launch sign --help" lists its flags\n',
    });
  });

  it('offers the command or flag a typo most likely stands for, and nothing when none is close', async () => {
    const [group, command, flag, reordered, negation] = await Promise.all([
      runPokerLaunch(['session', 'revok', 's-1']),
      runPokerLaunch(['clients', 'list']),
      runPokerLaunch(['webhook', 'add', 'acme', 'https://hooks.example', '--event', 'session.created']),
      runPokerLaunch(['client', 'add', 'acme', '--poker-url', 'https://poker.example']),
      runPokerLaunch(['client', 'update', 'acme', '--no-enable']),
    ]);
    expect(group).toMatchObject({
      code: 2,
      stderr:
        'poker-launch: unknown command "session revok"; did you mean "session revoke"? session takes one of: ' +
        'purge, list, show, revoke, create (poker-launch session --help explains them)\n',
    });
    expect(command).toMatchObject({
      code: 2,
      stderr:
        'poker-launch: unknown command "clients list"; did you mean "client list"? run poker-launch --help for the list\n',
    });
    expect(flag).toMatchObject({
      code: 2,
      stderr:
        'poker-launch webhook add: unknown flag --event; did you mean --events? "poker-launch webhook add --help" lists its flags\n',
    });
    expect(reordered.stderr).toBe(
      'poker-launch client add: unknown flag --poker-url; did you mean --url-poker? "poker-launch client add --help" lists its flags\n',
    );
    // --enable is the opposite of what --no-enable asks for: not offered.
    expect(negation.stderr).toBe(
      'poker-launch client update: unknown flag --no-enable; "poker-launch client update --help" lists its flags\n',
    );
  });

  // node's own words: "Option '--secret' argument is ambiguous." and nothing after it (firstLine), or
  // "unknown flag -1" for a negative number given as a value.
  it('says a flag needs a value, and how to give a value that starts with "-"', async () => {
    const [missing, ambiguous, negative] = await Promise.all([
      runPokerLaunch(['sign', '--secret']),
      runPokerLaunch(['sign', '--secret', '--explain', 'a=1']),
      runPokerLaunch(['setting', 'set', 'NickMaxLength', '-1']),
    ]);
    expect(missing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'poker-launch sign: --secret needs a value\n',
    });
    expect(ambiguous).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'poker-launch sign: --secret needs a value, not the flag after it; give a value that starts with "-" as --secret=<value>\n',
    });
    expect(negative).toMatchObject({
      code: 2,
      stderr:
        'poker-launch setting set: unknown flag -1; an argument that starts with "-" goes after --, as in "-- -1"\n',
    });
  });

  // An id or value is echoed in the error line: a terminal would obey the escape sequences in it (a
  // retitled window, a hidden line, text that runs right to left).
  it('echoes no control character of an argument to the terminal', async () => {
    const [value, command] = await Promise.all([
      // A line break too: the message was cut there, the rest of the value and of the message lost.
      runPokerLaunch(['client', 'add', 'x', '--player-ids', '\x1b]0;pwned\x07\u202e\nnext']),
      runPokerLaunch(['\x1b[2Jclient']),
    ]);
    expect(value).toMatchObject({
      code: 2,
      stderr:
        'poker-launch client add: --player-ids must be external or internal, got "\\x1B]0;pwned\\x07\\u202E\\x0Anext"\n',
    });
    expect(command).toMatchObject({
      code: 2,
      stderr: 'poker-launch: unknown command "\\x1B[2Jclient"; run poker-launch --help for the list\n',
    });
  });

  // It said: unknown command ""; and node's own words for a value given to a flag that takes none.
  it('names a flag given before any command, and a value given to a flag that takes none', async () => {
    const [flagFirst, valued, nothing] = await Promise.all([
      runPokerLaunch(['--json', 'client', 'list']),
      runPokerLaunch(['client', 'list', '--json=yes']),
      runPokerLaunch([]),
    ]);
    // No command at all is a usage mistake too: the list goes to stderr, nothing a script would read.
    expect(nothing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^usage: poker-launch <command> \[options\]/),
    });
    expect(flagFirst).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'poker-launch: unknown flag --json before the command; run poker-launch --help for the list\n',
    });
    expect(valued).toMatchObject({
      code: 2,
      stderr: 'poker-launch client list: --json takes no value\n',
    });
  });

  it('prints the usage of a command without arguments as one line with nothing after it', async () => {
    expect(await runPokerLaunch(['session', 'purge', 'extra'])).toMatchObject({
      code: 2,
      stderr: 'poker-launch session purge: usage: poker-launch session purge\n',
    });
  });

  // parseArgs keeps the last of a flag given twice: a script's "--secret A --secret B" would use B
  // silently. Exit 2, one line, no value (a secret) echoed (docs/cli.md, "Exit codes").
  it('refuses a flag given twice with different values, or with its negation, and names no value', async () => {
    const twice = await runPokerLaunch([
      'sign',
      '--secret',
      'first-secret',
      '--secret',
      'other-secret',
      'a=1',
    ]);
    expect(twice).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'poker-launch sign: --secret given twice, with different values; give it once\n',
    });
    const negated = await runPokerLaunch(['client', 'list', '--json', '--no-json']);
    expect(negated).toMatchObject({
      code: 2,
      stderr: 'poker-launch client list: --json and --no-json both given; give one\n',
    });
    const same = await runPokerLaunch(['sign', '--secret', 's', '--secret', 's', 'a=1']);
    expect(same.code).toBe(0);
  });
});
