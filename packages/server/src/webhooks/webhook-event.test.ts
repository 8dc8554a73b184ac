import { describe, expect, it } from 'vitest';
import { type BodyColumns, WEBHOOK_EVENT_TYPES, webhookBody } from './webhook-event.js';

const row = (event_type: string, columns: Partial<BodyColumns> = {}): BodyColumns => ({
  event_type,
  occurred_at: '2026-11-21T12:00:00.000Z',
  client_id: 'casino-1',
  player_id: 'p-42',
  session_id: 's-7',
  game_session_id: '0193a1b2c3d4e5f60718293a4b5c6d7e',
  reason: null,
  block_until: null,
  ...columns,
});

const head =
  '{"type":"%s","timestamp":"2026-11-21T12:00:00.000Z","data":{"clientId":"casino-1","playerId":"p-42"';
const session = ',"sessionId":"s-7","gameSessionId":"0193a1b2c3d4e5f60718293a4b5c6d7e"';

const CASES = [
  ['player.created', {}, ''],
  ['player.updated', {}, ''],
  ['player.unblocked', {}, ''],
  ['player.blocked', { block_until: '2099-01-01T00:00:00.000Z' }, ',"until":"2099-01-01T00:00:00.000Z"'],
  ['player.blocked', {}, ',"until":null'],
  ['session.created', {}, session],
  ['session.opened', {}, session],
  ['session.logged_out', {}, session],
  ['session.expired', {}, session],
  ['session.revoked', { reason: 'block' }, `${session},"reason":"block"`],
] as const;

describe('a delivery body', () => {
  it.each(CASES)('%s %j: these bytes, ids only', (type, columns, rest) => {
    // A session's ids on a player event, or a reason on another event than session.revoked, stay out.
    const body = webhookBody(row(type, { reason: 'operator', ...columns }));
    expect(body).toBe(`${head.replace('%s', type)}${rest}}}`);
  });

  it('has a case for every event type the SDK lists', () => {
    expect(new Set(CASES.map(([type]) => type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  });

  it('sends a type a newer version wrote (two versions share a database during an upgrade) with its kind’s ids', () => {
    expect(webhookBody(row('session.transferred'))).toBe(
      `${head.replace('%s', 'session.transferred')}${session}}}`,
    );
    expect(webhookBody(row('player.merged'))).toBe(`${head.replace('%s', 'player.merged')}}}`);
  });
});
