import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sdkReadmeModule } from './sdk-readme.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a README block as the docs test does, from the repository (where the SDK resolves). */
async function run(code: string): Promise<{ status: number | null; stderr: string }> {
  const folder = await mkdtemp(join(ROOT, 'node_modules', '.sdk-readme-test-'));
  try {
    const file = join(folder, 'example.mjs');
    await writeFile(file, sdkReadmeModule(code, 'README.md', 10, 8080));
    const result = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    return { status: result.status, stderr: result.stderr };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('sdkReadmeModule', () => {
  it('runs a block with the SDK imported, and checks the value a comment shows', async () => {
    const holds = await run(
      "canonicalString({ userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' });\n// 'externalenPlayer112345'",
    );
    expect(holds).toEqual({ status: 0, stderr: '' });
    const differs = await run("canonicalString({ userId: '1' });\n// 'externalenPlayer112345'");
    expect(differs.status).not.toBe(0);
    expect(differs.stderr).toContain('README.md:11: shows "externalenPlayer112345", evaluates to "1"');
  });

  it('checks a literal a trailing comment starts with, and leaves prose comments alone', async () => {
    expect((await run('1 + 1; // 2, of course\n"a"; // e.g. anything')).status).toBe(0);
    expect((await run('1 + 1; // 3, of course')).status).not.toBe(0);
  });

  it('leaves out the lines under // Do not compile:, and fails on anything written to console.error', async () => {
    expect((await run("// Do not compile:\nthrow new Error('never runs');\n\nconst a = 1;")).status).toBe(0);
    expect((await run("console.error('refused');")).status).toBe(1);
  });
});
