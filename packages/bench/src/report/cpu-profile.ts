import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  readonly location: string;
  readonly milliseconds: number;
  /** Of the busy time: every sample but (idle). */
  readonly percent: number;
}

/**
 * The functions the process spent most of its own time in (self time, not counting callees), over
 * the given .cpuprofile files of the folder.
 */
export async function topSelfTime(folder: string, files: readonly string[], top = 15): Promise<SelfTime[]> {
  const totals = new Map<string, number>();
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(folder, file), 'utf8')) as CpuProfile;
    const locations = new Map(profile.nodes.map((node) => [node.id, describe(node.callFrame)]));
    profile.samples.forEach((nodeId, index) => {
      const location = locations.get(nodeId) ?? '(unknown)';
      totals.set(location, (totals.get(location) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
    });
  }
  totals.delete('(idle)');
  const busy = [...totals.values()].reduce((sum, value) => sum + value, 0);
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([location, milliseconds]) => ({ location, milliseconds, percent: (milliseconds / busy) * 100 }));
}

/** The .cpuprofile files in the folder that were not there before (`before`). */
export async function newProfiles(folder: string, before: ReadonlySet<string>): Promise<string[]> {
  return (await listProfiles(folder)).filter((file) => !before.has(file));
}

export async function listProfiles(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((file) => file.endsWith('.cpuprofile'));
  } catch {
    return [];
  }
}

function describe(frame: CpuProfile['nodes'][number]['callFrame']): string {
  if (frame.url === '') return frame.functionName || '(anonymous)';
  const path = frame.url.replace(/^file:\/\//, '').replace(/^.*?\/(packages|node_modules)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${path}:${frame.lineNumber + 1}`;
}
