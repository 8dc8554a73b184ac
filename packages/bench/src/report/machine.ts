import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';

const require = createRequire(import.meta.url);

/** What the numbers were measured on and with, for the header of every report. */
export function machineLines(): string[] {
  const processors = cpus();
  return [
    `- date: ${new Date().toISOString()}`,
    `- commit: ${gitCommit()}`,
    `- machine: ${processors.length} CPUs (${processors[0]?.model.trim() ?? 'unknown'}), node ${process.version}`,
    `- fastify ${packageVersion('fastify')}, autocannon ${packageVersion('autocannon')} (in-process, one thread)`,
  ];
}

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return dirty.trim() === '' ? commit : `${commit} (with uncommitted changes)`;
  } catch {
    return 'unknown';
  }
}
