// How the build writes its outputs: only what changed, each file whole. `npm start` builds before it
// starts (package.json "prestart"), so a build runs while other commands of the same checkout load these
// files: a file rewritten in place can be read half-written (an empty module runs nothing and exits 0, a
// cut one is a SyntaxError), and the CI's tests, which run `npm start` beside CLI commands, saw both.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Writes `content` to `path` unless the file holds it already; otherwise into a temporary file beside it,
 * renamed over it, so that a reader sees the old file or the new one, never part of one.
 */
export function writeIfChanged(path, content) {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  try {
    if (readFileSync(path).equals(bytes)) return;
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Files of an earlier build kept this long after it: a command that started before loads them still. */
const STALE_AFTER_MS = 10 * 60_000;

/**
 * Writes a rolldown build made with `write: false` into `dir`: the chunks (content-hashed names) and maps
 * first, the entries (fixed names) last, so that a process starting meanwhile finds either the old entry
 * with its old chunks or the new one with its new chunks. Chunks of earlier builds are removed once
 * nothing can be loading them any more.
 */
export function writeBundle(output, dir) {
  const isEntry = (file) => file.type === 'chunk' && file.isEntry;
  for (const file of [...output.filter((f) => !isEntry(f)), ...output.filter(isEntry)]) {
    writeIfChanged(join(dir, file.fileName), file.type === 'chunk' ? file.code : file.source);
  }
  const written = new Set(output.map((file) => file.fileName));
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!written.has(name) && Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path);
  }
}
