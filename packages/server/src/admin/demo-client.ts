import { SERVICE_ACTOR } from '../audit/actor.js';
import type { Client } from '../clients/client.js';
import { countClients } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import { adminAs } from './audited.js';
import { generateClientSecret } from './client-admin.js';
import { addClient } from './operations.js';

export const DEMO_CLIENT_ID = 'demo';

/**
 * First start: on a database without clients, creates client `demo` with a fresh secret and returns it
 * (with the secret, to show once); the audit log says the service did. Otherwise, or when a concurrent
 * first start won, returns undefined.
 */
export async function createDemoClientIfEmpty(db: Db, now: Date): Promise<Client | undefined> {
  if ((await countClients(db)) > 0) return undefined;
  const created = await addClient(
    adminAs(db, SERVICE_ACTOR, () => now),
    {
      id: DEMO_CLIENT_ID,
      changes: { secretKey: generateClientSecret() },
    },
  );
  return created.ok ? created.value : undefined;
}
