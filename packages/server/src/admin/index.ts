/** Operator operations: what the CLI (or any other admin front end) calls. */
export { findClient, listClients } from '../clients/client.repository.js';
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
export { changeSetting, getSetting, listSettings, type SettingListing } from './setting-admin.js';
