import type { Generated, Kysely } from '#kysely';

/**
 * Tables as Kysely sees them. Booleans are integers 0/1 and times ISO 8601 text (UTC, fixed width,
 * so they sort as they compare) on both dialects: one schema, no dialect branches outside db/.
 */
export interface DatabaseSchema {
  clients: ClientTable;
  players: PlayerTable;
  sessions: SessionTable;
  settings: SettingTable;
  active_currencies: ActiveCurrencyTable;
  api_users: ApiUserTable;
  api_user_clients: ApiUserClientTable;
  config_version: ConfigVersionTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_expiry_scan: WebhookExpiryScanTable;
  webhook_endpoint_leases: WebhookEndpointLeaseTable;
  webhook_endpoint_health: WebhookEndpointHealthTable;
  operators: OperatorTable;
  operator_sessions: OperatorSessionTable;
  sign_in_failures: SignInFailureTable;
  audit_log: AuditLogTable;
  launch_activity: LaunchActivityTable;
  launch_activity_minutes: LaunchActivityMinuteTable;
  instances: InstanceTable;
  used_signatures: UsedSignatureTable;
}

export interface ClientTable {
  id: string;
  secret_key: string | null;
  active: number;
  currency_mandatory: number;
  player_id_mode: string;
  url_poker: string | null;
  url_casino_lobby: string | null;
  url_casino: string | null;
  url_sport: string | null;
  /** JSON array of origins allowed to frame the game pages and to host restoreSessionUrl. */
  frame_origins: string;
  /** The secret a rotation replaced, valid for signatures until previous_secret_until. */
  previous_secret_key: string | null;
  previous_secret_until: string | null;
  /** off | accept | require: the replay fields of the API's signature (docs/design.md §11). */
  replay_protection: Generated<string>;
  replay_window_seconds: Generated<number>;
  /** legacy | hmac | both: the `sign` schemes the client's requests may use. */
  signature_scheme: Generated<string>;
  /** JSON array of CIDR ranges the client's calls may come from; empty: anywhere. */
  allowed_addresses: Generated<string>;
  /** ISO 8601: signs signed earlier are refused, set when the replay window widens (docs/design.md §11). */
  replay_signed_not_before: string | null;
  created_at: string;
  updated_at: string;
}

export interface PlayerTable {
  id: string;
  client_id: string;
  external_id: string;
  nick: string | null;
  /** The nick folded for uniqueness (NFKC, case-insensitive); unique across the deployment. */
  nick_key: string | null;
  name: string | null;
  email: string | null;
  referred_by: string | null;
  referral_code: string | null;
  bonus_code: string | null;
  avatar: number | null;
  phone_number: string | null;
  tag: string | null;
  active: number;
  verified: number;
  trusted_level: number | null;
  currency: string | null;
  preferred_currency: string | null;
  country: string | null;
  created_at: string;
  updated_at: string;
  /** Set while the player is blocked (since then); launches are refused and its sessions were ended. */
  blocked_at: string | null;
  /** When the block ends by itself; null with blocked_at: until it is lifted. */
  blocked_until: string | null;
  block_reason: string | null;
  /** When its personal fields were erased on request (`poker-launch player erase`); null: never. */
  erased_at: string | null;
}

export interface SessionTable {
  id: string;
  /** SHA-256 of the auth token; the token itself is never stored. */
  token_hash: string;
  client_id: string;
  player_id: string;
  external_session_id: string;
  api_version: string;
  game_code: string;
  table_id: number | null;
  game_id: string | null;
  auth_type: string;
  lang: string;
  currency: string | null;
  launch_options: string | null;
  long_life: number;
  user_ip: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The first use of its token, recorded for clients that take session.opened webhooks. */
  opened_at: string | null;
  /** Why it was revoked (integrator, operator, block, client_disabled); null for the player's logout. */
  revoke_reason: string | null;
  /** The API user whose key opened it (v3 with Authorization); null for a signed launch. */
  api_user: string | null;
}

export interface SettingTable {
  name: string;
  value: string;
}

export interface ActiveCurrencyTable {
  code: string;
}

export interface ApiUserTable {
  name: string;
  /** SHA-256 of the API key. */
  key_hash: string;
  role: string | null;
  permissions: string;
  created_at: string;
  revoked_at: string | null;
}

/** A client an API user may act for (docs/design.md §11). */
export interface ApiUserClientTable {
  user_name: string;
  client_id: string;
}

/** One row: bumped by triggers on every change to clients, settings, active_currencies and api_users. */
export interface ConfigVersionTable {
  id: number;
  version: number | string;
}

