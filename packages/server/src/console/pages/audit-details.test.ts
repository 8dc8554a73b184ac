import { describe, expect, it } from 'vitest';
import { detailLines } from './audit-details.js';

describe("an audit record's details as lines", () => {
  it('walks objects to their leaves, joins lists of plain values, and says which values are none', () => {
    const lines = detailLines({
      id: 'casino-1',
      changes: {
        launchUrls: { poker: 'https://poker.example/play', sport: null },
        frameOrigins: ['https://a.example', 'https://b.example'],
        currencies: [],
        currencyMandatory: false,
        sessionLifetime: 600,
        secretKey: '(set)',
        note: '',
        empty: {},
      },
      nested: [{ a: 1 }],
    });
    expect(lines.map((line) => [line.key, line.absent ? 'NONE' : line.value])).toEqual([
      ['id', 'casino-1'],
      ['changes.launchUrls.poker', 'https://poker.example/play'],
      ['changes.launchUrls.sport', 'NONE'],
      ['changes.frameOrigins', 'https://a.example, https://b.example'],
      ['changes.currencies', 'NONE'],
      ['changes.currencyMandatory', 'false'],
      ['changes.sessionLifetime', '600'],
      ['changes.secretKey', '(set)'],
      ['changes.note', '""'],
      ['changes.empty', '{}'],
      ['nested', '[{"a":1}]'],
    ]);
  });

  it('gives no line for a record without details', () => {
    expect(detailLines({})).toEqual([]);
  });
});
