// A step of the build, after tsc: Kysely as one ES module, which `#kysely` (package.json "imports") names.
// Loading the package's 262 modules took 0.22 CPU-s of every process that opens a store, the CLI's
// commands and `serve` among them; the one file, 0.03 s (docs/performance.md, "The test suite's time").
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { writeBundle } from '../../../scripts/build-output.mjs';

const { output } = await build({
  write: false,
  input: { kysely: fileURLToPath(import.meta.resolve('kysely')) },
  platform: 'node',
  logLevel: 'warn',
  output: { format: 'esm' },
});
writeBundle(output, fileURLToPath(new URL('../dist/vendor/', import.meta.url)));
