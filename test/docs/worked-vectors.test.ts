import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWithPhp, PHP_PATH } from '../php/php-cli.js';
import { type Example, extractExamples } from './markdown-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (document: string) => readFile(join(ROOT, document), 'utf8');

/**
 * Where the docs give worked vectors: each section's tables and its `sign` transcripts. The transcripts
 * run as written, their output compared, in docs-examples.test.ts; here, every vector must be one of them.
 */
const VECTOR_SECTIONS = [
  {
    document: 'docs/integration.md',
    from: '## The request signature',
    to: '### The signature tester',
    rows: 10,
  },
  { document: 'docs/design.md', from: '## §2 The request signature', to: '## §3 ', rows: 8 },
];

/** A `$ … poker-launch sign …` step of a console block, with the output the document shows for it. */
interface SignStep {
  command: string;
  output: string;
}

function signSteps(examples: readonly Example[]): SignStep[] {
  return examples.flatMap((example) =>
    example.kind === 'transcript'
      ? example.steps.filter((step) => /\bpoker-launch sign\b/.test(step.command))
      : [],
  );
}

async function section(document: string, from: string, to: string): Promise<string> {
  const text = await read(document);
  const start = text.indexOf(from);
  const end = text.indexOf(to, start);
  if (start === -1 || end === -1) throw new Error(`${document}: no section from "${from}" to "${to}"`);
  return text.slice(start, end);
}

/** The section of integration.md that states the signature, its vectors included. */
const signatureSection = () =>
  section('docs/integration.md', '## The request signature', '### The signature tester');

/** One row of a worked-vector table: what it signs to (the last cell) and, for the spec's scheme, its canonical string. */
interface Vector {
  row: string;
  sign: string;
  canonical: string | undefined;
}

/** The rows of the section's tables that end in a sign or hmac: 64 hex digits in backticks. */
function worked(section: string): Vector[] {
  const vectors: Vector[] = [];
  let header: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      header = [];
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    if (header.length === 0) {
      header = cells;
      continue;
    }
    const sign = /^`([0-9a-f]{64})`$/.exec(cells.at(-1) ?? '')?.[1];
    if (sign === undefined) continue;
    const canonicalColumn = header.findIndex((name) => /canonical/i.test(name));
    const canonical = canonicalColumn === -1 ? undefined : /^`(.*)`$/.exec(cells[canonicalColumn] ?? '')?.[1];
    vectors.push({ row: line, sign, canonical });
  }
  return vectors;
}

describe('the worked vectors of the docs, through the CLI', () => {
  for (const { document, from, to, rows } of VECTOR_SECTIONS) {
    it(`every vector of ${document} is shown by a poker-launch sign step, with its canonical string`, async () => {
      const text = await section(document, from, to);
      const vectors = worked(text);
      expect(vectors).toHaveLength(rows);
      const outputs = signSteps(extractExamples(text, document)).map((step) => step.output);
      for (const vector of vectors) {
        const shown = outputs.some((output) =>
          vector.canonical === undefined
            ? output.includes(`hmac=${vector.sign}`)
            : output === `canonical: ${vector.canonical}\nsign:      ${vector.sign}`,
        );
        expect(shown, vector.row).toBe(true);
      }
    });
  }

  it('the SDK README’s signatures are the CLI’s too', async () => {
    const readme = await read('packages/sdk/README.md');
    const cases: { shows: string; args: string[]; stdin?: string; prints: string }[] = [
      {
        shows: "// '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a'",
        args: [
          '--explain',
          '--secret',
          'test_secret',
          'clientId=demo',
          'userId=12345',
          'nick=Player1',
          'lang=en',
          'authType=external',
        ],
        prints:
          'canonical: externalenPlayer112345\nsign:      5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a\n',
      },
      {
        shows: "// 'ninetennexten12345'",
        args: [
          '--explain',
          '--secret',
          's',
          'clientId=demo',
          'lang=en',
          'extra[10]=ten',
          'extra[9]=nine',
          'extra[]=next',
          'userId=12345',
        ],
        prints: 'canonical: ninetennexten12345\n',
      },
      {
        shows: "// '1.2345678901235E+19en1'",
        args: ['--explain', '--secret', 's', '--json', '-'],
        stdin: '{"lang":"en","odds":1.0,"big":12345678901234567890}',
        prints: 'canonical: 1.2345678901235E+19en1\n',
      },
      {
        shows:
          "// 't=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773'",
        args: [
          '--scheme',
          'hmac',
          '--secret',
          'test_secret',
          '--target',
          '/api/web/v2/app/users/12345/session?clientId=demo',
          '--body',
          'nick=Player1&lang=en&authType=external',
          '--timestamp',
          '1795262400',
          '--nonce',
          '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f',
        ],
        prints:
          't=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773\n',
      },
    ];
    for (const item of cases) {
      expect(readme).toContain(item.shows);
      const run = spawnSync(
        process.execPath,
        [join(ROOT, 'packages/cli/bin/poker-launch.js'), 'sign', ...item.args],
        {
          input: item.stdin ?? '',
          encoding: 'utf8',
        },
      );
      expect(run.stdout, run.stderr).toContain(item.prints);
    }
  });
});

