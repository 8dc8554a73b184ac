import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, type ServeProcess } from '../../packages/cli/src/test-support/run-serve.js';
import { exampleScript } from './example-script.js';
import { extractExamples } from './markdown-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The README first, as a new user reads it, then every guide. */
const DOCUMENTS = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs')))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** What an example prints that shows it did its work, beyond succeeding. */
const PRINTS: Record<string, RegExp[]> = {
  'docs/sdk.md': [
    /^v2 session \S+ until \d{4}-\d\d-\d\dT/m,
    /^ {2}open http:\/\/127\.0\.0\.1:\d+\/play\/poker\/table\?auth=[0-9a-f]{32}&/m,
    /^v3 game session \/apiweb\/v3\/game-sessions\/[0-9a-f]{32}$/m,
    /^refused: 500 username_exists A Player with this username already exists in the system\.$/m,
    /^v2 session with replay fields \S+$/m,
    /^blocked until \d{4}-\d\d-\d\dT\S+ ending 1 session\(s\)$/m,
    /^ended 0 more$/m,
  ],
};

/**
 * What the CLI reads, and what npm passes to the scripts it runs (`npm test`): a reader's new shell has
 * none of it, so the examples must work without.
 */
const NOT_IN_A_NEW_SHELL =
  /^(DATABASE_URL|HOST|PORT|PUBLIC_URL|POKER_LAUNCH_.*|LOG_LEVEL|RATE_LIMIT_PER_MINUTE|TRUST_PROXY|npm_.*)$/i;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The service as `npm start` starts it, in a scratch checkout (the repository's packages and
 * node_modules, linked) so that its default database, `./data/poker-launch.db`, and every file an
 * example writes stay out of the repository. Each document's examples then run in one bash, from the
 * checkout's root, with the `SECRET` the first start printed, as the docs tell a reader to.
 */
describe('the examples of the README and docs/', () => {
  let checkout = '';
  /** The examples' TMPDIR (`mktemp -d` makes new projects there, outside the checkout): removed after. */
  let scratch = '';
  let serve: ServeProcess | undefined;
  let secret = '';

  beforeAll(async () => {
    checkout = await mkdtemp(join(tmpdir(), 'poker-launch-docs-'));
    scratch = await mkdtemp(join(tmpdir(), 'poker-launch-docs-tmp-'));
    await symlink(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    await symlink(join(ROOT, 'packages'), join(checkout, 'packages'));
    serve = await runServe(`sqlite:${join(checkout, 'data', 'poker-launch.db')}`);
    secret = /^ {2}secret: +([0-9a-f]{64})$/m.exec(serve.stdout())?.[1] ?? '';
  });

  afterAll(async () => {
    await serve?.stop('SIGTERM');
    if (checkout) await rm(checkout, { recursive: true, force: true });
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the first start prints the secret and a curl command that creates a session', async () => {
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const printed = serve?.stdout() ?? '';
    const curl = printed.slice(
      printed.indexOf('  curl '),
      printed.indexOf('\n\n', printed.indexOf('  curl ')),
    );
    const run = await bash(`set -e\n${curl.trim()} --fail-with-body\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ data: { type: 'session' } });
  });

  it("npx --no-install poker-launch runs the checkout's CLI, and outside a checkout fails instead of fetching one", async () => {
    const inside = await bash('npx --no-install poker-launch --help\n');
    expect(inside.code, inside.stderr).toBe(0);
    expect(inside.stdout).toMatch(/^usage: poker-launch <command>/);
    const outside = await bash('cd "$(mktemp -d)" && npx --no-install poker-launch --help\n');
    expect(outside.code).not.toBe(0);
    expect(outside.stdout).not.toContain('usage: poker-launch');
  });

  for (const document of DOCUMENTS) {
    it(`runs every example of ${document} in order, as written`, async () => {
      const examples = extractExamples(await readFile(join(ROOT, document), 'utf8'), document);
      const port = Number(new URL(serve?.address ?? '').port);
      const run = await bash(exampleScript(document, examples, port));
      const report = `${document}: exit ${run.code}\n--- stderr\n${run.stderr.slice(-4000)}\n--- stdout\n${run.stdout.slice(-4000)}`;
      expect(run.code, report).toBe(0);
      for (const pattern of PRINTS[document] ?? []) expect(run.stdout, report).toMatch(pattern);
    });
  }

  async function bash(script: string): Promise<Run> {
    const file = join(checkout, `.example-${process.hrtime.bigint()}.sh`);
    await writeFile(file, script);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !NOT_IN_A_NEW_SHELL.test(name)),
    );
    return new Promise((resolve, reject) => {
      const child = spawn('bash', [file], {
        cwd: checkout,
        env: { ...env, SECRET: secret, TMPDIR: scratch },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }
});
