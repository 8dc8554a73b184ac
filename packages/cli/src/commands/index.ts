import type { Command } from '../command.js';

/**
 * A command as `poker-launch --help` lists it. Its module is loaded only when it runs or its own help
 * is asked for: loading every command at each start cost 0.4 s of CPU, as much as most commands' work.
 */
export interface CommandEntry {
  /** Words that select it, e.g. `client add`. */
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

/** Every command, in the order `poker-launch --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    summary: 'Run the service (npm start); staging, on an empty database: first create client demo.',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  {
    name: 'status',
    summary: "The running instances and the last hour's launches per client, as the console's overview.",
    load: async () => (await import('./status.js')).statusCommand,
  },
  {
    name: 'migrate',
    summary: 'Apply the pending database migrations and list them; --status lists every migration.',
    load: async () => (await import('./migrate.js')).migrateCommand,
  },
  {
    name: 'backup',
    summary: 'Write a consistent copy of the SQLite database to <file>, while the service runs.',
    load: async () => (await import('./backup.js')).backupCommand,
  },
  {
    name: 'restore',
    summary: 'Put a SQLite backup in place of the database, the service stopped; the old one is kept.',
    load: async () => (await import('./restore.js')).restoreCommand,
  },
  {
    name: 'copy-store',
    summary:
      'Copy every data table of the database into an empty one (SQLite to PostgreSQL, or back), checked.',
    load: async () => (await import('./copy-store.js')).copyStoreCommand,
  },
  {
    name: 'session purge',
    summary: 'Delete now the sessions that ended more than ExpiredSessionRetention ago; print how many.',
    load: async () => (await import('./session-purge.js')).sessionPurgeCommand,
  },
  {
    name: 'session list',
    summary: 'List the sessions created in a window of time, newest first; by client, player or state.',
    load: async () => (await import('./session-list.js')).sessionListCommand,
  },
  {
    name: 'session show',
    summary: 'Show one session: its client and player, what it opens, its state, and how it ended.',
    load: async () => (await import('./session-show.js')).sessionShowCommand,
  },
  {
    name: 'session revoke',
    summary: 'End one session now: its token stops working on every instance within a second.',
    load: async () => (await import('./session-revoke.js')).sessionRevokeCommand,
  },
  {
    name: 'client add',
    summary: 'Add a client (an integrator platform); prints its generated secret once.',
    load: async () => (await import('./client-add.js')).clientAddCommand,
  },
  {
    name: 'client update',
    summary: 'Change a client: rotate or remove its secret, URLs, frame origins, modes; --enable it again.',
    load: async () => (await import('./client-update.js')).clientUpdateCommand,
  },
  {
    name: 'client list',
    summary: 'List the clients (never their secrets).',
    load: async () => (await import('./client-list.js')).clientListCommand,
  },
  {
    name: 'client show',
    summary: 'Show one client; its secret only with --show-secret.',
    load: async () => (await import('./client-show.js')).clientShowCommand,
  },
  {
    name: 'client activity',
    summary: "List a client's latest launch attempts: launched or refused, each refusal's error codes.",
    load: async () => (await import('./client-activity.js')).clientActivityCommand,
  },
  {
    name: 'client disable',
    summary: "Disable a client: its requests get 400 and its players' live sessions are revoked.",
    load: async () => (await import('./client-disable.js')).clientDisableCommand,
  },
  {
    name: 'currency enable',
    summary: 'Activate ISO 4217 currencies; an unknown code changes nothing.',
    load: async () => (await import('./currency-enable.js')).currencyEnableCommand,
  },
  {
    name: 'currency disable',
    summary: 'Deactivate currencies; an unknown code changes nothing.',
    load: async () => (await import('./currency-disable.js')).currencyDisableCommand,
  },
  {
    name: 'currency list',
    summary: 'List the ISO 4217 currencies, * marking the active ones (--active: those only).',
    load: async () => (await import('./currency-list.js')).currencyListCommand,
  },
  {
    name: 'setting get',
    summary: 'Print the current value of a setting.',
    load: async () => (await import('./setting-get.js')).settingGetCommand,
  },
  {
    name: 'setting set',
    summary: 'Change a setting; every running server uses it within a second, no restart.',
    load: async () => (await import('./setting-set.js')).settingSetCommand,
  },
  {
    name: 'setting list',
    summary: 'List the settings with their values, defaults and meanings.',
    load: async () => (await import('./setting-list.js')).settingListCommand,
  },
  {
    name: 'player add',
    summary: "Register a player of a client and print the service's own player id.",
    load: async () => (await import('./player-add.js')).playerAddCommand,
  },
  {
    name: 'player find',
    summary: "Find players by the integrator's id or the nick, in every client or one; print who they are.",
    load: async () => (await import('./player-find.js')).playerFindCommand,
  },
  {
    name: 'player show',
    summary: "Show a client's player: its profile, its block, whether it was erased, and its sessions.",
    load: async () => (await import('./player-show.js')).playerShowCommand,
  },
  {
    name: 'player revoke-sessions',
    summary: "End every live session of a client's player.",
    load: async () => (await import('./player-revoke-sessions.js')).playerRevokeSessionsCommand,
  },
  {
    name: 'player block',
    summary: "Block a client's player: its live sessions end and its launches are refused (403).",
    load: async () => (await import('./player-block.js')).playerBlockCommand,
  },
  {
    name: 'player unblock',
    summary: "Lift a player's block: its launches are accepted again.",
    load: async () => (await import('./player-unblock.js')).playerUnblockCommand,
  },
  {
    name: 'player erase',
    summary: "Answer an erasure request: end a player's sessions and remove its personal fields.",
    load: async () => (await import('./player-erase.js')).playerEraseCommand,
  },
  {
    name: 'user add',
    summary: 'Create an API user and print its key, once (v3 open game with Authorization: Bearer <key>).',
    load: async () => (await import('./user-add.js')).userAddCommand,
  },
  {
    name: 'user update',
    summary: "Set the clients an API user's key may act for (replacing those it had).",
    load: async () => (await import('./user-update.js')).userUpdateCommand,
  },
  {
    name: 'user list',
    summary: 'List the API users, what they may do and for which clients (never their keys).',
    load: async () => (await import('./user-list.js')).userListCommand,
  },
  {
    name: 'user revoke',
    summary: "Revoke an API user's key; requests with it answer 401 from then on.",
    load: async () => (await import('./user-revoke.js')).userRevokeCommand,
  },
  {
    name: 'webhook add',
    summary: 'Add a webhook endpoint to a client; prints its id and secret (the secret only this once).',
    load: async () => (await import('./webhook-add.js')).webhookAddCommand,
  },
  {
    name: 'webhook list',
    summary: 'List the webhook endpoints (never their secrets).',
    load: async () => (await import('./webhook-list.js')).webhookListCommand,
  },
  {
    name: 'webhook update',
    summary: 'Change a webhook endpoint: its URL, its events, enable or disable it, or rotate its secret.',
    load: async () => (await import('./webhook-update.js')).webhookUpdateCommand,
  },
  {
    name: 'webhook remove',
    summary: 'Remove a webhook endpoint with its deliveries, pending ones included.',
    load: async () => (await import('./webhook-remove.js')).webhookRemoveCommand,
  },
  {
    name: 'webhook deliveries',
    summary: "List an endpoint's latest 50 deliveries, newest first.",
    load: async () => (await import('./webhook-deliveries.js')).webhookDeliveriesCommand,
  },
  {
    name: 'webhook redeliver',
    summary:
      'Send a failed (or delivered) delivery again, with the same webhook-id and a fresh schedule; --endpoint … --failed: all its failed ones.',
    load: async () => (await import('./webhook-redeliver.js')).webhookRedeliverCommand,
  },
  {
    name: 'operator add',
    summary: 'Add an operator account of the console; asks for its password.',
    load: async () => (await import('./operator-add.js')).operatorAddCommand,
  },
  {
    name: 'operator list',
    summary: 'List the operator accounts of the console (never their password hashes).',
    load: async () => (await import('./operator-list.js')).operatorListCommand,
  },
  {
    name: 'operator disable',
    summary: 'Disable an operator account; its console sessions end at once.',
    load: async () => (await import('./operator-disable.js')).operatorDisableCommand,
  },
  {
    name: 'operator enable',
    summary: 'Enable a disabled operator account again; it signs in with its password.',
    load: async () => (await import('./operator-enable.js')).operatorEnableCommand,
  },
  {
    name: 'operator password',
    summary: "Set an operator's password (asked as for operator add); its console sessions end.",
    load: async () => (await import('./operator-password.js')).operatorPasswordCommand,
  },
  {
    name: 'audit list',
    summary:
      'List the audit log, newest first: who changed what, when and from where; --search by action or target.',
    load: async () => (await import('./audit-list.js')).auditListCommand,
  },
  {
    name: 'sign',
    summary: 'Print the sign header of a request (and, with --explain, what it covers).',
    load: async () => (await import('./sign.js')).signCommand,
  },
  {
    name: 'session create',
    summary: 'Create a player session (v2) as an integrator would, and print the launch URL.',
    load: async () => (await import('./session-create.js')).sessionCreateCommand,
  },
  {
    name: 'open-game',
    summary: 'Open a game (v3) for a player as an integrator would, and print the launch URL.',
    load: async () => (await import('./open-game.js')).openGameCommand,
  },
];
