import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Kysely, sql } from '#kysely';
import { moduleFile } from '../../package-files.js';

/**
 * The PostgreSQL routines defined in `.sql` files of this folder (`<name>.sql`, first line
 * `-- <name>, version <n>: ...`). A migration applies one by name and the version it was written for;
 * a change to a routine is a new version in its file and a new migration that applies it
 * (docs/design.md §10).
 */
export type RoutineName = 'poker_launch_write_batch';

/** A routine's source as this version of the service ships it. */
export interface RoutineSource {
  name: RoutineName;
  version: number;
  text: string;
  sha256: string;
}

export function routineSource(name: RoutineName): RoutineSource {
  const text = readFileSync(moduleFile(`db/launch-write/${name}.sql`), 'utf8');
  const header = new RegExp(`^-- ${name}, version (\\d+):`).exec(text);
  if (header === null) throw new Error(`${name}.sql does not begin with "-- ${name}, version <n>:"`);
  return { name, version: Number(header[1]), text, sha256: createHash('sha256').update(text).digest('hex') };
}

/**
 * Applies routine `name` for a migration written when it was at `version`: creates or replaces it and
 * records its version in `database_routines`. If the file has moved on to a later version, a later
 * migration applies that one, and this does nothing (a fresh database gets each routine once).
 */
export async function applyRoutine(db: Kysely<unknown>, name: RoutineName, version: number): Promise<void> {
  const source = routineSource(name);
  if (source.version < version) {
    throw new Error(
      `${name}.sql is at version ${source.version}, older than the ${version} a migration applies`,
    );
  }
  if (source.version > version) return;
  await sql.raw(source.text).execute(db);
  await sql`insert into database_routines (name, version, sha256, applied_at)
            values (${name}, ${version}, ${source.sha256}, ${new Date().toISOString()})
            on conflict (name) do update set version = excluded.version, sha256 = excluded.sha256,
              applied_at = excluded.applied_at`.execute(db);
}
