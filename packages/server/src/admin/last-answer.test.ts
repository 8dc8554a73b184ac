import { describe, expect, it } from 'vitest';
import { lastAnswer } from './webhook-admin.js';

describe("a delivery's last answer, as operators read it", () => {
  it('shows the recorded answer once, not its status again before it', () => {
    expect(lastAnswer({ lastStatus: 404, lastError: 'HTTP 404: {"errors":[]}' })).toBe(
      'HTTP 404: {"errors":[]}',
    );
    expect(lastAnswer({ lastStatus: null, lastError: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('keeps the last status beside the reason a delivery stopped for, and the status alone when that is all', () => {
    expect(
      lastAnswer({
        lastStatus: 503,
        lastError: 'not delivered within the retry schedule (endpoint failing)',
      }),
    ).toBe('HTTP 503; not delivered within the retry schedule (endpoint failing)');
    expect(lastAnswer({ lastStatus: 204, lastError: null })).toBe('HTTP 204');
    expect(lastAnswer({ lastStatus: null, lastError: null })).toBeNull();
  });
});
