import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { integratorProgram } from './support/integrator-program.js';

/**
 * An integrator's module that passes values it may not have (environment variables, optional form
 * fields): the SDK leaves out every option and parameter that is undefined, so its types take them.
 */
const MODULE = `
import { createLaunchClient } from '@poker-launch/sdk';
declare const maybe: string | undefined;
declare const maybeNumber: number | undefined;
declare const maybeBoolean: boolean | undefined;
const launch = createLaunchClient({
  baseUrl: 'http://127.0.0.1:8080',
  clientId: 'demo',
  secretKey: maybe,
  apiKey: maybe,
  signature: { scheme: undefined, replayFields: maybeBoolean },
  fetch: undefined,
  retry: { tries: maybeNumber, baseDelayMs: undefined, maxDelayMs: undefined },
});
await launch.createSession('u-1', { nick: maybe, lang: maybe, currency: maybe, tableId: maybeNumber });
await launch.createSession('u-1', { gameCode: 'casino', gameId: 'roulette', currency: 'EUR', nick: maybe });
await launch.openGame({
  player: { id: 'u-1', nick: maybe, email: maybe, avatar: maybeNumber, verified: maybeBoolean },
  session: { id: maybe, lang: maybe, tableId: maybeNumber, longLifeLoginToken: maybeBoolean },
});
await launch.openGame({ player: { id: 'u-1' }, session: undefined });
await launch.blockPlayer('u-1', { until: maybe, reason: maybe });
// A numeric player id, as the integration guide allows for v3's player.id (and as many databases keep it).
await launch.openGame({ player: { id: 12345 } });
// A block read back (until and reason null when there is none) set again as it is.
const read = await launch.getPlayerBlock('u-1');
await launch.blockPlayer('u-2', { until: read.until, reason: read.reason });
export {};
`;

describe('the SDK types under exactOptionalPropertyTypes', () => {
  it('take undefined for every optional option and parameter, which the SDK leaves out', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-sdk-optional-'));
    try {
      const file = join(folder, 'integrator.ts');
      await writeFile(file, MODULE);
      const program = integratorProgram([file]);
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
