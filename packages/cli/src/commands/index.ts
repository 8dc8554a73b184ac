import type { Command } from '../command.js';
import { openGameCommand } from './open-game.js';
import { sessionCreateCommand } from './session-create.js';
import { signCommand } from './sign.js';

/** Every command, in the order `poker-launch --help` lists them. */
export const COMMANDS: readonly Command[] = [signCommand, sessionCreateCommand, openGameCommand];
