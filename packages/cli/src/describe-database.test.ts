import { describe, expect, it } from 'vitest';
import { describeDatabase } from './database-notice.js';

describe('a database as the CLI names it (notes, copy-store, its audit record)', () => {
  it('shows no password: neither in the URL nor in a query parameter PostgreSQL reads as one', () => {
    const named = describeDatabase({
      dialect: 'postgres',
      url: 'postgres://poker:hunter2@db.internal:5432/poker?password=hunter3&sslpassword=hunter4&sslmode=require',
    });
    expect(named).not.toMatch(/hunter/);
    expect(named).toBe(
      'postgres://poker:***@db.internal:5432/poker?password=***&sslpassword=***&sslmode=require',
    );
  });
});
