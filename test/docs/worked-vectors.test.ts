import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWithPhp, PHP_PATH } from '../php/php-cli.js';
import { exampleScript } from './example-script.js';
import { type Example, extractExamples } from './markdown-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (document: string) => readFile(join(ROOT, document), 'utf8');

/**
 * The documents whose `poker-launch sign` transcripts are run here, each on its own (the README signs
 * with its secret in a shell block, which the docs test runs against the service).
 */
const DOCUMENTS = ['docs/cli.md', 'docs/integration.md'];

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

/** The section of integration.md that states the signature, its vectors included. */
async function signatureSection(): Promise<string> {
  const guide = await read('docs/integration.md');
  return guide.slice(guide.indexOf('## The request signature'), guide.indexOf('### The signature tester'));
}

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

/**
 * Runs steps as the docs test does (one bash, `npx --no-install poker-launch` being the checkout's bin),
 * from the checkout's root, without a service: `sign` needs none.
 */
function runSteps(
  document: string,
  steps: readonly SignStep[],
): Promise<{ code: number | null; stderr: string }> {
  const script = exampleScript(document, [{ kind: 'transcript', line: 0, steps: [...steps] }], 8080);
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(POKER_LAUNCH_|npm_)/i.test(name)),
    );
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the worked vectors of the docs, through the CLI', () => {
  it('every vector of the signature section is shown by a poker-launch sign step, with its canonical string', async () => {
    const section = await signatureSection();
    const vectors = worked(section);
    // 7 of the spec's signature, 1 with replay fields, 2 of hmac.
    expect(vectors).toHaveLength(10);
    const outputs = signSteps(extractExamples(section, 'docs/integration.md')).map((step) => step.output);
    for (const vector of vectors) {
      const shown = outputs.some((output) =>
        vector.canonical === undefined
          ? output.includes(`hmac=${vector.sign}`)
          : output === `canonical: ${vector.canonical}\nsign:      ${vector.sign}`,
      );
      expect(shown, vector.row).toBe(true);
    }
  });

  for (const document of DOCUMENTS) {
    it(`every poker-launch sign step of ${document} prints what it shows`, async () => {
      const steps = signSteps(extractExamples(await read(document), document));
      expect(steps.length).toBeGreaterThan(1);
      const run = await runSteps(document, steps);
      expect(run.code, run.stderr).toBe(0);
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
