import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, type ServeProcess } from '../../packages/cli/src/test-support/run-serve.js';
import { atPort, exampleScript } from './example-script.js';
import { type Example, extractExamples } from './markdown-examples.js';
import { sdkReadmeModule } from './sdk-readme.js';
import { compareShown } from './shown-output.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * In the order a newcomer reads them, after the first start's curl: the README, the integration guide,
 * the SDK's README, then every other guide.
 */
const FIRST = ['README.md', 'docs/integration.md', 'packages/sdk/README.md'];
const DOCUMENTS = [
  ...FIRST,
  ...(await readdir(join(ROOT, 'docs')))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
    .filter((name) => !FIRST.includes(name)),
];

/** The SDK's README shows TypeScript without file names: each ```ts block runs as a module, in order. */
const TYPESCRIPT_MODULES = new Set(['packages/sdk/README.md']);

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

  it("npx --no-install poker-launch runs the checkout's CLI without asking the registry; outside a checkout it asks, then fails, and with --offline fails without asking", async () => {
    // A registry that records what npm asks it, and has nothing.
    const asked: string[] = [];
    const registry = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const { port } = registry.address() as AddressInfo;
    const npm = `export npm_config_registry=http://127.0.0.1:${port}/ npm_config_cache="$(mktemp -d)"\n`;
    try {
      const inside = await bash(`${npm}command npx --no-install poker-launch --help\n`);
      expect(inside.code, inside.stderr).toBe(0);
      expect(inside.stdout).toMatch(/^usage: poker-launch <command>/);
      expect(asked).toEqual([]);
      const bin = await bash('./node_modules/.bin/poker-launch --help\n');
      expect(bin.stdout).toBe(inside.stdout);

      const offline = await bash(
        `${npm}cd "$(mktemp -d)" && command npx --offline --no-install poker-launch --help\n`,
      );
      expect(offline.code).not.toBe(0);
      expect(offline.stdout).not.toContain('usage: poker-launch');
      expect(asked).toEqual([]);

      const outside = await bash(`${npm}cd "$(mktemp -d)" && command npx --no-install poker-launch --help\n`);
      expect(outside.code).not.toBe(0);
      expect(outside.stdout).not.toContain('usage: poker-launch');
      expect(asked).toContain('/poker-launch');
    } finally {
      registry.close();
    }
  });

  for (const document of DOCUMENTS) {
    it(`runs every example of ${document} in order, as written, and each prints what the docs show`, async () => {
      const port = Number(new URL(serve?.address ?? '').port);
      const read = extractExamples(await readFile(join(ROOT, document), 'utf8'), document, {
        typescript: TYPESCRIPT_MODULES.has(document) ? 'modules' : 'refuse',
      });
      const examples = runModules(read, document, port);
      const outputs = await mkdtemp(join(scratch, 'outputs-'));
      const run = await bash(exampleScript(document, examples, port), { DOCS_OUTPUTS: outputs });
      const report = `${document}: exit ${run.code}\n--- stderr\n${run.stderr.slice(-4000)}\n--- stdout\n${run.stdout.slice(-4000)}`;
      expect(run.code, report).toBe(0);
      const differences: string[] = [];
      for (const example of examples) {
        if (example.kind !== 'shell' || !example.shows) continue;
        const printed = await readFile(join(outputs, String(example.line)), 'utf8');
        const shown = example.shows.map((block) => ({ ...block, text: atPort(block.text, port) }));
        const problems = compareShown(shown, printed);
        if (problems.length > 0)
          differences.push(`${document}:${example.line} prints:\n${printed}\n${problems.join('\n')}`);
      }
      expect(differences.join('\n\n')).toBe('');
    });
  }

  /**
   * The TypeScript modules of a document as files, each run of them in one node process, one module
   * after the other (a process each would cost a start-up per block, for nothing).
   */
  function runModules(read: readonly Example[], document: string, port: number): Example[] {
    const examples: Example[] = [];
    let run: string[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const imports = run.map((name) => `await import('./${name}');`).join(' ');
      examples.push({
        kind: 'shell',
        line: Number(/\d+/.exec(run[0] ?? '')?.[0]),
        code: `node --input-type=module -e "${imports}"`,
      });
      run = [];
    };
    for (const example of read) {
      if (example.kind !== 'module') {
        flush();
        examples.push(example);
        continue;
      }
      const name = `.sdk-readme-${example.line}.mjs`;
      const code = sdkReadmeModule(atPort(example.code, port), document, example.line, port);
      examples.push({ kind: 'file', line: example.line, name, code });
      run.push(name);
    }
    flush();
    return examples;
  }

  async function bash(script: string, variables: Record<string, string> = {}): Promise<Run> {
    const file = join(checkout, `.example-${process.hrtime.bigint()}.sh`);
    await writeFile(file, script);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !NOT_IN_A_NEW_SHELL.test(name)),
    );
    return new Promise((resolve, reject) => {
      const child = spawn('bash', [file], {
        cwd: checkout,
        env: { ...env, SECRET: secret, TMPDIR: scratch, ...variables },
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
