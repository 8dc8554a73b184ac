import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

describe.each(DIALECTS)('the console currencies page on %s', (dialect) => {
  const h = useHarness(dialect);

  it('shows a refused code once, beside its own field, and keeps the change chosen', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const refused = await browser.post('/console/currencies', { code: 'XYZ', action: 'deactivate' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body.split('XYZ is not an ISO 4217 currency code.')).toHaveLength(2);
    expect(refused.body).toContain('id="e-code"');
    expect(refused.body).not.toContain('id="e-action"');
    expect(refused.body).toMatch(/<select id="f-action" name="action">/);
    expect(refused.body).toContain('<option value="deactivate" selected>');
    expect(refused.body).not.toContain('<option value="activate" selected>');
  });
});
