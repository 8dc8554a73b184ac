import { type CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode, sql } from '#kysely';
import type { Dialect } from './dialects.js';

/**
 * A handle on `db` that keeps every statement run through it, so a test can ask the database how it
 * would run the statements a page or a command makes (`planOf`).
 */
export function recordingStatements<DB>(db: Kysely<DB>): {
  readonly db: Kysely<DB>;
  readonly statements: () => CompiledQuery[];
} {
  const nodes: RootOperationNode[] = [];
  const recording: KyselyPlugin = {
    transformQuery: (args) => {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return {
    db: db.withPlugin(recording),
    statements: () => nodes.map((node) => db.getExecutor().compileQuery(node, { queryId: 'plan' })),
  };
}

/** The plan of a statement, as text: SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's EXPLAIN lines. */
export async function planOf<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  statement: Pick<CompiledQuery, 'sql' | 'parameters'>,
): Promise<string> {
  const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
  const { rows } = await db.getExecutor().executeQuery<Record<string, unknown>>({
    sql: `${explain} ${statement.sql}`,
    parameters: statement.parameters,
    query: sql``.toOperationNode(),
    queryId: { queryId: 'plan' },
  });
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}
