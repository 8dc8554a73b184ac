import { parseArgs } from 'node:util';
import { PLAIN_SCENARIOS, SCENARIO_NAMES, type ScenarioName } from './scenarios/scenario.js';

export type Dialect = 'sqlite' | 'postgres';

export type LogTarget = 'null' | 'pipe';

/** The soak's own scenario (--soak only): every kind of request at once (modes/mixed-workload.ts). */
export const MIXED_SCENARIO = 'mixed';

export interface BenchOptions {
  readonly scenarios: readonly ScenarioName[];
  readonly dialects: readonly Dialect[];
  /** Server URL on which each run creates (and drops) its own database. */
  readonly postgresUrl: string | undefined;
  readonly connections: number;
  /** Seconds of measured load per target and round. */
  readonly duration: number;
  /** Seconds of unmeasured load before each measured one. */
  readonly warmup: number;
  readonly rounds: number;
  /** Players (and so signed bodies, and tokens) each scenario cycles through. */
  readonly players: number;
  readonly logLevel: string;
  /** Where the service's stdout goes: /dev/null, or a pipe the benchmark reads, as a log collector would. */
  readonly logTo: LogTarget;
  /** Sessions stored before the service starts. */
  readonly seedSessions: number;
  /** Measure the service on an empty store against the service on `seedSessions` stored sessions. */
  readonly flatStore: boolean;
  /** Measure the service against itself with ACTIVITY_RECORDS=off: what recording launch attempts costs. */
  readonly activityCost: boolean;
  /**
   * Also alternate, for v2, the store floor: bare Fastify that makes each launch durable through the
   * service's own session store and does nothing else the service does.
   */
  readonly floor: boolean;
  /** Seconds of sustained v2 load with the service's memory sampled; 0: no soak. */
  readonly soak: number;
  /**
   * --soak with `--scenarios mixed`: every kind of request at once (launches, webhooks to three
   * endpoints, session control, token reads, the console, refusals), with more of the service sampled.
   */
  readonly mixed: boolean;
  /** Requests per second the load generator keeps to in all (0: as fast as the service answers). */
  readonly rate: number;
  readonly cpuProfileDir: string | undefined;
  /** Count instructions per request under callgrind instead of timing requests. */
  readonly instructions: boolean;
  /** --instructions: requests per target sent uncounted, then as many counted. */
  readonly requests: number;
  /** --instructions: leave callgrind's output files (per process, part and thread) for callgrind_annotate. */
  readonly keepCallgrind: boolean;
  /** Where the table is written; default artifacts/bench-<time>.md. */
  readonly out: string | undefined;
}

