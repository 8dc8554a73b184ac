/**
 * The examples of a Markdown document, as the docs test runs them:
 * - ```sh (or bash, shell) blocks: commands, run in order in one shell per document;
 * - ```console blocks: `$ command` lines, each followed by the exact output it prints;
 * - a block with `file=<name>` in its info string (```js file=launch.js): written to that file, in the
 *   shell's current directory at that point, for a later block to run;
 * - a block with `not-in-ci: <why>` in its info string is not run, and says why where a reader sees it;
 * - ```json, ```http and ```text blocks right after a shell block (nothing but blank lines between) show
 *   what it prints, and the test compares them with what it really prints (see `shown-output.ts` for the
 *   placeholders of random values); an ```http block shows the status line and some headers of `curl -i`.
 * Other blocks (mermaid, ini, json with text before it…) show data and are not run; a js/ts block must be
 * a file or say why it does not run, so no SDK example is left out silently.
 */
export type Example =
  | { kind: 'shell'; line: number; code: string; shows?: Shown[] }
  | { kind: 'transcript'; line: number; steps: { command: string; output: string }[] }
  | { kind: 'file'; line: number; name: string; code: string }
  | { kind: 'skipped'; line: number; reason: string }
  /** A ```ts block of a document whose TypeScript runs as modules (the SDK's README). */
  | { kind: 'module'; line: number; code: string };

export interface ExtractOptions {
  /** `modules`: a ts block without `file=` is a module to run; `refuse` (the default): it is an error. */
  typescript?: 'modules' | 'refuse';
}

/** An output block: what the shell block before it prints. */
export interface Shown {
  kind: 'http' | 'json' | 'text';
  line: number;
  text: string;
}

const SHOWN = new Set<string>(['http', 'json', 'text']);

const SHELL = new Set(['sh', 'bash', 'shell']);
const CODE = new Set(['js', 'mjs', 'ts', 'javascript', 'typescript']);

export function extractExamples(markdown: string, document: string, options: ExtractOptions = {}): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  /** The last shell block and the line its output blocks end on, while output blocks may follow it. */
  let shell: { example: Extract<Example, { kind: 'shell' }>; end: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(```+|~~~+)(.*)$/.exec(lines[index] ?? '');
    if (!fence) continue;
    const [, marker = '', info = ''] = fence;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith(marker)) end++;
    if (end === lines.length) throw new Error(`${document}:${start}: the code block is never closed`);
    const code = lines.slice(start, end).join('\n');
    const language = info.trim();
    if (
      SHOWN.has(language) &&
      shell &&
      lines.slice(shell.end + 1, index).every((text) => text.trim() === '')
    ) {
      shell.example.shows = [
        ...(shell.example.shows ?? []),
        { kind: language as Shown['kind'], line: start, text: code },
      ];
      shell.end = end;
      index = end;
      continue;
    }
    index = end;
    const example = readBlock(language, code, start, document, options);
    shell = example?.kind === 'shell' ? { example, end } : undefined;
    if (example) examples.push(example);
  }
  return examples;
}

function readBlock(
  info: string,
  code: string,
  line: number,
  document: string,
  options: ExtractOptions,
): Example | undefined {
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
  if ((language === 'ts' || language === 'typescript') && options.typescript === 'modules')
    return { kind: 'module', line, code };
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
