import { describe, expect, it } from 'vitest';
import { ThrottledWarning, WARNING_INTERVAL_MS } from './throttled-warning.js';

describe('a warning said once a burst', () => {
  it('warns at once, then writes debug lines for 10 s, then warns with how many came since', () => {
    let now = Date.parse('2026-11-21T12:00:00Z');
    const lines: [string, object][] = [];
    const log = {
      warn: (fields: object) => lines.push(['warn', fields]),
      debug: (fields: object) => lines.push(['debug', fields]),
    };
    const warning = new ThrottledWarning(
      () => new Date(now),
      'database connection lost',
      'lostSinceLastWarning',
    );
    // Eight pooled connections dropped at once: one warning, seven debug lines.
    for (let connection = 0; connection < 8; connection++) warning.say(log, new Error(`lost ${connection}`));
    expect(lines.map(([level]) => level)).toEqual(['warn', ...Array(7).fill('debug')]);
    expect(lines[0]?.[1]).toEqual({ err: new Error('lost 0') });

    now += WARNING_INTERVAL_MS;
    warning.say(log, new Error('lost again'));
    expect(lines.at(-1)).toEqual(['warn', { err: new Error('lost again'), lostSinceLastWarning: 7 }]);
    now += WARNING_INTERVAL_MS;
    warning.say(log, new Error('once more'));
    expect(lines.at(-1)).toEqual(['warn', { err: new Error('once more') }]);
  });
});
