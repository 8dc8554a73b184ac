import type { ActivityRecorder } from './activity/activity-recorder.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/schema.js';
import type { SessionStore } from './db/session-store.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { LiveConfig } from './live-config/live-config.js';
import type { ServiceState } from './ops/draining.js';
import type { Metrics } from './ops/metrics.js';
import type { WriteHealth } from './ops/write-health.js';

/** What route handlers depend on. */
export interface AppContext {
  readonly config: Config;
  /** Kysely: reads off the hot path (a GameSession read back). */
  readonly db: Db;
  /** Clients, settings, active currencies and API users, in memory and kept current. */
  readonly live: LiveConfig;
  /** Launch and logout writes (group commit) and token lookups; each write's outcome feeds `writeHealth`. */
  readonly sessions: SessionStore;
  /** Whether the last write committed: readiness follows it (docs/design.md §10). */
  readonly writeHealth: WriteHealth;
  readonly clock: Clock;
  /** Quotas: counted by hooks (http/routes.ts), a caller once its route has authenticated it. */
  readonly rateLimiter: RateLimiter;
  /** Prometheus metrics; the session writer feeds `writeBatchSize`. */
  readonly metrics: Metrics;
  /** Whether the instance is shutting down (readiness answers 503 from then on). */
  readonly state: ServiceState;
  /** Launch attempts recorded for the console (undefined: ACTIVITY_RECORDS=off). */
  readonly activity?: ActivityRecorder | undefined;
}
