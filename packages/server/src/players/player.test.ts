import { describe, expect, it } from 'vitest';
import { integratorPlayerId } from './player.js';

describe('integratorPlayerId', () => {
  const player = { id: 'own-id', externalId: 'their-id' };

  it("is the integrator's own id, or the service's in internal player-id mode", () => {
    expect(integratorPlayerId({ playerIdMode: 'external' }, player)).toBe('their-id');
    expect(integratorPlayerId({ playerIdMode: 'internal' }, player)).toBe('own-id');
  });
});
