import type { FastifyBaseLogger } from 'fastify';
import type { Client } from '../clients/client.js';
import { listClients } from '../clients/client.repository.js';
import { type CurrencyStatus, listActiveCurrencyCodes } from '../currencies/currency.repository.js';
import { isKnownCurrency } from '../currencies/iso-currencies.js';
import type { Db } from '../db/schema.js';
import { RepeatedFailure } from '../repeated-failure.js';
import { loadSettings } from '../settings/setting.repository.js';
import type { Settings } from '../settings/settings.js';
import type { ApiUser } from '../users/api-user.js';
import { listApiUsersByKeyHash } from '../users/api-user.repository.js';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint.js';
import { listWebhookEndpoints } from '../webhooks/webhook-endpoint.repository.js';
import type { WebhookEventType } from '../webhooks/webhook-event.js';
import { readConfigVersion } from './config-version.repository.js';

/** How often an instance asks whether the configuration changed: a change applies within a second. */
export const REFRESH_INTERVAL_MS = 250;

/** At most one refresh started by misses this often (docs/design.md §11): unknown ids cost no queries. */
export const MISS_REFRESH_INTERVAL_MS = 100;

interface Snapshot {
  readonly version: string;
  readonly clients: ReadonlyMap<string, Client>;
  readonly settings: Settings;
  readonly activeCurrencies: ReadonlySet<string>;
  readonly apiUsersByKeyHash: ReadonlyMap<string, ApiUser>;
  readonly webhookEndpoints: readonly WebhookEndpoint[];
}

/**
 * What every request consults — clients, settings, active currencies, API users, webhook endpoints —
 * held in memory, so a launch reads nothing from the database before it writes. The tables are small and change rarely;
 * a trigger bumps `config_version` on every change, whoever makes it (the CLI, another instance), and
 * each instance polls that one row, reloading everything when it moved. So a disabled client, a revoked
 * key or a new setting takes effect on every instance within REFRESH_INTERVAL_MS plus one reload.
 */
export class LiveConfig {
  private timer: NodeJS.Timeout | undefined;
  /** Refreshes run one after another; each reads the version after the one before it ended. */
  private refreshes: Promise<void> = Promise.resolve();
  private polling = false;
  /** When a miss last started a refresh (ms since the epoch); misses start at most one per interval. */
  private lastMissRefresh = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly db: Db,
    private snapshot: Snapshot,
  ) {}

  static async load(db: Db): Promise<LiveConfig> {
    return new LiveConfig(db, await loadSnapshot(db));
  }

  client(id: string): Client | undefined {
    return this.snapshot.clients.get(id);
  }

  /**
   * The client, as held now. One not held (added a moment ago, or never) starts a refresh in the
   * background, so the next request finds a new client without waiting for the poll, while this one is
   * answered at once: an unknown id costs what a known one does (docs/design.md §11).
   */
  findClient(id: string): Client | undefined {
    const held = this.client(id);
    if (!held) this.refreshAfterMiss();
    return held;
  }

  get settings(): Settings {
    return this.snapshot.settings;
  }

  /** @param code an upper-case candidate code: any text, "unknown" unless it is an ISO 4217 code */
  currencyStatus(code: string): CurrencyStatus {
    if (!isKnownCurrency(code)) return 'unknown';
    return this.snapshot.activeCurrencies.has(code) ? 'active' : 'inactive';
  }

  /** The user of an API key, by the key's SHA-256; revoked users too (the caller decides what that means). */
  apiUserByKeyHash(keyHash: string): ApiUser | undefined {
    return this.snapshot.apiUsersByKeyHash.get(keyHash);
  }

  /** Every API user held (revoked ones too). */
  get apiUsers(): ApiUser[] {
    return [...this.snapshot.apiUsersByKeyHash.values()];
  }

  /** The user of an API key, as held now; one not held starts a refresh in the background, like findClient. */
  findApiUserByKeyHash(keyHash: string): ApiUser | undefined {
    const held = this.apiUserByKeyHash(keyHash);
    if (!held) this.refreshAfterMiss();
    return held;
  }

  /** The version of what is held (config_version when it was loaded). */
  get version(): string {
    return this.snapshot.version;
  }

  /** Every webhook endpoint, enabled or not. */
  get webhookEndpoints(): readonly WebhookEndpoint[] {
    return this.snapshot.webhookEndpoints;
  }

  /** Whether an enabled endpoint of the client takes events of this type (so one is worth writing). */
  subscribes(clientId: string, type: WebhookEventType): boolean {
    return this.snapshot.webhookEndpoints.some(
      (endpoint) => endpoint.clientId === clientId && endpoint.enabled && endpoint.eventTypes.includes(type),
    );
  }

  /** Reloads now if the configuration changed since the last load (tests call it after a change). */
  refresh(): Promise<void> {
    const next = this.refreshes.catch(() => undefined).then(() => this.reloadIfChanged());
    this.refreshes = next;
    return next;
  }

  /**
   * A client id or API key it does not hold makes the instance look again, off the request's path: after
   * the current macrotask (so never before the request that missed is answered, even on SQLite, whose
   * queries run on the event loop), at most once per MISS_REFRESH_INTERVAL_MS, so a flood of unknown ids
   * costs at most ten cheap queries a second and no request waits for one.
   */
  private refreshAfterMiss(): void {
    const now = Date.now();
    if (now - this.lastMissRefresh < MISS_REFRESH_INTERVAL_MS) return;
    this.lastMissRefresh = now;
    setImmediate(() => {
      // A failure is the poll's to report (it keeps what was loaded).
      this.refresh().catch(() => undefined);
    });
  }

  private async reloadIfChanged(): Promise<void> {
    const version = await readConfigVersion(this.db);
    if (version !== this.snapshot.version) this.snapshot = await loadSnapshot(this.db);
  }

  /**
   * Polls for changes until `stop`; a failed poll (the database is away) keeps what was loaded, and is
   * said once, not at each poll, then once when a poll works again.
   */
  start(log: FastifyBaseLogger): void {
    const polls = new RepeatedFailure(
      log,
      'could not refresh the configuration; keeping what was loaded and trying again at each poll, said again once it works',
      'configuration refreshed again',
    );
    this.timer ??= setInterval(() => {
      if (this.polling) return;
      this.polling = true;
      this.refresh()
        .then(
          () => polls.works(),
          (error: unknown) => polls.fails(error),
        )
        .finally(() => {
          this.polling = false;
        });
    }, REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.refreshes.catch(() => undefined);
  }
}

/** The version is read first: a change made while the tables load moves it again, and the next poll reloads. */
async function loadSnapshot(db: Db): Promise<Snapshot> {
  const version = await readConfigVersion(db);
  const [clients, settings, activeCurrencies, apiUsersByKeyHash, webhookEndpoints] = await Promise.all([
    listClients(db),
    loadSettings(db),
    listActiveCurrencyCodes(db),
    listApiUsersByKeyHash(db),
    listWebhookEndpoints(db),
  ]);
  return {
    version,
    clients: new Map(clients.map((client) => [client.id, client])),
    settings,
    activeCurrencies: new Set(activeCurrencies),
    apiUsersByKeyHash,
    webhookEndpoints,
  };
}
