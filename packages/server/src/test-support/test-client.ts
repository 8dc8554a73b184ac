import type { Client } from '../clients/client.js';

/** A client as tests need one: active, external player ids, built-in pages, unless `overrides` say otherwise. */
export function testClient(createdAt: Date, overrides: Partial<Client> = {}): Client {
  return {
    id: 'demo',
    secretKey: 'test_secret',
    active: true,
    currencyMandatory: false,
    playerIdMode: 'external',
    launchUrls: {},
    frameOrigins: [],
    createdAt: createdAt.toISOString(),
    ...overrides,
  };
}
