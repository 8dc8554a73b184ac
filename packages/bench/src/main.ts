import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchOptions, parseBenchOptions, USAGE } from './bench-options.js';
import { runActivityCost } from './modes/activity-cost.js';
import { runCompare } from './modes/compare.js';
import { runFlatStore } from './modes/flat-store.js';
import { type InstructionRow, runInstructions } from './modes/instructions.js';
import { type PairedRow, rowSummaries } from './modes/paired-row.js';
import { runSoak, type SoakRow } from './modes/soak.js';
import { interrupted } from './processes/cleanup-on-interrupt.js';
import { listProfiles, newProfiles, topSelfTime } from './report/cpu-profile.js';
import { machineLines } from './report/machine.js';
import {
  activityCostTable,
  compareTable,
  flatStoreTable,
  instructionsTable,
  mixedSoakTables,
  replayTable,
  roundsTable,
  soakTable,
  webhookTable,
} from './report/tables.js';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let options: BenchOptions | undefined;
  try {
    options = parseBenchOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    process.stdout.write(USAGE);
    return 0;
  }
  const profileDir = options.cpuProfileDir === undefined ? undefined : resolve(options.cpuProfileDir);
  if (profileDir) options = { ...options, cpuProfileDir: profileDir };
  const profilesBefore = new Set(profileDir ? await listProfiles(profileDir) : []);

  const lines = ['# poker-launch benchmark', '', ...machineLines(), `- run: ${describeRun(options)}`, ''];
  const section =
    options.soak > 0
      ? await soakSection(options)
      : options.instructions
        ? await instructionsSection(options)
        : await pairedSection(options);
  lines.push(...section.lines);
  const failed = section.failures;
  if (profileDir) lines.push(...(await profileLines(profileDir, profilesBefore)));
  if (failed > 0) {
    lines.splice(
      2,
      0,
      `**${failed} REQUESTS FAILED (non-2xx or no answer): the speeds below are not valid.**`,
      '',
    );
  }

  const report = `${lines.join('\n')}\n`;
  const out =
    options.out ??
    join(REPOSITORY, 'artifacts', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, report);
  process.stdout.write(report);
  progress(`written to ${out}`);
  if (failed > 0) progress(`\n*** ${failed} REQUESTS FAILED: see the errors column and the statuses ***`);
  return failed > 0 ? 1 : 0;
}

const CPU_RATIO_NOTE =
  'CPU ratio: the same ratio by CPU time per request (user + system, every thread, from /proc), which the ' +
  "neighbours' load disturbs less than req/s; it does not see time spent waiting (an fsync, a lock). " +
  "Per round, CPU ms/request is followed, in brackets, by the event loop's (the main thread's) part of it.";

const FLOOR_NOTE =
  "Store floor (--floor, v2): bare Fastify that also makes each launch durable through the service's own " +
  'session store (group commit; on SQLite the writer thread, synchronous=FULL; on PostgreSQL the batch ' +
  'function) before it answers, on a store of its own, and does nothing else the service does (no ' +
  'signature, validation, log line, metrics or security headers). Its ratio is to bare Fastify too: what ' +
  'the durable write alone leaves of the machine, the ceiling of any service built on this store.';

const WEBHOOK_NOTE =
  'v2-webhook: the same service answers v2 launches of the `bench` client (no endpoint: plain v2) and of ' +
  '`bench-hooks`, whose one endpoint takes session.created; each of those launches writes its event in ' +
  'its own transaction, and the service delivers it over https to a receiver in its own process that ' +
  'answers 204, while the load goes on. After each run the benchmark waits until every delivery of it ' +
  'arrived before the next run starts (outside the measurement): "delivered during the run" is the share ' +
  'that arrived while the run lasted, the rest is the backlog the run left. "ratio, deliveries included" ' +
  "counts that wait in: each run's launches ÷ (its seconds + the wait), the median of the runs, ÷ plain " +
  "v2's req/s: about what a load that lasts can keep while every event is delivered (at least that: " +
  'the wait after a run may leave CPU unused).';

const REPLAY_NOTE =
  'v2-replay: the same service answers v2 launches of the `bench` client (replay protection off: plain v2) ' +
  'and of `bench-replay`, added with `--replay-protection require`, whose every request carries `ts` (the ' +
  'time it is sent) and a `nonce` never used before among its signed form parameters, signed anew by the ' +
  'load generator as it sends it. Each of those launches checks the window and records its signature as ' +
  "used in the launch's own transaction.";

interface Section {
  readonly lines: string[];
  /** Failed requests (non-2xx or no answer), warm-ups included. */
  readonly failures: number;
}

async function soakSection(options: BenchOptions): Promise<Section> {
  const rows: SoakRow[] = [];
  for (const dialect of options.dialects) rows.push(await runSoak(options, dialect, progress));
  return {
    lines: [
      '## Soak: the service alone under sustained load',
      '',
      ...soakTable(rows),
      '',
      ...rows.flatMap((row) => (row.minutes ? mixedSoakTables(row) : [])),
    ],
    failures: rows.reduce((sum, row) => sum + row.failures, 0),
  };
}

async function instructionsSection(options: BenchOptions): Promise<Section> {
  const rows: InstructionRow[] = [];
  for (const dialect of options.dialects) rows.push(...(await runInstructions(options, dialect, progress)));
  return {
    lines: [
      '## Instructions per request (callgrind): bare Fastify and the service, same requests',
      '',
      ...instructionsTable(rows),
      '',
      INSTRUCTIONS_NOTE,
      '',
    ],
    failures: rows.reduce((sum, row) => sum + row.failures, 0),
  };
}

