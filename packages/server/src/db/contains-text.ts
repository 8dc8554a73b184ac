import { type Expression, type RawBuilder, type SqlBool, sql } from '#kysely';

/**
 * A case-insensitive "contains" on both dialects: LIKE with `%`, `_` and `\\` searched for as themselves
 * (SQLite has no default escape character, so it is named).
 */
export function containsText(text: string): (column: Expression<string | null>) => RawBuilder<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return (column) => sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}
