import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';

const REDOCLY = fileURLToPath(new URL('../../../../node_modules/.bin/redocly', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe('the OpenAPI document', () => {
  const h = useHarness('sqlite');
  let folder: string | undefined;
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('passes @redocly/cli lint with the recommended rules, without a single warning', async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-openapi-'));
    const file = join(folder, 'openapi.json');
    await writeFile(file, (await h().app.inject({ method: 'GET', url: '/openapi.json' })).body);
    // In a folder without a redocly.yaml: the recommended rules as they are. No telemetry, no update check.
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ['lint', '--extends', 'recommended', '--format', 'json', file],
      {
        cwd: folder,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          DO_NOT_TRACK: '1',
        },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(
      (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});
