/**
 * Work to do if the benchmark is interrupted (Ctrl-C, SIGTERM): stop the servers it started and drop the
 * stores it created, so that an interrupted run leaves no process and no database behind.
 */
const pending = new Set<() => Promise<void>>();
let installed = false;
let interruptedBy: NodeJS.Signals | undefined;

/** Whether a signal is ending the run: what fails from then on is the interruption, not a finding. */
export function interrupted(): boolean {
  return interruptedBy !== undefined;
}

/** Registers `cleanup` until the returned function is called (after the normal cleanup ran). */
export function cleanUpOnInterrupt(cleanup: () => Promise<void>): () => void {
  if (!installed) {
    installed = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        interruptedBy = signal;
        process.stderr.write(`\n${signal}: stopping the servers and dropping the stores…\n`);
        void Promise.allSettled([...pending].map((work) => work())).then(() => process.exit(130));
      });
    }
  }
  pending.add(cleanup);
  return () => pending.delete(cleanup);
}
