export * from './admin/index.js';
export { type AppOptions, buildApp } from './app.js';
export type { AppContext } from './app-context.js';
export { type Clock, systemClock } from './clock.js';
export { type Config, ConfigError, DEFAULT_DATABASE_URL, loadConfig, parseDatabaseUrl } from './config.js';
export { type Database, isUniqueViolation, openDatabase } from './db/open-database.js';
export type { Db } from './db/schema.js';
export { LiveConfig } from './live-config/live-config.js';
export { closeOnSignals, type RunningServer, startServer } from './server.js';
