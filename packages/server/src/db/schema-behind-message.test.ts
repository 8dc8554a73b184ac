import { describe, expect, it } from 'vitest';
import { schemaBehindMessage } from './migrations.js';

const pending = (...names: string[]) => names.map((name) => ({ name, appliedAt: undefined }));

describe('the message of a schema behind this version', () => {
  it('names up to three pending migrations', () => {
    expect(schemaBehindMessage(pending('021-outbox-batch', '022-outbox-entry'))).toBe(
      'the database schema is behind this version (pending: 021-outbox-batch, 022-outbox-entry); ' +
        'run "poker-launch migrate" first',
    );
  });

  it('gives more as a count and a span, and where the list is', () => {
    const names = Array.from({ length: 17 }, (_, index) => `${String(index + 1).padStart(3, '0')}-step`);
    expect(schemaBehindMessage(pending(...names))).toBe(
      'the database schema is behind this version (pending: 17 migrations, 001-step to 017-step; ' +
        '"poker-launch migrate --status" lists them); run "poker-launch migrate" first',
    );
  });
});
