import pg from 'pg';

/** Runs one statement as the server's administrator (the TEST_DATABASE_URL user). */
export async function adminQuery(
  serverUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The database name of a postgres:// URL. */
export const databaseName = (url: string): string => new URL(url).pathname.slice(1);

/**
 * What a PostgreSQL restart or failover does to one database, without touching the shared server:
 * refuse new connections to it and terminate the ones open. `restore` lets connections in again.
 */
export async function takeDatabaseDown(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  await terminateConnections(serverUrl, name);
}

export async function terminateConnections(serverUrl: string, name: string): Promise<void> {
  await adminQuery(
    serverUrl,
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name],
  );
}

export async function bringDatabaseBack(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
}