const INSTRUCTIONS_NOTE =
  'Instructions executed per answered request, counted by valgrind (callgrind) after as many uncounted ' +
  'requests: the event loop is the main thread, all threads adds the helpers (database threads, the log ' +
  "writer, V8's garbage collector). Ratio = bare ÷ service, like the CPU ratio. With one connection " +
  '(the default here) nothing is shared between requests, so the same code and requests give the same ' +
  'count within about 1 %, however busy the machine: the figure to judge a change of the code by. It ' +
  'is the cost of a request alone, without the batching concurrent requests share (a commit, a lookup, ' +
  'an event-loop turn), so it is higher than under load; with more connections the counts depend on ' +
  'how requests happened to batch and move by 10 % or more. Under valgrind V8 may run code in other ' +
  'tiers than at full speed: compare counts with counts, not with timed figures. What a server does ' +
  'idle is taken off (its count over 10 s idle, scaled to the duration of the counted requests); the ' +
  'batch work its timers do meanwhile (activity records, log flushes) stays in, and weighs far more per ' +
  'request under valgrind than at full speed. With --floor, v2 is also counted on the store floor.';

/** The service against bare Fastify, or (--flat-store) the service on stored sessions against an empty store. */
async function pairedSection(options: BenchOptions): Promise<Section> {
  const rows: PairedRow[] = [];
  const seeding: string[] = [];
  for (const dialect of options.dialects) {
    const mode = options.flatStore ? runFlatStore : options.activityCost ? runActivityCost : runCompare;
    const result = await mode(options, dialect, progress);
    rows.push(...result.rows);
    if (options.seedSessions > 0) seeding.push(`${dialect} ${result.seedSeconds.toFixed(1)} s`);
  }
  const stored = options.seedSessions.toLocaleString('en-US');
  const webhookRows = rows.filter((row) => row.scenario === 'v2-webhook');
  const replayRows = rows.filter((row) => row.scenario === 'v2-replay');
  const againstBare = rows.filter((row) => row.scenario !== 'v2-webhook' && row.scenario !== 'v2-replay');
  return {
    lines: [
      options.flatStore
        ? '## Flat store: the service on stored sessions against itself on an empty store (ratio = stored ÷ empty)'
        : options.activityCost
          ? '## Activity records: the service against itself with ACTIVITY_RECORDS=off (ratio = with ÷ without)'
          : '## The service against bare Fastify (ratio = service req/s ÷ bare req/s, medians of the rounds)',
      '',
      ...(options.flatStore
        ? flatStoreTable(rows)
        : options.activityCost
          ? activityCostTable(rows)
          : compareTable(againstBare)),
      '',
      CPU_RATIO_NOTE,
      '',
      ...(webhookRows.length > 0
        ? [
            '## Webhooks: v2 with an endpoint subscribed to session.created against plain v2 (ratio = with ÷ without, same service)',
            '',
            ...webhookTable(webhookRows),
            '',
            WEBHOOK_NOTE,
            '',
          ]
        : []),
      ...(replayRows.length > 0
        ? [
            '## Replay protection: v2 of a client that requires it against plain v2 (ratio = with ÷ without, same service)',
            '',
            ...replayTable(replayRows),
            '',
            REPLAY_NOTE,
            '',
          ]
        : []),
      ...(options.floor ? [FLOOR_NOTE, ''] : []),
      ...(seeding.length > 0 ? [`Storing ${stored} sessions took: ${seeding.join(', ')}.`, ''] : []),
      ...roundsTable(rows),
      '',
    ],
    failures: rows.reduce(
      (sum, row) => sum + rowSummaries(row).reduce((total, summary) => total + summary.failures, 0),
      0,
    ),
  };
}

function describeRun(options: BenchOptions): string {
  const parts = [
    `${options.connections} connections`,
    options.soak > 0
      ? `${options.soak} s of load`
      : options.instructions
        ? `${options.requests} requests per target uncounted, then ${options.requests} counted under callgrind`
        : `${options.rounds} rounds × ${options.duration} s per target (after ${options.warmup} s of warm-up each)`,
    `${options.players} players per scenario`,
    ...(options.rate > 0 ? [`${options.rate} requests a second in all`] : []),
    ...(options.mixed ? ['mixed workload'] : []),
    `service LOG_LEVEL ${options.logLevel} into ${options.logTo === 'pipe' ? 'a pipe the benchmark reads' : '/dev/null'}`,
  ];
  if (options.seedSessions > 0) parts.push(`${options.seedSessions.toLocaleString('en-US')} stored sessions`);
  if (options.cpuProfileDir) parts.push('service under --cpu-prof');
  if (options.floor) parts.push('v2 also against the store floor');
  if (options.activityCost) parts.push('the service with and without launch-attempt records');
  return parts.join(', ');
}

async function profileLines(folder: string, before: ReadonlySet<string>): Promise<string[]> {
  const files = await newProfiles(folder, before);
  if (files.length === 0)
    return ['No CPU profile was written (did the service exit by a signal it could not handle?).', ''];
  const top = await topSelfTime(folder, files);
  return [
    `## CPU profile: top self time of the service (${files.map((file) => join(folder, file)).join(', ')})`,
    '',
    '| self ms | % of busy | function |',
    '|---|---|---|',
    ...top.map(
      (entry) =>
        `| ${Math.round(entry.milliseconds)} | ${entry.percent.toFixed(1)} | \`${entry.location}\` |`,
    ),
    '',
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (interrupted()) return; // the servers were stopped under its feet; the cleanup exits with 130
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
    process.exitCode = 1;
  },
);
