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
import { operatorAddCommand } from './operator-add.js';
import { operatorDisableCommand } from './operator-disable.js';
import { operatorListCommand } from './operator-list.js';
import { operatorPasswordCommand } from './operator-password.js';
import { playerAddCommand } from './player-add.js';
import { playerBlockCommand } from './player-block.js';
import { playerEraseCommand } from './player-erase.js';
import { playerRevokeSessionsCommand } from './player-revoke-sessions.js';
import { playerShowCommand } from './player-show.js';
import { playerUnblockCommand } from './player-unblock.js';
import { serveCommand } from './serve.js';
import { sessionCreateCommand } from './session-create.js';
import { sessionPurgeCommand } from './session-purge.js';
import { sessionRevokeCommand } from './session-revoke.js';
import { settingGetCommand } from './setting-get.js';
import { settingListCommand } from './setting-list.js';
import { settingSetCommand } from './setting-set.js';
import { signCommand } from './sign.js';
import { userAddCommand } from './user-add.js';
import { userListCommand } from './user-list.js';
import { userRevokeCommand } from './user-revoke.js';
import { userUpdateCommand } from './user-update.js';
import { webhookAddCommand } from './webhook-add.js';
import { webhookDeliveriesCommand } from './webhook-deliveries.js';
import { webhookListCommand } from './webhook-list.js';
import { webhookRedeliverCommand } from './webhook-redeliver.js';
import { webhookRemoveCommand } from './webhook-remove.js';
import { webhookUpdateCommand } from './webhook-update.js';

/** Every command, in the order `poker-launch --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  backupCommand,
  sessionPurgeCommand,
  sessionRevokeCommand,
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
  playerShowCommand,
  playerRevokeSessionsCommand,
  playerBlockCommand,
  playerUnblockCommand,
  playerEraseCommand,
  userAddCommand,
  userUpdateCommand,
  userListCommand,
  userRevokeCommand,
  webhookAddCommand,
  webhookListCommand,
  webhookUpdateCommand,
  webhookRemoveCommand,
  webhookDeliveriesCommand,
  webhookRedeliverCommand,
  operatorAddCommand,
  operatorListCommand,
  operatorDisableCommand,
  operatorPasswordCommand,
  signCommand,
  sessionCreateCommand,
  openGameCommand,
];
