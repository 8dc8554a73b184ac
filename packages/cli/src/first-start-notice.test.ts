import { describe, expect, it } from 'vitest';
import { firstStartNotice } from './first-start-notice.js';

describe('the first start notice', () => {
  it('says where the secret can be read again, rather than that it is shown only once', async () => {
    const text = (await firstStartNotice('http://127.0.0.1:8080', 'demo', 'a'.repeat(64))).join('\n');
    expect(text).toContain('poker-launch client show demo --show-secret');
    expect(text).not.toContain('shown this once');
    expect(text).toMatch(/^ {2}secret: {4}a{64}$/m);
  });
});
