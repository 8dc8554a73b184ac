// The build's step after `tsc -b`: the routines' `.sql` sources ship in dist/ beside the modules that
// read them (tsc copies only what it compiles).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.sql')) continue;
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(src, file), join(dist, file));
}