export const USAGE = `npm run bench -- [options]

Measures poker-launch against bare Fastify over HTTP, alternating them, and prints a markdown table
(also written under artifacts/).

  --scenarios <list>      v2,v3,token,v2-webhook,v2-replay (default all five; --flat-store: v2,token;
                          --soak: v2; --instructions: v2,v3,token). v2-webhook: v2 launches of a client
                          with an endpoint subscribed to session.created (an https receiver answering
                          204) against plain v2 on the same service; v2-replay: v2 launches of a client
                          with replay protection required, each signed anew with ts and nonce, against
                          plain v2 on the same service
  --dialect <d>           sqlite, postgres or both (default: both when a PostgreSQL server is named,
                          else sqlite)
  --postgres <url>        PostgreSQL server to create a fresh database on (default TEST_DATABASE_URL)
  --connections <n>       concurrent connections of the load generator (default 50; --instructions: 1)
  --duration <s>          measured seconds per target and round (default 3)
  --warmup <s>            unmeasured seconds before each measured run (default 1)
  --rounds <n>            rounds of [bare, service], order alternating (default 5)
  --players <n>           players (signed bodies, tokens) each scenario cycles through (default 1000)
  --log-level <level>     the service's LOG_LEVEL (default info)
  --log-to <where>        the service's stdout: null (/dev/null, the default) or pipe (a pipe this
                          process reads and discards, as a log collector would: Docker, journald)
  --seed-sessions <n>     store n sessions (over n/10 players) before the service starts
  --flat-store            compare the service on an empty store with it on --seed-sessions sessions
  --activity-cost         compare the service with itself without launch-attempt records
                          (ACTIVITY_RECORDS=off): what the console's activity records cost
  --floor                 for v2, alternate a third target, the store floor: bare Fastify that also
                          stores each launch through the service's own session store before it answers
                          (what the durable write alone costs; nothing else of the service); with
                          --instructions, counted too
  --soak <s>              sustained v2 load on the service alone, its RSS sampled (MB/min); with
                          --scenarios mixed, every kind of request at once (v2 and v3 launches, a
                          client with three webhook endpoints answering 204, 500 and never, session
                          ends and blocks, token reads, v3 with an API key, console pages of a signed-in
                          operator, refusals of every kind), sampled each minute: RSS, V8 heap, external
                          memory, fds, active handles, metric series, database connections, webhook
                          backlog
  --rate <n>              requests per second in all (default 0: as fast as the service answers)
  --cpu-prof <dir>        run the service under node --cpu-prof, profile written to <dir> at its exit
  --instructions          count instructions per request (valgrind's callgrind) of bare Fastify and the
                          service instead of timing them, one request at a time: the same code gives
                          the same count within about 1 %, however busy the machine (needs valgrind)
  --requests <n>          --instructions: requests sent uncounted, then counted, per target (default 3000)
  --keep-callgrind        --instructions: keep callgrind's output files, per process, part (1: the
                          requests, 2: idle) and thread, for callgrind_annotate; their folder is printed
  --out <file>            where to write the table (default artifacts/bench-<time>.md)
  --help                  this text
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** @returns undefined when --help was asked for. */
export function parseBenchOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions | undefined {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      scenarios: { type: 'string' },
      dialect: { type: 'string' },
      postgres: { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '5' },
      players: { type: 'string', default: '1000' },
      'log-level': { type: 'string', default: 'info' },
      'log-to': { type: 'string', default: 'null' },
      'seed-sessions': { type: 'string', default: '0' },
      'flat-store': { type: 'boolean', default: false },
      'activity-cost': { type: 'boolean', default: false },
      floor: { type: 'boolean', default: false },
      soak: { type: 'string', default: '0' },
      rate: { type: 'string', default: '0' },
      'cpu-prof': { type: 'string' },
      instructions: { type: 'boolean', default: false },
      requests: { type: 'string', default: '3000' },
      'keep-callgrind': { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return undefined;
  const postgresUrl = values.postgres ?? nonEmpty(env.TEST_DATABASE_URL);
  const flatStore = values['flat-store'];
  const soak = number('--soak', values.soak, 0);
  const seedSessions = integer('--seed-sessions', values['seed-sessions'], 0);
  if (flatStore && seedSessions === 0) throw new UsageError('--flat-store needs --seed-sessions <n> above 0');
  if (flatStore && soak > 0) throw new UsageError('--flat-store and --soak are separate runs');
  const instructions = values.instructions;
  const floor = values.floor;
  const activityCost = values['activity-cost'];
  if (activityCost && (flatStore || soak > 0 || instructions || floor)) {
    throw new UsageError(
      '--activity-cost is a run of its own: no --flat-store, --soak, --instructions or --floor',
    );
  }
  if (floor && (flatStore || soak > 0)) {
    throw new UsageError('--floor is for the comparison with bare Fastify: no --flat-store or --soak');
  }
  if (instructions && (flatStore || soak > 0 || seedSessions > 0 || values['cpu-prof'] !== undefined)) {
    throw new UsageError(
      '--instructions is a run of its own: no --flat-store, --soak, --seed-sessions or --cpu-prof',
    );
  }
  const defaultScenarios =
    soak > 0 || floor
      ? 'v2'
      : flatStore
        ? 'v2,token'
        : activityCost
          ? 'v2,v3'
          : instructions
            ? PLAIN_SCENARIOS.join(',')
            : SCENARIO_NAMES.join(',');
  const mixed = values.scenarios === MIXED_SCENARIO;
  if (mixed && soak === 0) throw new UsageError('--scenarios mixed is a soak: give --soak <s>');
  const scenarios = parseScenarios(mixed ? 'v2' : (values.scenarios ?? defaultScenarios));
  for (const against of ['v2-webhook', 'v2-replay'] as const) {
    if (scenarios.includes(against) && (flatStore || soak > 0 || instructions || activityCost)) {
      throw new UsageError(
        `${against} runs in the comparison with bare Fastify only: no --flat-store, --soak, --instructions or --activity-cost`,
      );
    }
  }
  if (floor && !scenarios.includes('v2')) throw new UsageError('--floor measures v2: name it in --scenarios');
  return {
    scenarios,
    dialects: parseDialects(values.dialect ?? (postgresUrl ? 'both' : 'sqlite'), postgresUrl),
    postgresUrl,
    connections: integer('--connections', values.connections ?? (instructions ? '1' : '50'), 1),
    duration: number('--duration', values.duration, 0.1),
    warmup: number('--warmup', values.warmup, 0),
    rounds: integer('--rounds', values.rounds, 1),
    players: integer('--players', values.players, 1),
    logLevel: values['log-level'],
    logTo: parseLogTarget(values['log-to']),
    seedSessions,
    flatStore,
    activityCost,
    floor,
    soak,
    mixed,
    rate: integer('--rate', values.rate, 0),
    cpuProfileDir: values['cpu-prof'],
    instructions,
    requests: integer('--requests', values.requests, 1),
    keepCallgrind: values['keep-callgrind'],
    out: values.out,
  };
}

function parseLogTarget(value: string): LogTarget {
  if (value === 'null' || value === 'pipe') return value;
  throw new UsageError(`--log-to must be null or pipe, got "${value}"`);
}

function parseScenarios(list: string): ScenarioName[] {
  const names = list.split(',').filter((name) => name !== '');
  for (const name of names) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--scenarios: unknown scenario "${name}" (${SCENARIO_NAMES.join(', ')}; with --soak, alone: ${MIXED_SCENARIO})`,
      );
    }
  }
  if (names.length === 0) throw new UsageError('--scenarios: name at least one scenario');
  return names as ScenarioName[];
}

function parseDialects(value: string, postgresUrl: string | undefined): Dialect[] {
  const dialects: Dialect[] | undefined =
    value === 'both'
      ? ['sqlite', 'postgres']
      : value === 'sqlite' || value === 'postgres'
        ? [value]
        : undefined;
  if (!dialects) throw new UsageError(`--dialect must be sqlite, postgres or both, got "${value}"`);
  if (dialects.includes('postgres') && !postgresUrl) {
    throw new UsageError('PostgreSQL needs a server: --postgres <url> or TEST_DATABASE_URL');
  }
  return dialects;
}

function number(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min) {
    throw new UsageError(`${flag} must be a number of at least ${min}, got "${text}"`);
  }
  return value;
}

function integer(flag: string, text: string, min: number): number {
  const value = number(flag, text, min);
  if (!Number.isSafeInteger(value)) throw new UsageError(`${flag} must be a whole number, got "${text}"`);
  return value;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}
