/**
 * Operator operations: what the CLI (or any other admin front end) calls, and what it needs to reach
 * the database. Also `@poker-launch/server/admin`: an entry without the HTTP stack, which would
 * triple the start-up time of every operator command.
 *
 * Reads are plain functions of the database. Changes are audited operations only (operations.ts): they
 * run as an `Admin` (`adminAs(db, actor)`), and each is recorded in the audit log with the change.
 */
export {
  findAttemptsByRequestId,
  findClientAttemptsByRequestId,
  listClientAttempts,
  REQUEST_ID_SCAN,
  type StoredAttempt,
} from '../activity/activity.repository.js';
export { type Actor, SERVICE_ACTOR } from '../audit/actor.js';
export {
  AUDIT_SEARCH_SCAN,
  type AuditRecord,
  auditRecordTime,
  isAuditRecordId,
  listAuditRecords,
  searchAuditRecords,
} from '../audit/audit.repository.js';
export { detailsAsRead } from '../audit/audit-details-read.js';
export type { Client, PlayerIdMode } from '../clients/client.js';
export { countClients, findClient, listClients } from '../clients/client.repository.js';
export {
  ALLOWED_ADDRESSES_MAX,
  REPLAY_PROTECTIONS,
  REPLAY_WINDOW_MAX_SECONDS,
  REPLAY_WINDOW_MIN_SECONDS,
  type ReplayProtection,
  readReplayWindow,
  SIGNATURE_SCHEMES,
  type SignatureSchemes,
} from '../clients/request-protection.js';
export { type Config, ConfigError, type DatabaseConfig, loadConfig, parseDatabaseUrl } from '../config.js';
export type { Database } from '../db/database.js';
export { isDatabaseUnavailable } from '../db/database-errors.js';
export { type MigrationState, schemaBehindMessage } from '../db/migrations.js';
export { type OpenDatabaseOptions, openDatabase } from '../db/open-database.js';
export type { Db } from '../db/schema.js';
export { BUSY_TIMEOUT_MS as SQLITE_BUSY_TIMEOUT_MS } from '../db/sqlite/sqlite-connection.js';
export { type BackupReport, backupSqlite } from '../db/sqlite-backup.js';
export type { RestoreReport } from '../db/sqlite-restore.js';
export { TABLE_PLANS, type TablePlan } from '../db/store-copy/copied-tables.js';
export { isRequestId } from '../http/request-id.js';
export {
  isOperatorRole,
  OPERATOR_ROLES,
  type Operator,
  type OperatorRole,
} from '../operators/operator.js';
export { findOperator, listOperators } from '../operators/operator.repository.js';
export { hashPassword, PASSWORD_MIN_LENGTH, passwordProblem } from '../operators/password.js';
export { HEARTBEAT_INTERVAL_MS, type InstanceRecord, listInstances } from '../ops/instance-heartbeat.js';
export type { Player } from '../players/player.js';
export { parseDateTime } from '../session-control/player-block-document.js';
export type { SessionState } from '../sessions/session.js';
export {
  checkSearchWindow,
  MAX_SEARCH_WINDOW_DAYS,
  SESSION_STATES,
  sessionStateNamed,
} from '../sessions/session-search.js';
export { quotedSessionId } from '../sessions/token.js';
export {
  API_PERMISSIONS,
  API_ROLES,
  type ApiPermission,
  type ApiRole,
  type ApiUser,
  isApiPermission,
  isApiRole,
  isUnboundPermissionKey,
  PERMISSION_CREATE_OPEN_GAME,
  ROLE_ADMIN,
} from '../users/api-user.js';
export { findApiUserByName, listApiUsers } from '../users/api-user.repository.js';
export { MAX_CLIENTS_PER_API_USER, missingBindings } from '../users/api-user-clients.js';
export type { NewApiUser } from '../users/create-api-user.js';
export {
  BIDI_FORMATTING,
  BIDI_MARKS,
  CONTROL_CHARACTERS,
  characterClass,
  INVISIBLE_SEPARATORS,
  LINE_SEPARATORS,
} from '../validation/character-sets.js';
export { isWebhookId } from '../webhooks/launch-events.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/webhook-event.js';
export type { AdminResult } from './admin-result.js';
export {
  type Admin,
  type AdminChange,
  type AuditedOperation,
  adminAs,
  audited,
  recordDone,
  withinTransaction,
} from './audited.js';
export { type ClientJson, toClientJson } from './client.serializer.js';
export { findClientOrFail, generateClientSecret } from './client-admin.js';
export {
  type ClientChanges,
  type ClientProtectionChanges,
  LAUNCH_TARGETS,
  type LaunchTarget,
  SECRET_MIN_LENGTH,
} from './client-changes.js';
export {
  COPY_STORE_ACTION,
  type CopyReport,
  type CopyStoreOptions,
  copyStore,
  StoreCopyRefused,
} from './copy-store.js';
export { counted } from './counted.js';
export { type CurrencyListing, listCurrencies } from './currency-admin.js';
export { createDemoClientIfEmpty, DEMO_CLIENT_ID } from './demo-client.js';
export * from './operations.js';
export { type NewOperator, newOperatorProblem, unknownOperatorProblem } from './operator-admin.js';
export {
  type ClientHour,
  type InstanceState,
  type Overview,
  type OverviewHours,
  readOverview,
} from './overview.js';
export type { PlayerRegistration } from './player-admin.js';
export type { ErasureReport } from './player-erase.js';
export {
  findPlayers,
  type PlayerFoundJson,
  type PlayerRecordJson,
  type PlayerSessionJson,
  SHOWN_SESSIONS,
  showPlayer,
} from './player-record.js';
export { type PurgeReport, purgeEndedSessions } from './session-admin.js';
export { checkOperatorBlock, type OperatorBlock } from './session-control-admin.js';
export {
  listSessions,
  type SessionListFilter,
  type SessionRecordJson,
  showSession,
} from './session-record.js';
export { getSetting, listSettings, type SettingListing } from './setting-admin.js';
export { restoreSqliteStore } from './store-restore.js';
export {
  lastAnswer,
  listWebhookDeliveries,
  listWebhooks,
  PENDING_COUNT_CAP,
  parseEventTypes,
  type RemovedEndpoint,
  type WebhookChanges,
  type WebhookDeliveryJson,
  type WebhookEndpointJson,
} from './webhook-admin.js';
