import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

let ticksPerSecond: number | undefined;

/** CPU seconds (user + system) a process has used so far: all its threads, and its main thread alone. */
export interface CpuTime {
  readonly total: number;
  /** The main thread's: Node's event loop (HTTP, routing, validation, the handlers' own code). */
  readonly mainThread: number;
}

/** Both from /proc (Linux): /proc/<pid>/stat for the process, /proc/<pid>/task/<pid>/stat for its main thread. */
export async function cpuTime(pid: number): Promise<CpuTime> {
  const [whole, mainThread] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8'),
    readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8'),
  ]);
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return { total: statTicks(whole) / ticksPerSecond, mainThread: statTicks(mainThread) / ticksPerSecond };
}

/** utime + stime of a `stat` line, in clock ticks. */
export function statTicks(stat: string): number {
  // Fields after the command name, which is in parentheses and may hold spaces and parentheses: utime
  // and stime are fields 14 and 15 of the line, so 11 and 12 after the name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
