// The build's last step: the CLI, the server and the SDK as a few ES modules in dist/bundle/, which the
// bin runs for every command but `serve` (bin/poker-launch.js says why). Node spent most of a command's
// start loading their ~200 modules one by one; the bundle loads them as a handful (docs/performance.md,
// "The test suite's time"). npm packages stay outside it, loaded from node_modules as before.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { writeBundle } from '../../../scripts/build-output.mjs';

const cliDist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const serverPackage = import.meta.resolve('@poker-launch/server/package.json');
const serverDist = (path) => fileURLToPath(new URL(`dist/${path}`, serverPackage));

/** The worker threads: a ThreadChannel names its thread's module beside its own, here in dist/bundle/. */
const THREADS = [
  'db/sqlite/session-writer-thread.js',
  'db/sqlite/token-reader-thread.js',
  'webhooks/webhook-sender-thread.js',
];

const { output } = await build({
  write: false,
  input: {
    main: cliDist('main.js'),
    ...Object.fromEntries(THREADS.map((path) => [basename(path, '.js'), serverDist(path)])),
  },
  platform: 'node',
  logLevel: 'warn',
  // Our own workspace packages and the server's Kysely build go in; every npm package stays outside.
  external: (id) => /^[^./#]/.test(id) && !id.startsWith('@poker-launch/'),
  output: { dir: cliDist('bundle'), format: 'esm', sourcemap: true },
});
writeBundle(output, cliDist('bundle'));
