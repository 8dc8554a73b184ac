import { addApiUserChange, revokeApiUserChange } from './api-user-admin.js';
import { audited } from './audited.js';
import {
  addClient as addClientChange,
  changeClient,
  disableClient as disableClientChange,
} from './client-admin.js';
import type { ClientChanges } from './client-changes.js';
import {
  disableCurrencies as disableCurrenciesChange,
  enableCurrencies as enableCurrenciesChange,
} from './currency-admin.js';
import { addOperatorChange, changeOperatorPasswordChange, disableOperatorChange } from './operator-admin.js';
import { registerPlayer } from './player-admin.js';
import { endPlayerSessionsChange, endSessionChange } from './session-admin.js';
import { changeSettings as changeSettingsChange } from './setting-admin.js';

/**
 * Every administrative change the CLI and the console make, each recorded in the audit log with the
 * change (admin/audited.ts). The admin entry (`@poker-launch/server/admin`) offers changes only from
 * here, so neither front end can make one unrecorded.
 */

export interface ClientChangeInput {
  id: string;
  changes: ClientChanges;
}

export const addClient = audited('client.add', (db, { id, changes }: ClientChangeInput, now) =>
  addClientChange(db, id, changes, now),
);
export const updateClient = audited('client.update', (db, { id, changes }: ClientChangeInput, now) =>
  changeClient(db, id, changes, now),
);
/** A new secret, the one it replaces kept for an overlap: recorded apart from other updates. */
export const rotateClientSecret = audited(
  'client.rotate-secret',
  (db, { id, changes }: ClientChangeInput, now) => changeClient(db, id, changes, now),
);
export const enableClient = audited('client.enable', (db, { id }: { id: string }, now) =>
  changeClient(db, id, { active: true }, now),
);
export const disableClient = audited('client.disable', (db, { id }: { id: string }, now) =>
  disableClientChange(db, id, now),
);

export const enableCurrencies = audited('currency.enable', enableCurrenciesChange, ({ codes }) => ({
  target: codes.join(' ').toUpperCase(),
  details: { codes },
}));
export const disableCurrencies = audited('currency.disable', disableCurrenciesChange, ({ codes }) => ({
  target: codes.join(' ').toUpperCase(),
  details: { codes },
}));

export const changeSettings = audited('setting.change', changeSettingsChange, ({ values }) => ({
  target: Object.keys(values).join(' '),
  details: { values },
}));

export const addPlayer = audited('player.add', registerPlayer, (registration, player) => ({
  target: `${registration.clientId}/${registration.userId}`,
  details: {
    clientId: registration.clientId,
    userId: registration.userId,
    nick: registration.nick ?? null,
    playerId: player.id,
  },
}));

export const addApiUser = audited('api-user.add', addApiUserChange);
export const revokeApiUser = audited('api-user.revoke', revokeApiUserChange);

export const endSession = audited('session.end', endSessionChange);
export const endPlayerSessions = audited('player.end-sessions', endPlayerSessionsChange);

export const addOperator = audited('operator.add', addOperatorChange);
export const disableOperator = audited('operator.disable', disableOperatorChange);
export const changeOperatorPassword = audited('operator.password', changeOperatorPasswordChange);
