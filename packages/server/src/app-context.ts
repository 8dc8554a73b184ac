import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/schema.js';

/** What route handlers depend on. */
export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
}
