import { describe, expect, it } from 'vitest';
import { detailsAsRead } from './audit-details-read.js';

describe("an audit record's details as an operator reads them", () => {
  it("reads webhook.add's null events as all, and leaves every other null as it is", () => {
    const details = { clientId: 'casino-1', url: 'https://hooks.example/a', events: null };
    expect(detailsAsRead({ action: 'webhook.add', details })).toEqual({ ...details, events: 'all' });
    expect(
      detailsAsRead({ action: 'webhook.add', details: { ...details, events: 'session.created' } }),
    ).toEqual({
      ...details,
      events: 'session.created',
    });
    expect(detailsAsRead({ action: 'player.add', details: { nick: null } })).toEqual({ nick: null });
    expect(detailsAsRead({ action: 'webhook.redeliver', details: { since: null } })).toEqual({ since: null });
  });
});
