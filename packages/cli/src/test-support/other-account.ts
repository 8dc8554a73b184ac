import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { BIN } from './run-poker-launch.js';

/** An account of no privilege, as an operator's own would be. */
export const NOBODY = { uid: 65534, gid: 65534 };

/** Whether any account can read `file`: it and every folder above it open to others. */
export function readableByAll(file: string): boolean {
  if ((statSync(file).mode & 0o004) === 0) return false;
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (dirname(folder) === folder) return true;
  }
}

/**
 * Whether a test may run the CLI as NOBODY: it runs as root, and that account can read the installed bin
 * (a checkout in a folder only root may enter, as some CI machines have, cannot).
 */
export const canRunAsNobody = (): boolean => process.getuid?.() === 0 && readableByAll(BIN);
