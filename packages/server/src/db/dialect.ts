/** The two databases the service runs on: SQLite embedded, PostgreSQL for production and scale-out. */
export type Dialect = 'sqlite' | 'postgres';
