// The build's step after `tsc -b`: the routines' `.sql` sources ship in dist/ beside the modules that
// read them (tsc copies only what it compiles).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from '../../../scripts/build-output.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.sql')) writeIfChanged(join(dist, file), readFileSync(join(src, file)));
}