describeWithPhp('the PHP hmac sample of the integration guide', () => {
  it('computes the documented header with real php-cli', async () => {
    const section = await signatureSection();
    const hmacPart = section.slice(section.indexOf('### The hmac signature'));
    const sample = /```php\n([\s\S]*?)```/.exec(hmacPart)?.[1] ?? '';
    expect(sample).toContain('function hmacSignHeader');
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-php-hmac-'));
    try {
      const file = join(folder, 'sample.php');
      // The sample as an integrator runs it, its $secret set, then the first worked vector printed.
      await writeFile(
        file,
        `${sample.replace('<?php', "<?php\n$secret = 'test_secret';")}\n` +
          'echo $sign, "\\n";\n' +
          "echo hmacSignHeader('test_secret', 'post', '/api/web/v2/app/users/12345/session?clientId=demo', " +
          "'nick=Player1&lang=en&authType=external', 1795262400, '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f'), \"\\n\";\n",
      );
      const run = spawnSync(PHP_PATH, ['-n', file], { encoding: 'utf8' });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      const [fresh, vector] = run.stdout.trimEnd().split('\n');
      expect(fresh).toMatch(/^t=\d{10},n=[0-9a-f]{32},hmac=[0-9a-f]{64}$/);
      expect(vector).toBe(
        't=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773',
      );
      expect(hmacPart).toContain(vector);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describeWithPhp('the PHP reference and its sign-what-you-send sample, in the integration guide', () => {
  it('signs a form with false in it as the service reads it, with real php-cli', async () => {
    const blocks = [...(await signatureSection()).matchAll(/```php\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const [reference, sample] = blocks;
    expect(reference).toContain('function generateSignature');
    expect(sample).toContain('http_build_query');
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-php-form-'));
    try {
      const file = join(folder, 'sample.php');
      // The reference's functions (its last two lines read a live request: left out), then the sample.
      const functions = (reference ?? '').replace(/\n\/\/ v2: query[\s\S]*$/, '\n');
      await writeFile(
        file,
        `${functions}\n$secret = 'test_secret';\n${(sample ?? '').replace('<?php', '')}\necho "$body\\n$sign\\n";\n`,
      );
      const run = spawnSync(PHP_PATH, ['-n', file], { encoding: 'utf8' });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      // What the service hashes for that form and path: lang, longLifeLoginToken ("0"), nick, userId.
      const expected = createHash('sha256').update('en0Player112345test_secret').digest('hex');
      expect(run.stdout.trimEnd().split('\n')).toEqual([
        'nick=Player1&lang=en&longLifeLoginToken=0',
        expected,
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
