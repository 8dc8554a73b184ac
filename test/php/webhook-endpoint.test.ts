import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { addWebhookEndpoint } from '../../packages/server/src/admin/webhook-admin.js';
import { createMetrics } from '../../packages/server/src/ops/metrics.js';
import { endSessionRequest } from '../../packages/server/src/test-support/control-requests.js';
import { freePort } from '../../packages/server/src/test-support/free-port.js';
import { useHarness } from '../../packages/server/src/test-support/harness.js';
import { DIALECTS } from '../../packages/server/src/test-support/test-database.js';
import { LOCAL_WEBHOOKS } from '../../packages/server/src/test-support/webhook-world.js';
import { WebhookDeliverer } from '../../packages/server/src/webhooks/webhook-deliverer.js';
import { extractExamples } from '../docs/markdown-examples.js';
import { describeWithPhp, PHP_PATH } from './php-cli.js';

const GUIDE = fileURLToPath(new URL('../../docs/integration.md', import.meta.url));

/** The PHP endpoint of the integration guide, as written there. */
async function guideEndpoint(): Promise<string> {
  const examples = extractExamples(await readFile(GUIDE, 'utf8'), 'docs/integration.md');
  const file = examples.find((example) => example.kind === 'file' && example.name === 'webhook-endpoint.php');
  if (file?.kind !== 'file') throw new Error('docs/integration.md has no webhook-endpoint.php');
  return file.code;
}

describeWithPhp.each(DIALECTS)("the integration guide's PHP webhook endpoint on %s", (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let php: ChildProcess | undefined;
  let folder = '';
  afterEach(async () => {
    php?.kill();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** php -S serving the guide's endpoint with this secret; its log lines name each event it took. */
  const startPhp = async (secret: string) => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-php-'));
    await writeFile(join(folder, 'webhook-endpoint.php'), await guideEndpoint());
    const port = await freePort();
    let log = '';
    php = spawn(PHP_PATH, ['-S', `127.0.0.1:${port}`, 'webhook-endpoint.php'], {
      cwd: folder,
      env: { ...process.env, WEBHOOK_SECRET: secret },
    });
    php.stderr?.on('data', (chunk) => (log += chunk));
    await new Promise<void>((resolve, reject) => {
      const check = () => (log.includes('started') ? resolve() : undefined);
      php?.stderr?.on('data', check);
      php?.once('exit', () => reject(new Error(`php -S ended: ${log}`)));
    });
    return { url: `http://127.0.0.1:${port}/`, log: () => log };
  };

  it('takes the deliveries signed with its secret (204) and refuses one signed with another (400)', async () => {
    await h().addClient();
    const added = await addWebhookEndpoint(
      h().db,
      h().config,
      { clientId: 'demo', url: 'http://127.0.0.1:1/', events: 'session.revoked' },
      h().clock.now(),
    );
    if (!added.ok) throw new Error(added.reason);
    const right = await startPhp(added.value.secret);
    await h().db.updateTable('webhook_endpoints').set({ url: right.url }).execute();
    await h().refresh();
    const deliverer = new WebhookDeliverer({
      ...h(),
      log: h().app.log,
      clock: h().clock.now,
      metrics: createMetrics(),
    });
    const endOne = async (userId: string) => {
      const launched = await h().createSession(userId, {});
      expect((await endSessionRequest(h(), launched.json().data.id)).statusCode).toBe(204);
    };
    await endOne('u-1');
    await endOne('u-2');
    await deliverer.tick();
    await deliverer.idle();
    const rows = () =>
      h().db.selectFrom('webhook_deliveries').select(['id', 'state', 'last_status']).orderBy('id').execute();
    const delivered = await rows();
    expect(delivered.map(({ state, last_status }) => [state, last_status])).toEqual([
      ['delivered', 204],
      ['delivered', 204],
    ]);
    for (const { id } of delivered) expect(right.log()).toContain(`webhook session.revoked ${id}`);

    // A secret that is not the endpoint's: every signature is refused.
    await h()
      .db.updateTable('webhook_endpoints')
      .set({ secret: 'whsec_d3JvbmcgcGFzc3dvcmQgb2YgMzIgYnl0ZXMhISE=' })
      .execute();
    await h().refresh();
    await endOne('u-3');
    await deliverer.tick();
    await deliverer.idle();
    await deliverer.stop();
    expect((await rows()).at(-1)).toMatchObject({ state: 'pending', last_status: 400 });
  });
});
