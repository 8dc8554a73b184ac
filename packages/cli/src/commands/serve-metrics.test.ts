import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** The value of one sample line of Prometheus' text format, e.g. `name{label="x"} 3`; undefined if absent. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe.each(DIALECTS)('the metrics of poker-launch serve on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it("count the session writer's batches: the launches confirmed are in them", async () => {
    serve = await runServe(database().url);
    const { clientId, secret } = printedCredentials(serve.stdout());
    for (const userId of ['u-1', 'u-2', 'u-3']) {
      expect((await createSession(serve.address, clientId, secret, userId)).status).toBe(200);
    }
    const text = await (await fetch(`${serve.address}/metrics`)).text();
    expect(sample(text, 'poker_launch_sessions_created_total{api_version="v2",target="poker"}')).toBe(3);
    // Each launch is written in some batch (with other writes, perhaps): at least three writes in all.
    expect(sample(text, 'poker_launch_write_batch_size_sum')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'poker_launch_write_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'poker_launch_write_batch_duration_seconds_count')).toBe(
      sample(text, 'poker_launch_write_batch_size_count'),
    );
  });
});
