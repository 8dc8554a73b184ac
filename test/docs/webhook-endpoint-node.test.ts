import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { endSessionRequest } from '../../packages/server/src/test-support/control-requests.js';
import { freePort } from '../../packages/server/src/test-support/free-port.js';
import { useHarness } from '../../packages/server/src/test-support/harness.js';
import { DIALECTS } from '../../packages/server/src/test-support/test-database.js';
import { LOCAL_WEBHOOKS, webhookWorld } from '../../packages/server/src/test-support/webhook-world.js';
import { extractExamples } from './markdown-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The Node.js endpoint of the integration guide, as written there. */
async function guideEndpoint(): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs/integration.md'), 'utf8');
  const examples = extractExamples(guide, 'docs/integration.md');
  const file = examples.find((example) => example.kind === 'file' && example.name === 'webhook-endpoint.mjs');
  if (file?.kind !== 'file') throw new Error('docs/integration.md has no webhook-endpoint.mjs');
  return file.code;
}

describe.each(DIALECTS)("the integration guide's Node.js webhook endpoint on %s", (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let node: ChildProcess | undefined;
  let folder = '';
  afterEach(async () => {
    node?.kill();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** The guide's endpoint with this secret, `standardwebhooks` found as an integrator's project finds it. */
  const startEndpoint = async (secret: string) => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-node-endpoint-'));
    await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
    await writeFile(join(folder, 'webhook-endpoint.mjs'), await guideEndpoint());
    const port = await freePort();
    let log = '';
    node = spawn(process.execPath, ['webhook-endpoint.mjs'], {
      cwd: folder,
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
    });
    node.stdout?.on('data', (chunk) => (log += chunk));
    node.stderr?.on('data', (chunk) => (log += chunk));
    await new Promise<void>((resolve, reject) => {
      node?.stdout?.on('data', () => (log.includes('listening') ? resolve() : undefined));
      node?.once('exit', () => reject(new Error(`the endpoint ended: ${log}`)));
    });
    return { url: `http://127.0.0.1:${port}/`, log: () => log };
  };

  it('takes the deliveries signed with its secret (204) and refuses one signed with another (400)', async () => {
    const world = await webhookWorld(h(), 'session.revoked');
    const endpoint = await startEndpoint(world.secret);
    await h().db.updateTable('webhook_endpoints').set({ url: endpoint.url }).execute();
    await h().refresh();
    const endOne = async (userId: string) => {
      const launched = await h().createSession(userId, {});
      expect((await endSessionRequest(h(), launched.json().data.id)).statusCode).toBe(204);
    };
    const rows = () =>
      h().db.selectFrom('webhook_deliveries').select(['id', 'state', 'last_status']).orderBy('id').execute();
    await endOne('u-1');
    await world.deliver();
    const [delivered] = await rows();
    expect(delivered).toMatchObject({ state: 'delivered', last_status: 204 });
    expect(endpoint.log()).toContain(`webhook session.revoked ${delivered?.id}`);

    await h()
      .db.updateTable('webhook_endpoints')
      .set({ secret: 'whsec_d3JvbmcgcGFzc3dvcmQgb2YgMzIgYnl0ZXMhISE=' })
      .execute();
    await h().refresh();
    await endOne('u-2');
    await world.deliver();
    await world.close();
    expect((await rows()).at(-1)).toMatchObject({ state: 'pending', last_status: 400 });
  });
});
