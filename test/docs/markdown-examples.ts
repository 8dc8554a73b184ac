/**
 * The examples of a Markdown document, as the docs test runs them:
 * - ```sh (or bash, shell) blocks: commands, run in order in one shell per document;
 * - ```console blocks: `$ command` lines, each followed by the exact output it prints;
 * - a block with `file=<name>` in its info string (```js file=launch.js): written to that file, in the
 *   shell's current directory at that point, for a later block to run;
 * - a block with `not-in-ci: <why>` in its info string is not run, and says why where a reader sees it.
 * Other blocks (json, http, text, mermaid…) show output or data and are not run; a js/ts block must be a
 * file or say why it does not run, so no SDK example is left out silently.
 */
export type Example =
  | { kind: 'shell'; line: number; code: string }
  | { kind: 'transcript'; line: number; steps: { command: string; output: string }[] }
  | { kind: 'file'; line: number; name: string; code: string }
  | { kind: 'skipped'; line: number; reason: string };

const SHELL = new Set(['sh', 'bash', 'shell']);
const CODE = new Set(['js', 'mjs', 'ts', 'javascript', 'typescript']);

export function extractExamples(markdown: string, document: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(```+|~~~+)(.*)$/.exec(lines[index] ?? '');
    if (!fence) continue;
    const [, marker = '', info = ''] = fence;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith(marker)) end++;
    if (end === lines.length) throw new Error(`${document}:${start}: the code block is never closed`);
    const code = lines.slice(start, end).join('\n');
    index = end;
    const example = readBlock(info.trim(), code, start, document);
    if (example) examples.push(example);
  }
  return examples;
}

function readBlock(info: string, code: string, line: number, document: string): Example | undefined {
  const language = info.split(/\s/, 1)[0] ?? '';
  const attributes = info.slice(language.length).trim();
  const skip = /^not-in-ci:(.*)$/.exec(attributes);
  if (skip) {
    const reason = skip[1]?.trim() ?? '';
    if (reason === '') throw new Error(`${document}:${line}: not-in-ci needs a reason ("not-in-ci: <why>")`);
    return { kind: 'skipped', line, reason };
  }
  const file = /(?:^|\s)file=(\S+)/.exec(attributes)?.[1];
  if (file) return { kind: 'file', line, name: file, code };
  if (SHELL.has(language)) return { kind: 'shell', line, code };
  if (language === 'console')
    return { kind: 'transcript', line, steps: readTranscript(code, line, document) };
  if (CODE.has(language)) {
    throw new Error(
      `${document}:${line}: a ${language} example needs file=<name> (to run) or not-in-ci: <why>`,
    );
  }
  return undefined;
}

/** `$ command` lines (a line ending in `\` continues), each followed by the output it prints. */
function readTranscript(code: string, line: number, document: string): { command: string; output: string }[] {
  const steps: { command: string; output: string[] }[] = [];
  let continuing = false;
  for (const text of code.split('\n')) {
    const step = steps.at(-1);
    if (continuing && step) {
      step.command += `\n${text}`;
    } else if (text.startsWith('$ ')) {
      steps.push({ command: text.slice(2), output: [] });
    } else if (step) {
      step.output.push(text);
      continue;
    } else {
      throw new Error(`${document}:${line}: a console block starts with a "$ " command line`);
    }
    continuing = text.endsWith('\\');
  }
  return steps.map((step) => ({ command: step.command, output: step.output.join('\n') }));
}
