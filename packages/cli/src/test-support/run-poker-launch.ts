import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DATABASE_NOTE_PREFIX } from '../database-notice.js';

export const BIN = fileURLToPath(new URL('../../bin/poker-launch.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  /** stderr without the database notes, which every test on a temporary database would see. */
  stderr: string;
  /** What the command said about the database it opened (database-notice.ts). */
  databaseNotes: string[];
}

/** Runs the installed `poker-launch` bin as a user would, in a child process. */
export function runPokerLaunch(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { cwd?: string; stdin?: string | Uint8Array; as?: { uid: number; gid: number } } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(options.cwd ? { cwd: options.cwd } : {}),
      // Another operating-system user (a test running as root), as an operator's own account would be.
      ...(options.as ?? {}),
    });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, ...splitDatabaseNotes(stderr) }));
  });
}

/** Takes the database notes out of a command's stderr. */
export function splitDatabaseNotes(stderr: string): { stderr: string; databaseNotes: string[] } {
  const lines = stderr.split('\n');
  return {
    stderr: lines.filter((line) => !line.startsWith(DATABASE_NOTE_PREFIX)).join('\n'),
    databaseNotes: lines.filter((line) => line.startsWith(DATABASE_NOTE_PREFIX)),
  };
}
