import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Instructions a process executed while a piece of work ran: per thread, thread 1 being the main thread. */
export interface InstructionCount {
  /** The main thread's: Node's event loop. */
  readonly mainThread: number;
  /** Every thread's together. */
  readonly total: number;
}

/**
 * Counts instructions with valgrind's callgrind: the same work gives the same count (within about 1 %
 * one request at a time; concurrent requests batch differently from run to run), whatever the
 * neighbours do, where req/s and CPU time on a shared machine move by tens of per cent. Servers run
 * under `runner` with instrumentation off (at a fraction of their speed, not a fiftieth) until `count`
 * turns it on.
 */
export class Callgrind {
  private readonly dumps = new Map<number, number>();

  private constructor(private readonly folder: string) {}

  static async create(): Promise<Callgrind> {
    return new Callgrind(await mkdtemp(join(tmpdir(), 'poker-launch-callgrind-')));
  }

  /** The command that runs node under callgrind, instrumentation off, one output file per thread. */
  get runner(): string[] {
    return [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      // V8 writes machine code into memory it then runs: valgrind must notice the rewrites.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(this.folder, 'callgrind.out.%p')}`,
      // The pipes callgrind_control talks through, in our folder: a server killed under load (SIGKILL, after
      // its stop's deadline) leaves its pipes behind, which TMPDIR kept (a CI run found three there).
      this.vgdbPrefix,
    ];
  }

  private get vgdbPrefix(): string {
    return `--vgdb-prefix=${join(this.folder, 'vgdb-pipe')}`;
  }

  /**
   * Runs `work` with the instrumentation of process `pid` on, then dumps and reads the counts.
   * `host`: the HOST variable the process was started with, undefined if it inherited this one's.
   * valgrind names the pipe callgrind_control talks through after the user and HOST (or HOSTNAME), so
   * the control command must see the same.
   */
  async count<T>(
    pid: number,
    host: string | undefined,
    work: () => Promise<T>,
  ): Promise<[T, InstructionCount]> {
    const env = host === undefined ? process.env : { ...process.env, HOST: host };
    const control = (action: string) =>
      run('callgrind_control', [this.vgdbPrefix, action, String(pid)], { env });
    await control('--instr=on');
    const result = await work();
    await control('--instr=off');
    await control('--dump');
    const part = (this.dumps.get(pid) ?? 0) + 1;
    this.dumps.set(pid, part);
    return [result, await this.read(pid, part)];
  }

  /** Where the output files are (callgrind.out.<pid>.<part>-<thread>), for callgrind_annotate. */
  get outputFolder(): string {
    return this.folder;
  }

  async remove(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }

  /** Files callgrind.out.<pid>.<part>-<thread>: the `totals:` line of each. */
  private async read(pid: number, part: number): Promise<InstructionCount> {
    const name = new RegExp(`^callgrind\\.out\\.${pid}\\.${part}-(\\d+)$`);
    let mainThread = 0;
    let total = 0;
    for (const file of await readdir(this.folder)) {
      const thread = name.exec(file)?.[1];
      if (thread === undefined) continue;
      const instructions = totalsOf(await readFile(join(this.folder, file), 'utf8'));
      total += instructions;
      if (Number(thread) === 1) mainThread = instructions;
    }
    if (total === 0) throw new Error(`callgrind wrote no counts for process ${pid} (part ${part})`);
    return { mainThread, total };
  }
}

/** The instruction count of one callgrind output file (its `totals:` line). */
export function totalsOf(text: string): number {
  const totals = /^totals: (\d+)/m.exec(text);
  if (!totals) throw new Error('a callgrind output file without a totals line');
  return Number(totals[1]);
}
