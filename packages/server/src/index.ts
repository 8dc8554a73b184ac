export { type AppOptions, buildApp } from './app.js';
export type { AppContext } from './app-context.js';
export { type Clock, systemClock } from './clock.js';
export { type Config, ConfigError, DEFAULT_DATABASE_URL, loadConfig, parseDatabaseUrl } from './config.js';
export { type Database, isUniqueViolation, openDatabase } from './db/open-database.js';
export type { Db } from './db/schema.js';
export { closeOnSignals, type RunningServer, startServer } from './server.js';
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
} from './users/api-user.js';
export { findApiUserByName, listApiUsers, revokeApiUser } from './users/api-user.repository.js';
export { type CreateApiUserResult, createApiUser, type NewApiUser } from './users/create-api-user.js';
