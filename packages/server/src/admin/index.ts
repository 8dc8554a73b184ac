/**
 * Operator operations: what the CLI (or any other admin front end) calls, and what it needs to reach
 * the database. Also `@poker-launch/server/admin`: an entry without the HTTP stack, which would
 * triple the start-up time of every operator command.
 */
export type { Client, PlayerIdMode } from '../clients/client.js';
export { countClients, findClient, listClients } from '../clients/client.repository.js';
export { type Config, ConfigError, loadConfig } from '../config.js';
export { type MigrationState, schemaBehindMessage } from '../db/migrations.js';
export { type Database, openDatabase } from '../db/open-database.js';
export type { Db } from '../db/schema.js';
export { type BackupReport, backupSqlite } from '../db/sqlite-backup.js';
export type { Player } from '../players/player.js';
export {
  API_PERMISSIONS,
  API_ROLES,
  type ApiPermission,
  type ApiRole,
  type ApiUser,
  isApiPermission,
  isApiRole,
  PERMISSION_CREATE_OPEN_GAME,
  ROLE_ADMIN,
} from '../users/api-user.js';
export { findApiUserByName, listApiUsers, revokeApiUser } from '../users/api-user.repository.js';
export { type CreateApiUserResult, createApiUser, type NewApiUser } from '../users/create-api-user.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/webhook-event.js';
export type { AdminResult } from './admin-result.js';
export { type ClientJson, toClientJson } from './client.serializer.js';
export {
  addClient,
  changeClient,
  createDemoClientIfEmpty,
  DEMO_CLIENT_ID,
  disableClient,
  findClientOrFail,
  generateClientSecret,
} from './client-admin.js';
export {
  type ClientChanges,
  LAUNCH_TARGETS,
  type LaunchTarget,
  SECRET_MIN_LENGTH,
} from './client-changes.js';
export {
  type CurrencyListing,
  disableCurrencies,
  enableCurrencies,
  listCurrencies,
} from './currency-admin.js';
export { type PlayerRegistration, registerPlayer } from './player-admin.js';
export { type PurgeReport, purgeEndedSessions } from './session-admin.js';
export {
  blockPlayerAsOperator,
  type OperatorBlock,
  revokePlayerSessions,
  revokeSession,
  unblockPlayerAsOperator,
} from './session-control-admin.js';
export { changeSetting, getSetting, listSettings, type SettingListing } from './setting-admin.js';
export {
  addWebhookEndpoint,
  changeWebhookEndpoint,
  listWebhookDeliveries,
  listWebhooks,
  parseEventTypes,
  redeliverWebhook,
  removeWebhookEndpoint,
  type WebhookChanges,
  type WebhookDeliveryJson,
  type WebhookEndpointJson,
} from './webhook-admin.js';
