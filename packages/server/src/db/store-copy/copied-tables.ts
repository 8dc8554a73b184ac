import type { DatabaseSchema } from '../schema.js';

/** What `poker-launch copy-store` does with one table of the schema (docs/design.md §10). */
export type TablePlan =
  /** Every row, read in the order of `key` (its primary key), written as read. */
  | { readonly copy: 'rows'; readonly key: readonly string[] }
  /** The one row (id = 1) the migrations create in every database: the source's values replace the target's. */
  | { readonly copy: 'single-row' }
  /** Not data: the target keeps what its migrations made of it. */
  | { readonly copy: 'skip'; readonly why: string };

/**
 * Every table of DatabaseSchema, so that a new table cannot be forgotten (the compiler asks for it), in
 * the order they are written: a table after those its foreign keys point to.
 */
export const TABLE_PLANS = {
  clients: { copy: 'rows', key: ['id'] },
  players: { copy: 'rows', key: ['id'] },
  sessions: { copy: 'rows', key: ['id'] },
  settings: { copy: 'rows', key: ['name'] },
  active_currencies: { copy: 'rows', key: ['code'] },
  api_users: { copy: 'rows', key: ['name'] },
  api_user_clients: { copy: 'rows', key: ['user_name', 'client_id'] },
  webhook_endpoints: { copy: 'rows', key: ['id'] },
  webhook_subscriptions: { copy: 'rows', key: ['endpoint_id', 'event_type'] },
  webhook_deliveries: { copy: 'rows', key: ['id'] },
  operators: { copy: 'rows', key: ['username'] },
  audit_log: { copy: 'rows', key: ['id'] },
  launch_activity: { copy: 'rows', key: ['client_id', 'id'] },
  launch_activity_minutes: { copy: 'rows', key: ['client_id', 'minute', 'error_code'] },
  used_signatures: { copy: 'rows', key: ['client_id', 'sign'] },
  webhook_expiry_scan: { copy: 'single-row' },
  config_version: {
    copy: 'skip',
    why: "the target's own cache counter: its triggers bump it as the copy writes the live configuration",
  },
  webhook_endpoint_leases: {
    copy: 'skip',
    why: "held by the source's running instances: the target's instances take their own",
  },
  webhook_endpoint_health: {
    copy: 'skip',
    why: "what the source's attempts found of each endpoint: the target's deliverers find it again",
  },
  operator_sessions: {
    copy: 'skip',
    why: 'console sign-ins: operators sign in again on the new store',
  },
  sign_in_failures: {
    copy: 'skip',
    why: "the last hour's failed console sign-ins, which slow guessing down on the source only",
  },
  instances: { copy: 'skip', why: "the source's running instances' heartbeats" },
} as const satisfies Record<keyof DatabaseSchema, TablePlan>;

export type TableName = keyof typeof TABLE_PLANS;

/** The tables whose rows are copied, in the order they are written. */
export const COPIED_TABLES = (Object.keys(TABLE_PLANS) as TableName[]).filter(
  (name) => TABLE_PLANS[name].copy === 'rows',
);
