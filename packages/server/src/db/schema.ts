import type { Kysely } from 'kysely';

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
  config_version: ConfigVersionTable;
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

/** One row: bumped by triggers on every change to clients, settings, active_currencies and api_users. */
export interface ConfigVersionTable {
  id: number;
  version: number | string;
}

export type Db = Kysely<DatabaseSchema>;
