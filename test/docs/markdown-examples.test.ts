import { describe, expect, it } from 'vitest';
import { extractExamples } from './markdown-examples.js';

const fence = '```';

describe('extractExamples', () => {
  it('returns shell blocks, files and transcripts in document order, with their line numbers', () => {
    const markdown = [
      '# Title',
      `${fence}sh`,
      'echo one',
      fence,
      `${fence}js file=launch.js`,
      "console.log('hi');",
      fence,
      `${fence}console`,
      '$ echo a \\',
      '  b',
      'a b',
      '$ true',
      fence,
      `${fence}json`,
      '{}',
      fence,
    ].join('\n');
    expect(extractExamples(markdown, 'doc.md')).toEqual([
      { kind: 'shell', line: 2, code: 'echo one' },
      { kind: 'file', line: 5, name: 'launch.js', code: "console.log('hi');" },
      {
        kind: 'transcript',
        line: 8,
        steps: [
          { command: 'echo a \\\n  b', output: 'a b' },
          { command: 'true', output: '' },
        ],
      },
    ]);
  });

  it('skips a block marked not-in-ci, keeping its reason', () => {
    const markdown = `${fence}sh not-in-ci: starts a long-running service\nnpm start\n${fence}`;
    expect(extractExamples(markdown, 'doc.md')).toEqual([
      { kind: 'skipped', line: 1, reason: 'starts a long-running service' },
    ]);
  });

  it('refuses a not-in-ci marker without a reason', () => {
    expect(() => extractExamples(`${fence}sh not-in-ci:\nnpm start\n${fence}`, 'doc.md')).toThrow(
      'doc.md:1: not-in-ci needs a reason',
    );
  });

  it('refuses an SDK example that is neither a file to run nor marked not-in-ci', () => {
    expect(() => extractExamples(`text\n${fence}ts\nawait launch.openGame();\n${fence}`, 'doc.md')).toThrow(
      'doc.md:2: a ts example needs file=<name>',
    );
  });

  it('refuses a block that is never closed', () => {
    expect(() => extractExamples(`${fence}sh\necho one\n`, 'doc.md')).toThrow('never closed');
  });
});

describe('extractExamples: output blocks', () => {
  it('attaches json, http and text blocks right after a shell block to it, as what it prints', () => {
    const markdown = [
      `${fence}sh`,
      'curl -i …',
      fence,
      '',
      `${fence}http`,
      'HTTP/1.1 201 Created',
      fence,
      `${fence}json`,
      '{}',
      fence,
      'Text between: the next json block is data, not output.',
      `${fence}json`,
      '[]',
      fence,
    ].join('\n');
    expect(extractExamples(markdown, 'doc.md')).toEqual([
      {
        kind: 'shell',
        line: 1,
        code: 'curl -i …',
        shows: [
          { kind: 'http', line: 5, text: 'HTTP/1.1 201 Created' },
          { kind: 'json', line: 8, text: '{}' },
        ],
      },
    ]);
  });

  it('reads a ts block as a module to run when told to, and refuses it otherwise', () => {
    const markdown = `${fence}ts\nawait launch.openGame();\n${fence}`;
    expect(extractExamples(markdown, 'doc.md', { typescript: 'modules' })).toEqual([
      { kind: 'module', line: 1, code: 'await launch.openGame();' },
    ]);
    expect(() => extractExamples(markdown, 'doc.md')).toThrow('needs file=<name>');
  });
});
