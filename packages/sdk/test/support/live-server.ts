import { beforeEach } from 'vitest';
import { type Harness, useHarness } from '../../../server/src/test-support/harness.js';
import type { Dialect } from '../../../server/src/test-support/test-database.js';

export { DIALECTS } from '../../../server/src/test-support/test-database.js';

export interface LiveServer extends Harness {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
}

/**
 * The real service for each test: a fresh app on a fresh database (the server's own harness),
 * listening on a free loopback port, closed after the test.
 */
export function useLiveServer(dialect: Dialect, env: Record<string, string> = {}): () => LiveServer {
  const harness = useHarness(dialect, env);
  let baseUrl: string | undefined;
  beforeEach(async () => {
    baseUrl = await harness().app.listen({ host: '127.0.0.1', port: 0 });
  });
  return () => {
    if (baseUrl === undefined) throw new Error('useLiveServer: no test is running');
    return { ...harness(), baseUrl };
  };
}
