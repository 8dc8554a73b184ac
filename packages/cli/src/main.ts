import { runCli } from './run-cli.js';

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
// serve keeps the process alive on its own; every other command ends here.
if (exitCode !== 0 || process.argv[2] !== 'serve') process.exitCode = exitCode;
