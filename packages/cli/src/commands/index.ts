import type { Command } from '../command.js';
import { backupCommand } from './backup.js';
import { clientAddCommand } from './client-add.js';
import { clientDisableCommand } from './client-disable.js';
import { clientListCommand } from './client-list.js';
import { clientShowCommand } from './client-show.js';
import { clientUpdateCommand } from './client-update.js';
import { currencyDisableCommand } from './currency-disable.js';
import { currencyEnableCommand } from './currency-enable.js';
import { currencyListCommand } from './currency-list.js';
import { migrateCommand } from './migrate.js';
import { openGameCommand } from './open-game.js';
import { playerAddCommand } from './player-add.js';
import { serveCommand } from './serve.js';
import { sessionCreateCommand } from './session-create.js';
import { sessionPurgeCommand } from './session-purge.js';
import { settingGetCommand } from './setting-get.js';
import { settingListCommand } from './setting-list.js';
import { settingSetCommand } from './setting-set.js';
import { signCommand } from './sign.js';
import { userAddCommand } from './user-add.js';
import { userListCommand } from './user-list.js';
import { userRevokeCommand } from './user-revoke.js';

/** Every command, in the order `poker-launch --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  backupCommand,
  sessionPurgeCommand,
  clientAddCommand,
  clientUpdateCommand,
  clientListCommand,
  clientShowCommand,
  clientDisableCommand,
  currencyEnableCommand,
  currencyDisableCommand,
  currencyListCommand,
  settingGetCommand,
  settingSetCommand,
  settingListCommand,
  playerAddCommand,
  userAddCommand,
  userListCommand,
  userRevokeCommand,
  signCommand,
  sessionCreateCommand,
  openGameCommand,
];
