import type { Command } from '../command.js';
import { signCommand } from './sign.js';
import { userAddCommand } from './user-add.js';
import { userListCommand } from './user-list.js';
import { userRevokeCommand } from './user-revoke.js';

/** Every command, in the order `poker-launch --help` lists them. */
export const COMMANDS: readonly Command[] = [signCommand, userAddCommand, userListCommand, userRevokeCommand];
