import { spawn } from 'node:child_process';
import { BIN } from './run-poker-launch.js';

/**
 * Runs `poker-launch <args>` at a terminal, as an operator's shell would (script(1) gives it one), typing
 * each answer once its prompt (`prompts` matches them) is on the screen; resolves with everything shown.
 * A prompt never shown would leave the command waiting: it is killed after 15 s, and the test fails on
 * what it saw instead of hanging.
 */
export function runAtTerminal(
  args: string,
  env: Record<string, string>,
  prompts: RegExp,
  answers: readonly string[],
): Promise<string> {
  return new Promise<string>((resolve) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} ${args}`, '/dev/null'], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    let output = '';
    let answered = 0;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const shown = output.match(prompts)?.length ?? 0;
      const answer = answers[shown - 1];
      if (answer !== undefined && shown > answered) {
        answered = shown;
        child.stdin.write(`${answer}\r`);
      }
    });
    const stop = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', () => {
      clearTimeout(stop);
      resolve(output);
    });
  });
}
