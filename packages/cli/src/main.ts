import { readPassword } from './password-input.js';
import { runCli } from './run-cli.js';

const serving = process.argv[2] === 'serve';
if (!serving) {
  // `poker-launch currency list | head`: the reader has all it wants; stop quietly, not with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // `> /dev/full`, a full disk: the output is lost, so the command failed; one line, not a stack trace.
    process.stderr.write(`poker-launch: cannot write to standard output: ${error.message}\n`);
    process.exit(1);
  });
} else {
  // serve prints its first start's notice on stdout, beside the log. A stdout that fails (a full disk, a
  // collector gone) must not stop the service: the log's output says so on stderr once, and counts the
  // lines it loses (the server's http/log-destination.ts); the notice says how to show the secret again.
  process.stdout.on('error', () => {});
}

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  readPassword: (what) => readPassword(process.stdin, process.stderr, what),
});
// serve keeps the process alive on its own; every other command ends here.
if (exitCode !== 0 || !serving) process.exitCode = exitCode;
