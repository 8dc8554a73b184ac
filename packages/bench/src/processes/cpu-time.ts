import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

let ticksPerSecond: number | undefined;

/** CPU seconds (user + system, all threads) the process has used so far, from /proc/<pid>/stat (Linux). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are
  // fields 14 and 15 of the line, so 11 and 12 after the name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
