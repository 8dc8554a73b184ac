import type { Readable, Writable } from 'node:stream';
import type { ReadStream } from 'node:tty';
import { CommandError } from './command.js';

/**
 * A new password, read as a person or a script gives it: at a terminal, typed twice without echo (a
 * typo would lock its owner out); otherwise the first line of standard input, so that
 * `printf '%s\\n' "$PASSWORD" | poker-launch operator add …` works and the password never appears in
 * the process list or the shell history, as an argument would.
 */
export async function readPassword(
  input: Readable,
  prompts: Writable,
  what: 'password' | 'secret' = 'password',
): Promise<string | undefined> {
  if (!(input as ReadStream).isTTY) return firstLine(input);
  const first = await readHidden(
    input as ReadStream,
    prompts,
    `${what === 'secret' ? 'Secret' : 'Password'}: `,
  );
  const second = await readHidden(input as ReadStream, prompts, `Repeat the ${what}: `);
  if (first !== second) throw new CommandError(`the two ${what}s differ; nothing was changed`);
  return first;
}

async function firstLine(input: Readable): Promise<string | undefined> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  input.destroy();
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line === '' ? undefined : line;
}

/** One line typed at the terminal, echoed as nothing; Ctrl-C or Ctrl-D gives up. */
function readHidden(terminal: ReadStream, prompts: Writable, prompt: string): Promise<string> {
  // Echo off before the prompt shows: nothing typed after it ever appears on the screen.
  terminal.setRawMode(true);
  prompts.write(prompt);
  terminal.resume();
  terminal.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error, rest = '') => {
      terminal.off('data', onData);
      // What was typed ahead (the repeated password, pasted at once) is the next prompt's.
      if (rest !== '') terminal.unshift(rest);
      terminal.setRawMode(false);
      terminal.pause();
      prompts.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      const chars = [...chunk];
      for (const [index, char] of chars.entries()) {
        if (char === '\r' || char === '\n') {
          const rest = chars.slice(index + 1).join('');
          return finish(undefined, rest.startsWith('\n') && char === '\r' ? rest.slice(1) : rest);
        }
        if (char === '\u0003' || char === '\u0004')
          return finish(new CommandError('cancelled; nothing was changed'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    terminal.on('data', onData);
  });
}
