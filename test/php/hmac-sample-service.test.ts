import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { printedCredentials } from '../../packages/cli/src/test-support/create-session.js';
import { runPokerLaunch } from '../../packages/cli/src/test-support/run-poker-launch.js';
import { runServe } from '../../packages/cli/src/test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../../packages/cli/src/test-support/temp-database.js';
import { describeWithPhp, PHP_PATH } from './php-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The PHP of the integration guide's hmac section, as an integrator copies it. */
async function hmacSample(): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs/integration.md'), 'utf8');
  const section = guide.slice(
    guide.indexOf('### The hmac signature'),
    guide.indexOf('### The signature tester'),
  );
  const sample = /```php\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  expect(sample).toContain('function hmacSignHeader');
  return sample;
}

describeWithPhp.each(DIALECTS)('the PHP hmac sample against the running service on %s', (dialect) => {
  const database = useTempDatabase(dialect);

  it('launches with the header php-cli computes, once; the same request again is refused as a replay', async () => {
    const serve = await runServe(database().url);
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-php-service-'));
    try {
      const { clientId, secret } = printedCredentials(serve.stdout());
      expect(clientId).toBe('demo'); // the client the sample signs for
      const changed = await runPokerLaunch(['client', 'update', 'demo', '--signature', 'hmac'], {
        DATABASE_URL: database().url,
      });
      expect(changed.code, changed.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a change reaches instances within a second

      // The sample, its $secret set, then its $body sent to its target with its $sign, twice, by PHP itself.
      const file = join(folder, 'launch.php');
      await writeFile(
        file,
        `${(await hmacSample()).replace('<?php', `<?php\n$secret = '${secret}';`)}\n` +
          `$target = '/api/web/v2/app/users/12345/session?clientId=demo';\n` +
          'foreach ([1, 2] as $attempt) {\n' +
          "  $context = stream_context_create(['http' => ['method' => 'POST', 'ignore_errors' => true,\n" +
          '    \'header\' => "content-type: application/x-www-form-urlencoded\\r\\naccept: application/vnd.api+json\\r\\nsign: $sign\\r\\n",\n' +
          "    'content' => $body]]);\n" +
          `  $answer = file_get_contents('${serve.address}' . $target, false, $context);\n` +
          "  echo explode(' ', $http_response_header[0])[1], ' ', json_decode($answer, true)['errors'][0]['code'] ?? 'ok', \"\\n\";\n" +
          '}\n',
      );
      const run = spawnSync(PHP_PATH, ['-n', file], { encoding: 'utf8' });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(run.stdout).toBe('200 ok\n400 request_replayed\n');
    } finally {
      await serve.stop('SIGTERM');
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