/** Where a client's webhooks go; the secret signs them (Standard Webhooks), so it is kept as given. */
export interface WebhookEndpointTable {
  id: string;
  client_id: string;
  url: string;
  secret: string;
  /** The secret a rotation replaced: deliveries carry both signatures until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  enabled: number;
  /** Why it was disabled: `operator`, or `gone` (it answered 410). */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookSubscriptionTable {
  endpoint_id: string;
  event_type: string;
}

/**
 * The outbox: one row per event and endpoint, written in the transaction of the change it reports.
 * The body sent is built from these columns, the same on every attempt.
 */
export interface WebhookDeliveryTable {
  /** Also the `webhook-id` header. */
  id: string;
  endpoint_id: string;
  client_id: string;
  event_type: string;
  occurred_at: string;
  /** The player's id as the integrator knows it. */
  player_id: string | null;
  /** The integrator's session id (v2 session-id, v3 sessionId). */
  session_id: string | null;
  /** The session record's id (v2 data.id, the last segment of v3's GameSession IRI). */
  game_session_id: string | null;
  /** session.revoked: who or what ended it. */
  reason: string | null;
  /** player.blocked: when the block ends (null: until lifted). */
  block_until: string | null;
  /** pending, delivered or failed. */
  state: string;
  attempts: number;
  next_attempt_at: string;
  /**
   * A deliverer holds the row until then (it claimed it); after, another may take it. The mark
   * ENDPOINT_LEASED instead: the row goes to whoever holds its endpoint's lease (webhook_endpoint_leases).
   */
  lease_until: string | null;
  claimed_by: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  /**
   * When `webhook redeliver` last made it pending again (null: never): the backlog gauge measures a
   * pending event from then, not from its creation (migration 029).
   */
  redelivered_at: string | null;
}

/** The instance that delivers an endpoint's marked rows, until when (docs/design.md §11). */
export interface WebhookEndpointLeaseTable {
  endpoint_id: string;
  holder: string;
  lease_until: string;
}

/** An endpoint's health (migration 032; docs/design.md §11): no row, healthy. */
export interface WebhookEndpointHealthTable {
  endpoint_id: string;
  /** Attempts that failed in a row since the last that succeeded. */
  failed_attempts: number;
  /** Since when the endpoint is failing: only a probe goes to it (null: not failing). */
  failing_since: string | null;
  /** When the failing endpoint is probed next. */
  next_probe_at: string | null;
  /** Probes that failed in a row: the next one waits longer. */
  failed_probes: number;
}

/** One row: the expiry time up to which sessions have been looked at for session.expired. */
export interface WebhookExpiryScanTable {
  id: number;
  /** Null before the first scan. */
  scanned_until: string | null;
}

/** A console account: not an API user (docs/console.md). */
export interface OperatorTable {
  username: string;
  /** Argon2id, PHC string form. */
  password_hash: string;
  role: string;
  active: number;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
}

export interface OperatorSessionTable {
  /** SHA-256 of the session cookie's token; the token itself is never stored. */
  token_hash: string;
  username: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
  address: string | null;
}

export interface SignInFailureTable {
  /** `account:<username>` or `address:<ip>`. */
  key: string;
  failures: number;
  last_failure_at: string;
}

/** One administrative change, written in the transaction that made it. */
export interface AuditLogTable {
  id: string;
  at: string;
  /** `cli`, `console` or `service`. */
  actor_via: string;
  /** The operating-system user (CLI), the operator (console). */
  actor_name: string;
  /** The host (CLI), the browser's address (console). */
  actor_address: string | null;
  action: string;
  target: string | null;
  /** JSON object of what changed; secrets replaced by whether they were set. */
  details: string;
}

/** One launch attempt (v2 or v3), as the integrator saw its answer. */
export interface LaunchActivityTable {
  id: string;
  at: string;
  client_id: string;
  api_version: string;
  status: number;
  error_code: string | null;
  /** JSON array of {code, pointer, detail}. */
  errors: string | null;
  /** JSON array of the staging signature hints' texts. */
  hints: string | null;
  /** The integrator's player id as sent. */
  player_id: string | null;
  request_id: string | null;
}

/** Launch attempts of one client in one minute with one first error code, counted by the activity flush. */
export interface LaunchActivityMinuteTable {
  client_id: string;
  /** ISO 8601 to the minute, UTC: `2026-11-27T09:05`. */
  minute: string;
  /** The first error's code; '' for a launch. */
  error_code: string;
  attempts: number;
}

/** A running instance's heartbeat. */
export interface InstanceTable {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  seen_at: string;
  draining: number;
  /** Null: written by an instance of a version before migration 033. */
  version: string | null;
  /** The addresses it listens on, `host:port` joined by ", "; null as `version`. */
  listening_on: string | null;
}

/** A launch's signature, kept so that the same signed request launches once (docs/design.md §11). */
export interface UsedSignatureTable {
  client_id: string;
  sign: string;
  /** When the signature could no longer be accepted anyway: the row may go after that. */
  expires_at: string;
}

export type Db = Kysely<DatabaseSchema>;
